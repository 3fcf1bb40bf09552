/**
 * The dispatcher both doors call: the dynamic door (dynamic.ts, the serialized providers of TypeScript programs)
 * and the plugin door (plugin.ts, every other language). Configuration, then one handler method by type token;
 * errors leave here with every credential masked, and a partial create keeps its id and `__provider`.
 *
 * Its compiled path, `dist/provider/door.js`, is written into users' state by the dynamic door (each serialized
 * provider requires it at call time): it must keep existing, with these exports, in every later release
 * (test/engine/upgrade.test.ts holds it).
 */
import { flushCompileCache } from "./compile-cache"; // first: the modules below load from the cache
import { accountProblem, withAccount } from "./config";
import { ConfigError, MissingCredentialError, NotFoundError, ValidationError } from "./http/errors";
import { isUnknown, PROVIDER_KEY, type CheckFailure } from "./check";
import { outcomeUnknown, PartialCreateError, type Bag } from "./handler";
import { currentUrn, redacted, useLogSink, withCallSecrets } from "./log";
import { registry } from "./registry";
import { previewCheck } from "./preflight";
import { engineAddress, isDynamicProviderHost, watchEngine } from "./engine-watch";
import { configFailure, unsupportedNode } from "./door-config";
import { handedOver, quietHostReprints } from "./host-reprints";
import { OWNER_KEY, ownerOfUrn, parseOwner, withOwner } from "./owner";
import { createRecorded, journalledCreate, keepCreateJournal, withEarlierCreate } from "./create-journal";
import { engineForm, shownFailures } from "./engine-check";
import { forHandler, invalidOf, programRefusal, withDefaultsFilled } from "./engine-inputs";
import {
  ACCOUNT_KEY,
  SECRETS_KEY,
  secretValuesOf,
  splitAccount,
  withAccountKept,
  withOwnerKept,
  withoutUndefined,
  type Method,
} from "./call-bags";

// The plugin door's invokes (invoke.ts) and the configuration (door-config.ts), exported here as they always were.
export { invoke } from "./invoke";
export { configure, warnRetired } from "./door-config";

flushCompileCache();
if (isDynamicProviderHost()) {
  if (watchEngine()) keepCreateJournal();
  quietHostReprints();
  // Warnings to the engine's diagnostics (stderr lines would land inside whatever resource's diff is printing).
  const engine = engineAddress(process.argv.slice(2));
  if (engine) useLogSink((require("./plugin-server") as typeof import("./plugin-server")).engineLog(`${engine.host}:${engine.port}`));
}

/** The type and method pairs served so far: the first call of each may load modules (a handler, undici). */
const served = new Set<string>();

export async function call(type: string, method: Method, args: unknown[]): Promise<any> {
  const entry = registry[type];
  if (!entry) {
    throw new Error(`pulumi-ops has no resource type ${type}: upgrade the pulumi-ops package this program uses`);
  }
  // Its secret inputs (the SDK's hidden `__secrets` names them on the dynamic door) are masked in all it says.
  const secret = secretValuesOf(method, args);
  return withCallSecrets(secret.values, () => callHandler(type, entry, method, args), secret.any);
}

