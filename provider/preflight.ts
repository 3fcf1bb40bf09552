/**
 * Preview checks: `check` (the only method a preview runs for a resource) asks each service the program uses one
 * read, once per command and account, so that a bad token or an unreachable endpoint fails `pulumi preview` with
 * the remedy `up` would give, instead of a green preview and a failed merge. Reads only: a token verification,
 * the user or page behind a token, the runner's model list, the registry's search, the control endpoint's
 * initialize and tool list (no tool is called; a tool a resource needs must be listed); and each zone a resource names by `zoneName`, each page by `pageId` (the page's
 * token, which `up` derives anyway), looked up once, and the runner model a generated skill names (the model list
 * read once). `ops:previewChecks` (PULUMI_OPS_PREVIEW_CHECKS) `false` turns them off for
 * offline previews. Only the services the program's resources use are asked; one of them without credentials fails
 * the preview with the message and fix its up would give. Also asked, once each: a page's tasks (the user's role
 * allows the change), an edge script's account, the short-post account's publishing quota, the page API version's
 * expiry and the page token's (with the app secret). And with no request, whatever the setting: two resources of the program standing for one thing with different inputs (registry.ts `sameThing`).
 */
import { isUnknown, PROVIDER_KEY, UNKNOWN } from "./check";
import { registry } from "./registry";
import { forgetClaims } from "./claims";
import { forgetRegistered } from "./forgetting";
import { EDGE_SETTINGS, GENERAL_SETTINGS, PAGES_SETTINGS, POSTS_SETTINGS, SKILLS_SETTINGS, read, readFlag } from "./config";
import { canonicalModel } from "./runner/model-name";
import type { PublishingLimit } from "./posts/client";

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
  declaredModels.clear();
  ownedInState.clear();
  plannedPosts.clear();
  plannedDeletes.clear();
  forgetClaims();
  forgetRegistered(); // what modules loaded on demand remember (edge/dns-rules.ts: the records declared)
}

/** What an adopting resource will take over, said at preview (reads only), by type. */
const ADOPTION_PREVIEWS: Record<string, () => Promise<(inputs: Record<string, unknown>) => Promise<void>>> = {
  "edge:PageRule": async () => (await import("./edge/page-rule/handler")).previewAdoption,
  "edge:FirewallRule": async () => (await import("./edge/firewall-rule/handler")).previewAdoption,
  "edge:RateLimit": async () => (await import("./edge/rate-limit/handler")).previewAdoption,
  "edge:RulesetRule": async () => (await import("./edge/ruleset-rule/handler")).previewRule,
};

/** Where a new rule will be added among its phase's rules, said at preview (reads only), by type. */
const PLACEMENT_PREVIEWS: Record<string, () => Promise<(inputs: Record<string, unknown>) => Promise<void>>> = {
  "edge:FirewallRule": async () => (await import("./edge/firewall-rule/handler")).previewNew,
  "edge:RateLimit": async () => (await import("./edge/rate-limit/handler")).previewNew,
  "edge:RulesetRule": async () => (await import("./edge/ruleset-rule/handler")).previewRule,
};

/** The permission a page token needs for a change, by type (debug_token's scopes tell it, where the app's secret is set). */
const PAGE_PERMISSIONS: Record<string, string> = {
  "pages:PagePost": "pages_manage_posts",
  "pages:PageRole": "pages_manage_metadata",
  "pages:PageSubscription": "pages_manage_metadata",
};

/** The page task a change needs, by type (a role holds the tasks of the roles below it). */
const PAGE_TASKS: Record<string, { task: string; what: string; roles: string }> = {
  "pages:PagePost": { task: "CREATE_CONTENT", what: "posting", roles: "editor or admin role" },
  "pages:PageRole": { task: "MANAGE", what: "managing roles", roles: "admin role" },
};

/** The posts this run would publish, by account (their inputs): the publishing quota left must hold them all. */
const plannedPosts = new Map<string, Set<string>>();
/** The published posts this run would replace, by account (their old inputs): each is a delete of the day's 100. */
const plannedDeletes = new Map<string, Set<string>>();

/** The runner models this program declares (RunnerModel's check ran in this process), by account. */
const declaredModels = new Set<string>();
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

