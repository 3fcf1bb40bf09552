import * as pulumi from "@pulumi/pulumi";

/**
 * Every output of a resource as an undefined property: the Node SDK exposes only the properties named in the
 * constructor's props, and outputs the engine computes must be passed as undefined.
 */
export function outputSlots(names: readonly string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((k) => [k, undefined]));
}

/**
 * Whose the object is (provider/owner.ts): `<project>/<stack>/<name>`, written where the service can hold a label (a
 * skill's metadata, a Worker's tags, a record's tags on a paid plan) so that another stack's object is never taken silently and this stack's own is taken back.
 * The engine hides `__` keys from diffs. Not passed for a lookup (`get`).
 */
export function ownerSlot(name: string, opts?: pulumi.CustomResourceOptions): Record<string, string> {
  return opts?.id ? {} : { __owner: `${pulumi.getProject()}/${pulumi.getStack()}/${name}` };
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
