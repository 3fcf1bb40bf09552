/**
 * `pulumi-ops import`: what cf-terraforming does for Terraform. Reads what exists — the DNS records, page rules,
 * firewall rules, rate limits and rules of the other phases of zones, the runner's models, the registry's skills — and writes a TypeScript
 * program that takes it all over (edge objects with `adopt: true`; a model pull and a skill publish of what is
 * already there change nothing), plus `import.json` for the plugin door (`pulumi import --file import.json`, for
 * programs in other languages). Each object's inputs come from the provider's own read, as an import through the
 * plugin gets them, so the first preview after the takeover shows no change. Credentials and endpoints come from
 * the environment (EDGE_API_TOKEN, EDGE_BASE_URL, RUNNER_HOST, SKILLS_URL, ...), as the provider reads them.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { knownProperties } from "../check";
import { call, configure } from "../door";
import { registry } from "../registry";
import { type Found, type Written, runnerObjects, skillObjects, zoneObjects } from "./discover";
import { uniqueNames, writeTypeScriptProject } from "./project";

const HELP = `usage: pulumi-ops import [<dir>] [--zone <name>]... [--page-rules-as-rules] [--runner] [--skills] [--out <dir>] [--no-protect]
  <dir>, --out <dir>  where to write index.ts, Pulumi.yaml, package.json and import.json (default: .)
  --zone <name>       take over the zone's DNS records (with their tags and settings), page rules, firewall rules,
                      rate limits, rules of the other phases (cache, redirect, transform, origin, configuration, ...),
                      Worker routes and custom domains and the scripts they run (code written to workers/), its ssl,
                      always_use_https and security_level settings and every other setting not at a new zone's
                      value (repeatable)
  --page-rules-as-rules  write each page rule (deprecated by the service) as the RulesetRules that do the same
                      (redirect, cache and configuration rules), new rules beside it: apply them, check, then
                      delete the page rule; actions with no equivalent are named
  --runner            take over the runner's models
  --skills            take over the registry's skills
  --no-protect        leave out \`protect: true\`: then \`pulumi destroy\` deletes what was taken over
Every resource written is protected, as \`pulumi import\` writes them: \`pulumi destroy\` fails on it rather than
delete what the stack never made. Credentials and endpoints come from the environment, as the provider reads them:
EDGE_API_TOKEN, EDGE_BASE_URL, RUNNER_HOST, SKILLS_URL, ...`;

/** A resource written new (not taken over): its type, name and inputs. */

/** Edge types that take over an existing object on create with `adopt: true`. */
const ADOPTS = new Set(
  Object.entries(registry)
    .filter(([, e]) => knownProperties(e.inputs)?.includes("adopt"))
    .map(([t]) => t),
);

