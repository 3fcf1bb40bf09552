import * as pulumi from "@pulumi/pulumi";
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
 * The `import` resource option cannot work on the dynamic door: the engine reads the object without the
 * resource's provider code and fails obscurely. Refused when the program runs (so at preview), with the ways that
 * work: `adopt` (where the type has it), `get`, or the plugin door, where `pulumi import` works.
 */
export function refuseImport(type: string, name: string, opts: { import?: unknown } | undefined, adoptable: boolean): void {
  if (opts?.import === undefined) return;
  const [module, kind] = type.split(".");
  throw new Error(
    `ops.${type} "${name}": the import option cannot work for a TypeScript (dynamic) resource. ` +
      (adoptable ? `Declare it with \`adopt: true\` to take the existing object over, ` : `Declare it to make or take it over, `) +
      `or read it without managing it with \`ops.${type}.get("${name}", ${JSON.stringify(String(opts.import))})\`; ` +
      `\`pulumi import ops:${module}:${kind} ${name} <id>\` works through the provider plugin (docs/reference/${module}.md gives each id)`,
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
