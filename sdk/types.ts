import * as pulumi from "@pulumi/pulumi";
import { settled } from "../provider/program-side";
import { setFromText } from "../provider/set-text";

/**
 * Every output of a resource as an undefined property: the Node SDK exposes only the properties named in the
 * constructor's props, and outputs the engine computes must be passed as undefined.
 */
export function outputSlots(names: readonly string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((k) => [k, undefined]));
}

/**
 * Whose the object is (provider/owner.ts): `<project>/<stack>/<name>`, written where the service can hold a label (a
 * skill's metadata, a Worker's tags, a record's tags on a paid plan) so that another stack's object is never taken silently and this stack's own is taken back;
 * and the resource a create's note names, so that an up after a killed one takes what that create made (provider/create-journal.ts).
 * The engine hides `__` keys from diffs. Not passed for a lookup (`get`).
 */
export function ownerSlot(name: string, opts?: pulumi.CustomResourceOptions): Record<string, string> {
  return opts?.id ? {} : { __owner: `${pulumi.getProject()}/${pulumi.getStack()}/${name}` };
}

/**
 * The names of the inputs the program gave as secrets (`pulumi.secret(...)`, or built from one), passed as the
 * hidden `__secrets`: the engine strips secrets before it calls a dynamic provider, which masks those inputs' values
 * in every line and error it prints (provider/door.ts) and leaves out what it cannot mask (a secret command's
 * output). The engine hides `__` keys from diffs. Not passed for a lookup (`get`).
 */
export function secretsSlot(args: object | undefined, opts?: pulumi.CustomResourceOptions): Record<string, pulumi.Output<string[]>> {
  if (opts?.id) return {};
  const given = Object.entries(args ?? {}).filter(([, v]) => v !== undefined);
  const flags = Promise.all(given.map(([, v]) => pulumi.isSecret(pulumi.output(v))));
  return { __secrets: pulumi.output(flags).apply((f) => given.filter((_, i) => f[i]).map(([k]) => k)) };
}

/**
 * The inputs the schema marks secret (a password, a script's secrets), made secret whatever the program passes: the
 * engine then keeps them encrypted in state.
 */
export function secretInputs<A extends object>(args: A, names: readonly string[]): A {
  const bag = (args ?? {}) as Record<string, unknown>;
  const given = names.filter((n) => bag[n] !== undefined);
  return given.length ? { ...args, ...Object.fromEntries(given.map((n) => [n, pulumi.secret(bag[n])])) } : args;
}

/**
 * The `import` resource option cannot work on the dynamic door: the engine reads the object without the
 * resource's provider code and fails obscurely. Refused when the program runs (so at preview), with the ways that
 * work for the type: `adopt` (where it has it), `get` and the plugin door's `pulumi import` (where the service keeps
 * an object to read by id).
 */
export function refuseImport(
  type: string,
  name: string,
  opts: { import?: unknown } | undefined,
  can: { adopt: boolean; get: boolean },
): void {
  if (opts?.import === undefined) return;
  const [module, kind] = type.split(".");
  const declare = can.adopt ? "Declare it with `adopt: true` to take the existing object over" : "Declare it";
  throw new Error(
    `ops.${type} "${name}": the import option cannot work for a TypeScript (dynamic) resource. ` +
      (can.get
        ? `${declare}, or read it without managing it with \`ops.${type}.get("${name}", ${JSON.stringify(String(opts.import))})\`; ` +
          `\`pulumi import ops:${module}:${kind} ${name} <id>\` works through the provider plugin (docs/reference/${module}.md gives each id)`
        : `${declare}: what it stands for is not an object the service keeps by an id, so there is nothing to import`),
  );
}

/**
 * Outputs the engine carries as a set's text in a preview (provider/set-text.ts: a change then shows as values added
 * and removed): read back as lists, so a program sees a list at preview as after up.
 */
export function setOutputs(resource: object, names: readonly string[]): void {
  for (const name of names) {
    const raw = (resource as Record<string, pulumi.Output<unknown>>)[name];
    if (raw && typeof raw.apply === "function") Object.defineProperty(resource, name, { value: raw.apply(setFromText), enumerable: true });
  }
}

