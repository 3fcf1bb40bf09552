/** Workers carried from the old tool's state: a script with its code beside the program, and its routes. */
import { type Found } from "./source";
import { type Bag, type Carried, type Left, str } from "./carried";

/** Binding types a WorkerScript keeps on the script as they are (every upload names them in keep_bindings). */
export function script(f: Found, left: Left[], files: Set<string>): Carried | Left {
  const a = f.attributes;
  const name = String(a.script_name ?? a.name);
  if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(name))
    return {
      address: f.address,
      reason: `its name ${JSON.stringify(name)} is not a script name the service takes (lowercase letters, digits, - and _)`,
    };
  const content = str(a.content);
  if (!content)
    return {
      address: f.address,
      reason: `no code in the state (content_file or assets): write the script's code to workers/${name}.js and add an ops.edge.WorkerScript with adopt: true`,
    };
  const module = a.module === true || !!str(a.main_module);
  // v5 lists every binding under `bindings` with its type; v4 (and pulumi-cloudflare v5) one list per type.
  const bindings: Bag[] = Array.isArray(a.bindings)
    ? (a.bindings as Bag[])
    : Object.entries(a)
        .filter(([k, v]) => /_bindings?$/.test(k) && Array.isArray(v))
        .flatMap(([k, v]) => (v as Bag[]).map((b) => ({ ...b, type: k.replace(/_bindings?$/, "") })));
  const vars: Record<string, string> = {};
  for (const b of bindings) {
    if (b.type === "plain_text") vars[String(b.name)] = String(b.text ?? "");
    else if (b.type === "secret_text")
      left.push({
        address: `${f.address} binding ${b.name}`,
        reason:
          "a secret: it stays on the script as it is (never written into a program); give it in the WorkerScript's `secrets` (from config set --secret) to manage it",
      });
    else
      left.push({
        address: `${f.address} binding ${b.name ?? b.binding}`,
        reason: `a ${b.type} binding: WorkerScript manages variables and secrets, and keeps every other binding on the script as it is`,
      });
  }
  // One file a script: the same name in another account gets its account in the file's name.
  const file = files.has(`workers/${name}.js`) ? `workers/${name}-${String(a.account_id).slice(0, 8)}.js` : `workers/${name}.js`;
  files.add(file);
  const flags = Array.isArray(a.compatibility_flags) ? (a.compatibility_flags as string[]) : [];
  return {
    type: "edge:WorkerScript",
    name: f.name,
    from: [f.address],
    files: { [file]: content },
    inputs: {
      accountId: a.account_id,
      name,
      source: file,
      format: module ? "module" : "service-worker",
      compatibilityDate: str(a.compatibility_date) ?? "2021-11-02",
      ...(flags.length ? { compatibilityFlags: [...flags].sort() } : {}),
      ...(Object.keys(vars).length ? { vars } : {}),
      adopt: true,
    },
  };
}

export function route(f: Found, zoneId: string): Carried {
  const a = f.attributes;
  const target = str(a.script) ?? str(a.script_name);
  return {
    type: "edge:WorkerRoute",
    name: f.name,
    from: [f.address],
    inputs: { zoneId, pattern: a.pattern, ...(target ? { script: target } : {}), adopt: true },
  };
}