/** The service's one read of this command (for the current account): throws what `up` would throw. */
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
  if (checks && run) await once(`${service} ${account ?? ""}`, run);
  // DNS records: a CNAME beside another record of the program fails with no request (whatever the setting); beside
  // one on the service, with the preview checks (edge/dns-preview.ts).
  if (type === "edge:DnsRecord" || type === "edge:DnsRecordSet") {
    const { dnsRules } = await import("./edge/dns-rules");
    await dnsRules(type, inputs, olds, checks && Boolean(read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey)));
  }
  if (!checks || !run) return;
  // An expired (or soon expiring) page API version: its calls are answered as another version's.
  if (service === "pages") {
    await once(`pages ${account ?? ""} version`, async () => {
      const { pagesVersion, versionWarning } = await import("./pages/versions");
      const { warn } = await import("./log");
      const said = versionWarning(pagesVersion());
      if (said) warn(said, "pages-api-version", account ?? "");
      // The token's expiry, which debug_token told (with the app's id and secret set).
      const { pages } = await import("./pages/client");
      const expiresAt = pages().tokenInfo?.expiresAt;
      if (expiresAt) {
        const when = new Date(expiresAt * 1000).toISOString().replace(/\.\d+Z$/, "Z");
        const days = (expiresAt * 1000 - Date.now()) / 86_400_000;
        // Said in its last week only: a date weeks ahead, printed at every command, is read by nobody.
        if (days < 7)
          warn(
            `pages: the access token expires at ${when} (${formatDays(days)}): set a new one as ops:pagesAccessToken before then`,
            "pages-token-expiry",
            account ?? "",
          );
      }
    });
  }
  // The short-post token's expiry, as debug_token told it: said at preview, and refreshed for runs in its last week.
  if (service === "posts") {
    await once(`posts ${account ?? ""} token`, async () => {
      const { posts } = await import("./posts/client");
      const { warn } = await import("./log");
      const info = posts().tokenInfo;
      if (!info?.expiresAt) return;
      const when = new Date(info.expiresAt * 1000).toISOString().replace(/\.\d+Z$/, "Z");
      const days = (info.expiresAt * 1000 - Date.now()) / 86_400_000;
      if (days < 7)
        warn(
          `posts: the access token expires at ${when} (${formatDays(days)})${info.refreshed ? "; runs refresh it for themselves until then (th_refresh_token, in memory)" : ""}: store a refreshed one as ops:postsAccessToken (GET graph.threads.net/refresh_access_token?grant_type=th_refresh_token) before then, or it stops working`,
          "posts-token-expiry",
          account ?? "",
        );
    });
  }
  // A rate limiting rule the zone's plan does not allow (period, timeout, host or method matching): refused at up.
  if (type === "edge:RateLimit" && (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))) {
    const { checkPlan } = await import("./edge/rate-limit/handler");
    await checkPlan(inputs, olds);
  }
  // A zone named by the program: unknown to the token, `up` would fail on it (zones.ts caches it for the run).
  if (
    service === "edge" &&
    typeof inputs.zoneName === "string" &&
    !isUnknown(inputs.zoneName) &&
    (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))
  ) {
    const { resolveZone } = await import("./edge/zones");
    await resolveZone({ zoneName: inputs.zoneName });
  }
  // A setting the zone does not list, or cannot change: up would fail on it part-way (1006, 1057).
  if (type === "edge:ZoneSetting" && (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))) {
    await (await import("./edge/zone-setting/handler")).previewSetting(inputs, (key, r) => once(`${account ?? ""} ${key}`, r));
  }
  // A new skill whose slug the registry already holds: up would take another stack's (or a hand-published) skill.
  if (
    type === "skills:Skill" &&
    read(SKILLS_SETTINGS.kind) === "claude" &&
    typeof inputs.slug === "string" &&
    !isUnknown(inputs.slug) &&
    !isUnknown(inputs.adopt) &&
    !ownedByStack(type, olds, inputs)
  ) {
    // On the Claude API: a skill the workspace holds under this name is taken over only with adopt.
    const { claudeSkill } = await import("./skills/skill/claude-handler");
    const problem = await claudeSkill.takeoverProblem(inputs);
    if (problem) throw problem;
  } else if (
    (type === "skills:Skill" || type === "skills:GeneratedSkill") &&
    typeof inputs.slug === "string" &&
    !isUnknown(inputs.slug) &&
    !isUnknown(inputs.adopt) &&
    !ownedByStack(type, olds, inputs)
  ) {
    const { takeoverProblem } = await import("./skills/skill/handler");
    const { skills } = await import("./skills/client");
    const { unlessGone } = await import("./handler");
    const slug = inputs.slug;
    // Another stack's skill (its label) is refused naming it; this stack's own is taken back; one with no label only with adopt.
    const there = (await once(`skills ${account ?? ""} skill ${slug}`, () => unlessGone(() => skills().get(slug)))) as
      Parameters<typeof takeoverProblem>[1] | undefined;
    const problem = there && takeoverProblem(inputs, there);
    if (problem) throw problem;
  }
  // The runner model a generated skill is written by: a runner without it fails `up`'s generation, unless this
  // program makes it. A program that makes it passes its RunnerModel's `name` output, so the model's check has
  // run (in this process) before the skill's. (A RunnerModel's own `name` or `from` is pulled at up: the runner
  // has no read of its registry to ask before.)
  if (type === "runner:RunnerModel" && typeof inputs.name === "string" && !isUnknown(inputs.name)) {
    declaredModels.add(`${account ?? ""} ${canonicalModel(inputs.name)}`);
    // A new model whose name the runner already lists: up would take another stack's (or a hand-pulled) model.
    const { adoptingModel, modelTaken, modelTakeoverRefused } = await import("./runner/model/handler");
    if (!isUnknown(inputs.adopt) && !adoptingModel(inputs) && !ownedByStack(type, olds, inputs)) {
      const models = (await once(`runner ${account ?? ""}`, READS.runner)) as { name: string }[];
      if (models.some((m) => canonicalModel(m.name) === canonicalModel(String(inputs.name)))) {
        const { runner } = await import("./runner/client");
        throw modelTaken(canonicalModel(String(inputs.name)), runner().url);
      }
    }
    // A pinned pulled model the runner lacks (or holds with other weights): the registry's tag is asked what it points
    // at now, so a moved tag fails the preview instead of bringing other weights at up.
    if (
      typeof inputs.expectedDigest === "string" &&
      !isUnknown(inputs.expectedDigest) &&
      inputs.from === undefined &&
      inputs.definitionFile === undefined
    ) {
      const { sameDigest } = await import("./runner/model-name");
      const models = (await once(`runner ${account ?? ""}`, READS.runner)) as { name: string; digest: string }[];
      const there = models.find((m) => canonicalModel(m.name) === canonicalModel(String(inputs.name)));
      if (!there || !sameDigest(inputs.expectedDigest, there.digest)) {
        const { registryDigest } = await import("./runner/registry");
        const asked = (await once(`registry ${canonicalModel(String(inputs.name))}`, () => registryDigest(String(inputs.name)))) as {
          digest?: string;
          why?: string;
        };
        const { ValidationError } = await import("./http/errors");
        const { warn } = await import("./log");
        if (asked.digest && !sameDigest(inputs.expectedDigest, asked.digest)) {
          throw new ValidationError({
            service: "runner",
            message: `${canonicalModel(String(inputs.name))} on the registry is ${asked.digest.slice(0, 12)} now, not the expectedDigest ${inputs.expectedDigest.slice(0, 12)}: the tag points at other weights, which up would pull and refuse`,
            remedy: `Review the new weights; to take them, set expectedDigest to ${asked.digest.slice(0, 12)}; to keep the old ones, pin a tag that still points at them`,
          });
        }
        if (!asked.digest)
          warn(
            `runner: cannot tell what ${canonicalModel(String(inputs.name))} points at on the registry (${asked.why}): up checks the digest after the pull`,
          );
      }
    }
    // Adopting: said plainly, as the runner keeps no owner to read.
    if (inputs.adopt === true && !Object.keys(olds).length) {
      const models = (await once(`runner ${account ?? ""}`, READS.runner)) as { name: string }[];
      if (models.some((m) => canonicalModel(m.name) === canonicalModel(String(inputs.name)))) {
        const from = read(GENERAL_SETTINGS.adoptFromStack);
        if (from) throw modelTakeoverRefused(canonicalModel(String(inputs.name)), from);
        const { notice } = await import("./log");
        notice(
          `runner: RunnerModel ${canonicalModel(String(inputs.name))} will adopt the model already on the runner; the runner keeps no owner, so it may be another stack's: destroy will leave it there. If a stack declares it, that stack's destroy would still delete it: let go of it there first (\`pulumi state delete <its URN>\`, or the resource option retainOnDelete)`,
        );
      }
    }
    // A create request the runner is too old for: it would ignore the fields it does not know.
    const { runnerVersionNeeded, runnerVersionProblem } = await import("./runner/version");
    if (runnerVersionNeeded(inputs)) {
      const { runner } = await import("./runner/client");
      const version = (await once(`runner version ${account ?? ""}`, () => runner().version())) as string;
      const problem = runnerVersionProblem(inputs, version, runner().url);
      if (problem) throw problem;
    }
  }
  if (type === "skills:GeneratedSkill" && typeof inputs.model === "string" && !isUnknown(inputs.model)) {
    const model = inputs.model;
    const models = (await once(`runner ${account ?? ""}`, READS.runner)) as { name: string }[];
    const known =
      declaredModels.has(`${account ?? ""} ${canonicalModel(model)}`) ||
      models.some((m) => canonicalModel(m.name) === canonicalModel(model));
    if (!known) {
      const { NotFoundError } = await import("./http/errors");
      throw new NotFoundError({
        service: "runner",
        message: `the runner has no model ${model}, which generates this skill`,
        remedy:
          "Pull it with an ops.runner.RunnerModel and pass that resource's `name` output as `model` (so the skill waits for it), or fix the name",
      });
    }
  }
  // A page the token cannot manage: `up` would fail deriving its token (the client keeps it for the run); a role on
  // it that does not allow the change: `up` would be refused (the page's tasks, listed with its token).
  if (service === "pages" && typeof inputs.pageId === "string" && !isUnknown(inputs.pageId) && read(PAGES_SETTINGS.accessToken)) {
    const { pages } = await import("./pages/client");
    // A page token (debug_token, with the app's id and secret) without the permission the change needs: up would be
    // refused (#200); a user token's permissions are told by its tasks below.
    const info = pages().tokenInfo;
    const permission = PAGE_PERMISSIONS[type];
    if (info?.type === "PAGE" && info.scopes && permission && !info.scopes.includes(permission)) {
      const { AuthError } = await import("./http/errors");
      throw new AuthError({
        service: "pages",
        message: `Insufficient privileges: the page token in ops:pagesAccessToken was issued without ${permission}, which ${type.split(":")[1]} needs (it has ${info.scopes.join(", ") || "no permission"})`,
        remedy: `Issue the page token again from a user token granted ${permission}, or set ops:pagesAccessToken to such a user token (the provider derives each page's token from it)`,
      });
    }
    const tasks = await pages().pageTasks(inputs.pageId);
    const need = PAGE_TASKS[type];
    if (tasks && need && !tasks.includes(need.task)) {
      const { AuthError } = await import("./http/errors");
      throw new AuthError({
        service: "pages",
        message: `Insufficient privileges: the configured user's role on page ${inputs.pageId} allows ${tasks.join(", ") || "nothing"}; ${need.what} needs ${need.task} (${need.roles})`,
        remedy: `Give the user the ${need.roles} on the page, or set ops:pagesAccessToken to a token of a user who has it`,
      });
    }
  }
  // Access or a subscription someone else set up: taken only with `adopt` (said at preview), else refused here.
  if (
    (type === "pages:PageRole" || type === "pages:PageSubscription") &&
    !ownedByStack(type, olds, inputs) &&
    read(PAGES_SETTINGS.accessToken)
  ) {
    const known = ["pageId", "user", "adopt", "business", "role", "tasks", "subscribedFields"].every((k) => !isUnknown(inputs[k]));
    if (known && typeof inputs.pageId === "string") {
      if (type === "pages:PageRole") await (await import("./pages/page-role/handler")).previewAccess(inputs);
      else await (await import("./pages/page-subscription/handler")).previewSubscription(inputs);
    }
  }
  // A new rule: where it will be added among the phase's rules (which run in order), said at preview.
  const placementPreview = PLACEMENT_PREVIEWS[type];
  if (
    placementPreview &&
    inputs.adopt !== true &&
    !Object.keys(olds).length &&
    !Object.values(inputs).some(isUnknown) &&
    (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))
  ) {
    await (
      await placementPreview()
    )(inputs);
  }
  // A rule that will adopt: said at preview (one read of the zone's rules), as records' adoptions are.
  const adoptionPreview = ADOPTION_PREVIEWS[type];
  if (
    adoptionPreview &&
    inputs.adopt === true &&
    !Object.keys(olds).length &&
    !Object.values(inputs).some(isUnknown) &&
    (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))
  ) {
    await (
      await adoptionPreview()
    )(inputs);
  }
  // An edge script's account: the account's script list, read once (an unknown account fails `up`'s upload).
  if (
    type === "edge:WorkerScript" &&
    typeof inputs.accountId === "string" &&
    !isUnknown(inputs.accountId) &&
    (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))
  ) {
    const { edge } = await import("./edge/zones");
    const accountId = inputs.accountId;
    const scripts = (await once(`edge ${account ?? ""} scripts of ${accountId}`, () => edge().listWorkerScripts(accountId))) as {
      id: string;
    }[];
    // A new script whose name another tool or stack already deployed: up would overwrite it, so it is refused here
    // (its tags say whose it is: this stack's own is taken back, another stack's refused naming it).
    const name = inputs.name;
    if (typeof name === "string" && !isUnknown(inputs.adopt) && !ownedByStack(type, olds, inputs) && scripts.some((s) => s.id === name)) {
      const settings = await edge().getWorkerScriptSettings(accountId, name);
      const { scriptTakeover } = await import("./edge/worker-script/handler");
      const problem = scriptTakeover(inputs, settings.tags);
      if (problem) throw problem;
    }
  }
  // A route or custom domain taken from another script, or moved from one script to another: said or refused here.
  if ((type === "edge:WorkerRoute" || type === "edge:WorkerDomain") && (read(EDGE_SETTINGS.apiToken) || read(EDGE_SETTINGS.apiKey))) {
    if (type === "edge:WorkerRoute") await (await import("./edge/worker-route/handler")).previewRoute(inputs, olds);
    else await (await import("./edge/worker-domain/handler")).previewDomain(inputs, olds);
  }
  // A control tool the resource needs that the endpoint does not offer: `up` would fail calling it.
  if (service === "control" && !inputs.helperUrl) {
    const need =
      type === "control:RemoteDesktopSession"
        ? ["run_command", "applescript"]
        : inputs.interpreter === "applescript"
          ? ["applescript"]
          : ["run_command"];
    const tools = (await once(`control ${account ?? ""}`, READS.control)) as string[];
    const missing = need.filter((t) => !tools.includes(t));
    if (missing.length) {
      const { ValidationError } = await import("./http/errors");
      throw new ValidationError({
        service: "control",
        message: `the endpoint offers no ${missing.join(" or ")} tool (it offers ${tools.join(", ") || "none"})`,
        remedy: "Point ops:controlUrl at an MCP server that runs commands (run_command) and GUI scripts (applescript)",
      });
    }
  }
  // Posts over the account's publishing quota (250 per 24 hours): `up` would publish some and fail on the rest; and
  // the replacements of published posts over its delete quota (100 per 24 hours), each of which deletes a post.
  const postKeys = type === "posts:Post" ? (await import("./posts/post/schema")).REPLACING_FIELDS : [];
  const canonical = postKeys.length ? (await import("./handler")).canonical : (v: unknown) => JSON.stringify(v);
  // Every field a post is made of (a carousel's items, a poll...), compared as values.
  if (type === "posts:Post" && postKeys.some((k) => canonical(inputs[k]) !== canonical(olds[k]))) {
    const key = (bag: Record<string, unknown>) => canonical(postKeys.map((k) => bag[k]));
    const planned = plannedPosts.get(account ?? "") ?? new Set<string>();
    plannedPosts.set(account ?? "", planned.add(key(inputs)));
    const replaced = plannedDeletes.get(account ?? "") ?? new Set<string>();
    if (Object.keys(olds).length && olds.mediaType !== undefined) plannedDeletes.set(account ?? "", replaced.add(key(olds)));
    const { posts } = await import("./posts/client");
    const limit = (await once(`posts ${account ?? ""} publishing limit`, () => posts().publishingLimit())) as PublishingLimit;
    const { deleteQuotaProblem, quotaProblem } = await import("./posts/quota");
    if (limit.quota_usage + planned.size > limit.config.quota_total) throw await quotaProblem(planned.size, limit);
    const deletes = deleteQuotaProblem(replaced.size, limit);
    if (deletes) throw deletes;
  }
}

/** Days left, as a reviewer reads them: hours under two days, never "-0.0 days". */
function formatDays(days: number): string {
  if (days <= 0) return "it has expired";
  return days < 2 ? `in ${Math.round(days * 24)} hours` : `in ${days.toFixed(1)} days`;
}