/** The inputs a check of the program's own values sees: no engine keys, no output slots, no account. */
function ownInputs(props: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(props).filter(([k, v]) => !k.startsWith("__") && k !== "account" && v !== undefined));
}

/**
 * What is wrong with a resource's inputs, when the program knows them all (no output of another resource): the
 * type's zod schema, as the provider's check applies it. Loaded on a program's first resource, not at import.
 */
async function inputProblems(token: string, props: Record<string, unknown>): Promise<string[] | undefined> {
  const own = ownInputs(props);
  const account = props.account;
  if (!settled(own) || !settled(account)) return undefined;
  try {
    const [{ registry }, { checkWith }, config] = await Promise.all([
      import("../provider/registry"),
      import("../provider/check"),
      import("../provider/config"),
    ]);
    const entry = registry[token];
    // A type whose inputs the engine carries in a compact form (a record set's records as text) is its check's.
    if (!entry || entry.retired || entry.typed) return undefined;
    // With the settings the provider checks with (the stack's config, the environment, the resource's account),
    // so what a schema asks of them (a Worker's account) is judged the same here as there.
    config.useStackConfig({ get: (key) => pulumi.runtime.getConfig(key) });
    const failures = config.withAccount(typeof account === "string" ? account : undefined, () => checkWith(entry.inputs, own)).failures;
    return failures.length ? failures.map((f) => `${f.property}: ${f.reason}`) : undefined;
  } catch {
    return undefined; // a check that cannot run here (a bad account name) is the provider's to say, as before
  }
}

/** The resources declared in this turn of the program, each with what its check found. */
let batch: { label: string; problems: Promise<string[] | undefined> }[] | undefined;
let gate: Promise<boolean> | undefined;

/**
 * Said once the program's turn has declared its resources: each one's problems as an error naming it, awaited,
 * so they reach the engine before any of those resources registers (the engine stops at a check that fails, and
 * would cut the rest short); then the run fails once, counting them.
 */
function sayProblems(): Promise<boolean> {
  return (gate ??= new Promise<boolean>((resolve) =>
    setImmediate(async () => {
      const checked = batch ?? [];
      batch = undefined;
      gate = undefined;
      let failed = 0;
      for (const c of checked) {
        const found = await c.problems.catch(() => undefined);
        if (!found) continue;
        failed++;
        // At stack level: a resource's own log waits for its URN, which waits for its registration, held here.
        await pulumi.log.error(`${c.label}: ${found.join("; ")}`);
      }
      resolve(failed > 0);
      if (!failed) return;
      // The run fails (the runtime ends a program with an unhandled error non-zero); said as one line, no stack.
      const end = new pulumi.RunError(
        `the inputs of ${failed} resource${failed === 1 ? "" : "s"} have problems, each named above: nothing was sent`,
      );
      end.stack = end.message;
      void Promise.reject(end);
    }),
  ));
}

/**
 * Every mistake of a program at once (issue 58). The engine checks resources one at a time and stops a preview at the
 * first whose check fails, so a pull request with five mistakes took five pushes. Each resource whose inputs the
 * program knows is checked here as it is declared, against its type's schema: the problems of every resource of the
 * program's turn are errors, each naming its resource and input, before any of them registers; one with problems is registered marked
 * `__invalid` (the provider's check lets it through, and a create or update refuses, sending nothing), the others
 * of that turn `__held` (checked as usual; a create or update refuses), and the run fails. Inputs built from other resources' outputs, and what only the provider's check knows (a schedule against
 * the time the stack last set), are checked by the engine, as before.
 */
export class CheckedResource extends pulumi.dynamic.Resource {
  constructor(
    provider: pulumi.dynamic.ResourceProvider,
    name: string,
    props: Record<string, unknown>,
    opts: pulumi.CustomResourceOptions | undefined,
    module: string,
    type: string,
  ) {
    const problems = opts?.id === undefined ? inputProblems(`${module}:${type}`, props) : Promise.resolve(undefined);
    const said = sayProblems();
    // A resource without problems of a turn that has some is held too: an up that skips the preview sends nothing.
    super(
      provider,
      name,
      { ...props, __invalid: said.then(() => problems), __held: said.then((failed) => failed || undefined) },
      opts,
      module,
      type,
    );
    (batch ??= []).push({ label: `${module}.${type} ${name}`, problems });
  }
}