export async function importCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        zone: { type: "string", multiple: true },
        "page-rules-as-rules": { type: "boolean" },
        runner: { type: "boolean" },
        skills: { type: "boolean" },
        out: { type: "string" },
        "no-protect": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    console.error(`pulumi-ops import: ${(e as Error).message}\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || (!values.zone?.length && !values.runner && !values.skills)) {
    console.log(HELP);
    return values.help ? 0 : 2;
  }
  if (positionals.length > 1 || (positionals.length && values.out && path.resolve(positionals[0]) !== path.resolve(values.out))) {
    console.error(
      `pulumi-ops import: give one folder, as <dir> or --out (got ${[...positionals, ...(values.out ? [values.out] : [])].join(", ")})`,
    );
    return 2;
  }
  const protect = !values["no-protect"];
  configure({ get: () => undefined }); // the environment, as the provider's fallback reads it
  const found: Found[] = [];
  const written: Written[] = [];
  for (const zone of values.zone ?? []) found.push(...(await zoneObjects(zone, values["page-rules-as-rules"] ? written : undefined)));
  if (values.runner) found.push(...(await runnerObjects()));
  if (values.skills) found.push(...(await skillObjects()));
  const names = uniqueNames([...found, ...written.map((w) => ({ type: w.type, name: w.name, id: "" }))]);
  const program: string[] = [
    'import * as ops from "pulumi-ops";',
    "",
    "// Written by `pulumi-ops import`: every object below exists already; the first `pulumi up` takes each over.",
    ...(protect
      ? [
          "// Each is protected (as `pulumi import` writes them): `pulumi destroy` fails on it instead of deleting what this",
          "// stack never made. To let the stack delete one, remove `protect: true` (then `pulumi up`); to stop managing one",
          "// and leave it on the service, `pulumi state delete <urn>` and remove it here.",
        ]
      : []),
    "",
  ];
  const out = path.resolve(positionals[0] ?? values.out ?? ".");
  for (const [i, f] of found.entries()) {
    for (const [file, text] of Object.entries(f.files ?? {})) {
      mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
      writeFileSync(path.join(out, file), text);
    }
    const inputs = f.inputs ?? (await inputsOf(f));
    const [module, kind] = f.type.split(":");
    program.push(
      `new ops.${module}.${kind}(${JSON.stringify(names[i])}, ${JSON.stringify(inputs, null, 2)}${protect ? ", { protect: true }" : ""});`,
    );
  }
  if (written.length)
    program.push("", "// New rules that do what the zone's page rules do (--page-rules-as-rules): made by the first `pulumi up`.");
  for (const [i, w] of written.entries()) {
    const [module, kind] = w.type.split(":");
    program.push(`new ops.${module}.${kind}(${JSON.stringify(names[found.length + i])}, ${JSON.stringify(w.inputs, null, 2)});`);
  }
  const spec = writeTypeScriptProject(out, program, "Taken over by pulumi-ops import.", "imported");
  writeFileSync(
    path.join(out, "import.json"),
    `${JSON.stringify({ resources: found.flatMap((f, i) => (f.notImportable ? [] : [{ type: `ops:${f.type}`, name: names[i], id: f.id }])) }, null, 2)}\n`,
  );
  console.log(
    `pulumi-ops import: ${found.length} objects written to ${path.join(out, "index.ts")} (and import.json for \`pulumi import --file\`); package.json depends on pulumi-ops ${spec}`,
  );
  const here = path.relative(process.cwd(), out) || ".";
  console.log(
    [
      "",
      "Next:",
      ...(here !== "." ? [`  cd ${here}`] : []),
      "  npm install",
      "  pulumi stack init <name>    # after pulumi login (and PULUMI_CONFIG_PASSPHRASE for a local backend)",
      "  pulumi preview              # says what each resource will adopt; nothing is written",
      "  pulumi up                   # takes every object over; an object already as the program says is sent nothing",
      protect
        ? "Every resource is protected: `pulumi destroy` fails on them rather than delete what the stack never made. To stop managing one without deleting it: `pulumi state delete <urn>`, then remove it from index.ts (docs/resources.md, Adopting and importing what already exists)."
        : "Written without protection (--no-protect): `pulumi destroy` deletes what it took over.",
    ].join("\n"),
  );
  return 0;
}

/** The program's inputs of one object: what the provider's read reports, as an import through the plugin. */
async function inputsOf(f: Found): Promise<Record<string, unknown>> {
  // A record's tags and settings are read as the program would give them (the read reports what the props declare).
  const asked = f.type === "edge:DnsRecord" ? { tags: [], settings: { ipv4Only: false, ipv6Only: false, flattenCname: false } } : {};
  const r = await call(f.type, "read", [f.id, asked]);
  const names = new Set(knownProperties(registry[f.type].inputs) ?? []);
  const inputs = Object.fromEntries(
    Object.entries(r.inputs ?? r.props ?? {}).filter(([k, v]) => names.has(k) && v !== undefined && v !== null),
  );
  if ("zoneName" in inputs) delete inputs.zoneId; // one way to give the zone
  if (Array.isArray(inputs.tags) && !inputs.tags.length) delete inputs.tags;
  if (inputs.settings && typeof inputs.settings === "object") {
    const on = Object.fromEntries(Object.entries(inputs.settings).filter(([, v]) => v === true));
    if (Object.keys(on).length) inputs.settings = on;
    else delete inputs.settings;
  }
  if (ADOPTS.has(f.type)) inputs.adopt = true;
  // What the service accepts, the program must pass: a skill published outside the guide is written so, and said.
  const { failures } = await call(f.type, "check", [{}, inputs]);
  if (failures.length && f.type === "skills:Skill") {
    console.log(
      `pulumi-ops import: skill "${f.id}" does not follow the skill guide (${failures.map((x: { reason: string }) => x.reason.replace(/ \(or set followGuide.*\)$/, "")).join("; ")}); written with followGuide: false, so it is taken over as published`,
    );
    inputs.followGuide = false;
  } else if (failures.length) {
    console.log(
      `pulumi-ops import: ${f.type} ${f.id} does not pass its check as read (${failures.map((x: { property: string; reason: string }) => `${x.property}: ${x.reason}`).join("; ")}); fix it in index.ts before the first preview`,
    );
  }
  return inputs;
}
