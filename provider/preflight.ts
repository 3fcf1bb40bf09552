/**
 * Preview checks: `check` (the only method a preview runs for a resource) asks each service the program uses one
 * read, once per command and account, so that a bad token or an unreachable endpoint fails `pulumi preview` with
 * the remedy `up` would give, instead of a green preview and a failed merge: a token verification, the user or page
 * behind a token, the runner's model list, the registry's search, the control endpoint's tool list. Then what every
 * resource of a service is asked (the page API version's expiry and the tokens', a zone named by `zoneName`), and
 * then the resource's own preview (Handler.preview, in its folder: a takeover, a plan's limit, a quota, a tool it
 * needs), given these reads and their cache. Reads only. Only the services the program's resources use are asked;
 * one of them without credentials fails the preview with the message and fix its up would give.
 * `ops:previewChecks` (PULUMI_OPS_PREVIEW_CHECKS) `false` turns the reads off for offline previews; what needs no
 * request is still said: two resources of the program standing for one thing with different inputs (registry.ts
 * `sameThing`), a CNAME beside another record of the program.
 */
import { isUnknown, PROVIDER_KEY, UNKNOWN } from "./check";
import { registry } from "./registry";
import { forgetClaims } from "./claims";
import { forgetRegistered } from "./forgetting";
import { EDGE_SETTINGS, GENERAL_SETTINGS, PAGES_SETTINGS, SKILLS_SETTINGS, read, readFlag } from "./config";
import { warn } from "./log";

/** The read of each service, by the type token's module. */
const READS: Record<string, () => Promise<unknown>> = {
  // A resource of a service that has no credentials fails here as its up would (the client's own ConfigError):
  // a pull-request job without the secret, a fork, must not preview green.
  async edge() {
    const { edge } = await import("./edge/zones");
    return edge().verifyCredentials();
  },
  async pages() {
    const { pages } = await import("./pages/client");
    return pages().whoAmI();
  },
  async posts() {
    const { posts } = await import("./posts/client");
    return posts().account();
  },
  async runner() {
    const { runner } = await import("./runner/client");
    return runner().list();
  },
  async skills() {
    if (read(SKILLS_SETTINGS.kind) === "claude") {
      // The key and the workspace, read once: the skills it made (takeovers are checked against them below).
      const { claudeSkills } = await import("./skills/claude");
      return claudeSkills().listCustom();
    }
    const { skills } = await import("./skills/client");
    return skills().search("__pulumi-ops-preview-check__");
  },
  async control() {
    // The endpoint's tools, read once: a tool a resource needs that the server lacks fails the preview (below).
    const { control } = await import("./control/client");
    await control().ready(); // (closed once the run goes quiet)
    return (await control().listTools()).map((t) => t.name);
  },
};

const asked = new Map<string, Promise<unknown>>();
/** The read `key` names, made once per command. */
function once(key: string, read: () => Promise<unknown>): Promise<unknown> {
  let p = asked.get(key);
  if (!p) {
    p = read();
    asked.set(key, p);
  }
  return p;
}

/** Forgets the checks made (a new command starts with none; tests that share a process need the same). */
export function forgetPreviewChecks(): void {
  asked.clear();
  standFor.clear();
  ownedInState.clear();
  forgetClaims();
  forgetRegistered(); // what modules loaded on demand remember (edge/dns-rules.ts: the records declared)
}

/**
 * What this stack's state holds (`sameThing` of a check's old inputs): the engine checks a replacement again with no
 * old inputs, and the object the service holds under that name is then this stack's own, not another's to refuse.
 */
const ownedInState = new Set<string>();

/** Whether the object `inputs` name is one this stack holds: a resource in state, or one being replaced. */
function ownedByStack(type: string, olds: Record<string, unknown>, inputs: Record<string, unknown>): boolean {
  const thing = registry[type]?.sameThing;
  if (Object.keys(olds).length && thing) ownedInState.add(thing(olds).toLowerCase());
  return Object.keys(olds).length > 0 || (!!thing && ownedInState.has(thing(inputs).toLowerCase()));
}

/** Two resources of the program that stand for one thing on the service (registry.ts `sameThing`): the second is refused. */
export class ProgramConflictError extends Error {
  override name = "ProgramConflictError";
}

/** What this run's resources stand for (`sameThing`), with the inputs each was checked with. */
const standFor = new Map<string, { type: string; inputs: string }>();

/**
 * The engine gives `check` no resource name, and checks a replaced resource twice with the same inputs: two checks
 * with the same inputs may be one resource, so only different inputs for the same thing are known to be two.
 */