async function callHandler(type: string, entry: (typeof registry)[string], method: Method, args: unknown[]): Promise<any> {
  try {
    if (unsupportedNode) throw new ConfigError(unsupportedNode);
    if (configFailure() && method !== "check") throw new ConfigError(configFailure()!);
    const handler = await entry.handler();
    const { account, owner, secrets, args: own } = splitAccount(method, args);
    if (method === "read" && entry.importId === undefined && isLookup(args[1] as Bag)) {
      const [module, name] = type.split(":");
      throw new ValidationError({
        service: module,
        message: `${name} cannot be read or imported by id: it is not an object the service keeps`,
        remedy: `Declare it in the program (docs/reference/${module}.md)`,
      });
    }
    if (method === "check" && account !== undefined && !isUnknown(account)) {
      const problem = accountProblem(account);
      if (problem) return { inputs: args[1], failures: [{ property: ACCOUNT_KEY, reason: problem }] };
    }
    const journalKey = journalKeyOf(type, owner);
    // The engine holds the resource in state: its create's note is done with (create-journal.ts). Not on a diff
    // that replaces it: the replacement's create is still to come, and a kill during it must find the note.
    if (method !== "check" && method !== "create" && method !== "diff" && !isLookup(args[1] as Bag)) createRecorded(journalKey);
    // A resource the program found problems in, or held with one that has (sdk/types.ts): nothing is sent.
    const refused = programRefusal(type, method, args);
    if (refused) return refused;
    const handlerCall = () => (handler[method] as (...a: unknown[]) => Promise<any>)(...forHandler(type, method, own));
    const run =
      method === "create"
        ? () => journalledCreate(journalKey, handlerCall, { mayHaveMade: outcomeUnknown, expires: !NOTES_KEPT.has(type) })
        : handlerCall;
    const answer = await withOwner(parseOwner(owner), () =>
      withAccount(typeof account === "string" && !isUnknown(account) ? account : undefined, run),
    );
    if (method === "diff" && !isLookup(args[1] as Bag) && !(answer as { replaces?: string[] } | undefined)?.replaces?.length)
      createRecorded(journalKey);
    const result = withoutUndefined(withOwnerKept(method, withAccountKept(method, answer, account, args), owner, secrets));
    // `X.get(name, id)` reads with no state: nothing there is an error to say, not a resource silently absent.
    if (method === "read" && !result?.id && isLookup(args[1] as Bag)) {
      const [module, name] = type.split(":");
      throw new NotFoundError({
        service: module,
        message: `${name}.get: nothing has the id ${String(args[0])}`,
        remedy: `Pass the id the resource's .id output holds (docs/reference/${module}.md gives each type's id)`,
      });
    }
    return result;
  } catch (e) {
    const clean = redacted(method === "delete" && e instanceof MissingCredentialError ? destroyWithout(e) : e);
    if (method !== "create" && method !== "update" && handedOver.size < 1000) handedOver.add(`${clean}: `); // the ones the host reprints
    if (e instanceof PartialCreateError && (method === "create" || method === "update")) {
      const inputs = (method === "create" ? args[0] : args[2]) as Bag;
      // `reasons` is what the engine prints for a partial create ("resource init failed" alone without it).
      Object.assign(clean, {
        id: e.id,
        properties: {
          ...e.properties,
          [PROVIDER_KEY]: inputs[PROVIDER_KEY],
          ...(inputs[ACCOUNT_KEY] !== undefined ? { [ACCOUNT_KEY]: inputs[ACCOUNT_KEY] } : {}),
        },
        reasons: [clean.message],
      });
    }
    throw clean;
  } finally {
    if (!served.has(`${type} ${method}`)) {
      served.add(`${type} ${method}`);
      flushCompileCache(); // what that first call loaded
    }
  }
}

/**
 * A delete without a credential: "set it as stack config" cannot help, since the engine runs a destroy with the
 * provider configuration the last up left in state (pulumi/pulumi#716; #7370 shows the workaround: an up first).
 * What works: the environment variable for this run, or an up with the new configuration first.
 */
function destroyWithout(e: MissingCredentialError): Error {
  const what = e.message.split(":")[0];
  const env = e.env.split(" or ")[0];
  return new ConfigError(
    `${what}: no credential for this delete. A destroy runs with the provider configuration of the last up, which had no ${e.setting} (it came from the environment then, or was set since): ` +
      `give it for this run as the environment variable ${e.env} (\`${env}=<token> pulumi destroy\`), or run \`pulumi up\` with the credential in stack config first, then \`pulumi destroy\``,
  );
}

/** Types whose create's note never expires: a command refused after a kill must never run blindly a day later. */
const NOTES_KEPT = new Set(["control:RemoteCommand"]);

/** The resource a call serves, as the note a create leaves until the engine records it names it (create-journal.ts). */
function journalKeyOf(type: string, owner: unknown): string | undefined {
  const who = parseOwner(owner) ?? ownerOfUrn(currentUrn());
  return who && `${who.stack}::${type}::${who.resource}`;
}

/**
 * `check` as the engine shows it. The engine prints a failure with a property as "property P value {V} has a
 * problem", V being the whole top-level input (a record set's 10,000 records, on one line); a failure without a
 * property is printed as its reason alone. So a nested failure, or one about a long value, goes without a property,
 * its path and its own (short, redacted) value in the reason; a list of problems is cut at SHOWN with a count.
 */
export async function checkForEngine(
  type: string,
  olds: Bag,
  news: Bag,
  secretInputs: Set<string> = new Set(),
): Promise<{ inputs: Bag; failures: CheckFailure[] }> {
  // The old inputs as the program gave them: the engine keeps them without defaults (engine-inputs.ts).
  if (Object.keys(olds).length) olds = withDefaultsFilled(type, olds);
  // Held by the program (another resource of its turn has problems): checked as usual, and kept held for create.
  if (news.__held !== true) return checkInputs(type, olds, news, secretInputs);
  const { __held: _, ...rest } = news;
  const r = await checkInputs(type, olds, rest, secretInputs);
  return { ...r, inputs: { ...r.inputs, __held: true } };
}

async function checkInputs(
  type: string,
  olds: Bag,
  news: Bag,
  secretInputs: Set<string>,
): Promise<{ inputs: Bag; failures: CheckFailure[] }> {
  const misconfigured = configFailure();
  if (misconfigured) return { inputs: news, failures: [{ property: "", reason: misconfigured }] };
  // The program found this resource's problems and fails the run naming them (sdk/types.ts CheckedResource): the
  // engine goes on to the next resource, so every mistake of a preview is said at once; nothing is sent for it.
  if (invalidOf(news)) return { inputs: news, failures: [] };
  const r = await call(type, "check", [olds, news]);
  // A value that is or may be secret is never printed: secret inputs, and what the type treats as secret.
  const secretValues = secretValuesOf("check", [olds, news]);
  const failures = await shownFailures(type, news, r.failures as CheckFailure[], secretInputs, secretValues.values);
  // The services this resource needs, asked once per command with a read: a bad token or an unreachable endpoint
  // fails the preview with the remedy `up` would give (preflight.ts).
  if (!failures.length && !isUnknown(news[ACCOUNT_KEY])) {
    const account = news[ACCOUNT_KEY] as string | undefined;
    const { [OWNER_KEY]: owner, [SECRETS_KEY]: _s, ...inputs } = r.inputs as Bag;
    await withCallSecrets(
      secretValues.values,
      async () => {
        try {
          // Knowing an earlier create's note, a record's preview says the up takes what that create made.
          await withOwner(parseOwner(owner), () =>
            withAccount(account, () =>
              withEarlierCreate(journalKeyOf(type, owner), () => previewCheck(type, account, inputs, olds), !NOTES_KEPT.has(type)),
            ),
          );
        } catch (e) {
          const clean = redacted(e);
          if (handedOver.size < 1000) handedOver.add(`${clean}: `); // the dynamic host reprints a failed check
          throw clean;
        }
      },
      secretValues.any,
    );
  }
  if (failures.length) return { inputs: r.inputs, failures };
  const account = typeof news[ACCOUNT_KEY] === "string" && !isUnknown(news[ACCOUNT_KEY]) ? (news[ACCOUNT_KEY] as string) : undefined;
  return { inputs: await engineForm(type, r.inputs as Bag, account), failures };
}

/**
 * The dynamic door's call: outputs the type derives from secret inputs come back wrapped as secrets (secrets.ts),
 * because the engine re-marks only outputs named like a secret input.
 */
export async function callDynamic(type: string, method: Method, args: unknown[]): Promise<any> {
  const r = method === "read" ? await readForEngine(type, args[0] as string, args[1] as Bag) : await call(type, method, args);
  const { markSecretOutputs } = await import("./secrets");
  if (method === "create") return { ...r, outs: markSecretOutputs(type, r.outs, args[0] as Bag) };
  if (method === "update") return { ...r, outs: markSecretOutputs(type, r.outs, args[2] as Bag) };
  if (method === "read" && r?.props) return { ...r, props: markSecretOutputs(type, r.props, r.props) };
  return r;
}

/**
 * A read for the engine (a refresh, a lookup): its inputs in the form a check gives them, so the next preview shows
 * what changed, not a change of form.
 */
export async function readForEngine(type: string, id: string, props: Bag): Promise<any> {
  const r = await call(type, "read", [id, props]);
  const account = typeof props?.[ACCOUNT_KEY] === "string" && !isUnknown(props[ACCOUNT_KEY]) ? (props[ACCOUNT_KEY] as string) : undefined;
  return r?.inputs ? { ...r, inputs: await engineForm(type, r.inputs, account) } : r;
}

/** A read for `get()`: no state, so no property beyond the engine's `__provider`. */
const isLookup = (props: Bag | undefined) =>
  !Object.keys(props ?? {}).some((k) => k !== PROVIDER_KEY && k !== ACCOUNT_KEY && k !== OWNER_KEY && k !== SECRETS_KEY);