function declareThing(type: string, account: string | undefined, inputs: Record<string, unknown>): void {
  const thing = registry[type]?.sameThing;
  if (!thing) return;
  const what = thing(inputs);
  const { [PROVIDER_KEY]: _, ...rest } = inputs;
  const fingerprint = JSON.stringify(rest, Object.keys(rest).sort());
  if (isUnknown(what) || what.includes(UNKNOWN) || fingerprint.includes(UNKNOWN)) return;
  const key = `${account ?? ""} ${what.toLowerCase()}`;
  const seen = standFor.get(key);
  if (!seen) return void standFor.set(key, { type, inputs: fingerprint });
  if (seen.inputs === fingerprint && seen.type === type) return;
  throw new ProgramConflictError(
    `${type.split(":")[0]}: two resources of the program stand for ${what}, with different inputs (a ${seen.type.split(":")[1]} and this ${type.split(":")[1]}): each up would leave whichever ran last, and the next would change it back. Keep one resource for it: remove the other from the program, or point it at another one`,
  );
}

/**
 * The service's one read of this command (for the current account), its shared reads, then the resource's own
 * preview (Handler.preview): throws what `up` would throw.
 */
export async function previewCheck(
  type: string,
  account: string | undefined,
  inputs: Record<string, unknown> = {},
  olds: Record<string, unknown> = {},
): Promise<void> {
  const checks = readFlag(GENERAL_SETTINGS.previewChecks);
  const service = type.split(":")[0];
  const run = READS[service];
  declareThing(type, account, inputs); // no request: also with the checks off
  if (checks && run) {
    await once(`${service} ${account ?? ""}`, run);
    await SERVICE_READS[service]?.(account, inputs);
  }
  const preview = registry[type] && (await registry[type].handler()).preview;
  await preview?.({
    type,
    account,
    inputs,
    olds,
    reads: checks && !!run && (CREDENTIALS[service]?.() ?? true),
    once: (key, read) => once(key, read) as Promise<any>,
    serviceRead: (other = service) => once(`${other} ${account ?? ""}`, READS[other]),
    ownedByStack: () => ownedByStack(type, olds, inputs),
  });
}

/** Whether a service's credentials are set, where a resource's own reads need them (the service's one read says so otherwise). */
const CREDENTIALS: Record<string, () => boolean> = {
  edge: () => Boolean(read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey)),
  pages: () => Boolean(read(PAGES_SETTINGS.accessToken)),
};

/** What every resource of a service is asked at preview, after the service's one read, once per command and account. */
const SERVICE_READS: Record<string, (account: string | undefined, inputs: Record<string, unknown>) => Promise<void>> = {
  // An expired (or soon expiring) page API version: its calls are answered as another version's; and the token's
  // expiry, which debug_token told (with the app's id and secret set).
  async pages(account) {
    await once(`pages ${account ?? ""} version`, async () => {
      const { pagesVersion, versionWarning } = await import("./pages/versions");
      const said = versionWarning(pagesVersion());
      if (said) warn(said, "pages-api-version", account ?? "");
      const { pages } = await import("./pages/client");
      const expiresAt = pages().tokenInfo?.expiresAt;
      if (expiresAt && expiresSoon(expiresAt))
        warn(
          `pages: the access token expires at ${expiresSoon(expiresAt)}: set a new one as ops:pagesAccessToken before then`,
          "pages-token-expiry",
          account ?? "",
        );
    });
  },
  // The short-post token's expiry, as debug_token told it: said at preview, and refreshed for runs in its last week.
  async posts(account) {
    await once(`posts ${account ?? ""} token`, async () => {
      const { posts } = await import("./posts/client");
      const info = posts().tokenInfo;
      if (info?.expiresAt && expiresSoon(info.expiresAt))
        warn(
          `posts: the access token expires at ${expiresSoon(info.expiresAt)}${info.refreshed ? "; runs refresh it for themselves until then (th_refresh_token, in memory)" : ""}: store a refreshed one as ops:postsAccessToken (GET graph.threads.net/refresh_access_token?grant_type=th_refresh_token) before then, or it stops working`,
          "posts-token-expiry",
          account ?? "",
        );
    });
  },
  // A zone named by the program: unknown to the token, `up` would fail on it (zones.ts caches it for the run).
  async edge(_account, inputs) {
    if (typeof inputs.zoneName !== "string" || isUnknown(inputs.zoneName) || !CREDENTIALS.edge()) return;
    const { resolveZone } = await import("./edge/zones");
    await resolveZone({ zoneName: inputs.zoneName });
  },
};

/**
 * A token's expiry as a reviewer reads it (`<time> (in N days)`), in its last week only: a date weeks ahead, printed
 * at every command, is read by nobody.
 */
function expiresSoon(expiresAt: number): string | undefined {
  const days = (expiresAt * 1000 - Date.now()) / 86_400_000;
  if (days >= 7) return undefined;
  return `${new Date(expiresAt * 1000).toISOString().replace(/\.\d+Z$/, "Z")} (${formatDays(days)})`;
}

/** Days left, as a reviewer reads them: hours under two days, never "-0.0 days". */
function formatDays(days: number): string {
  if (days <= 0) return "it has expired";
  return days < 2 ? `in ${Math.round(days * 24)} hours` : `in ${days.toFixed(1)} days`;
}
