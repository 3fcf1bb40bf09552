/**
 * `pulumi-ops import`: what cf-terraforming does for Terraform. Reads what exists — the DNS records, page rules,
 * firewall rules, rate limits and rules of the other phases of zones, the runner's models, the registry's skills — and writes a TypeScript
 * program that takes it all over (edge objects with `adopt: true`; a model pull and a skill publish of what is
 * already there change nothing), plus `import.json` for the plugin door (`pulumi import --file import.json`, for
 * programs in other languages). Each object's inputs come from the provider's own read, as an import through the
 * plugin gets them, so the first preview after the takeover shows no change. Credentials and endpoints come from
 * the environment (EDGE_API_TOKEN, EDGE_BASE_URL, RUNNER_HOST, SKILLS_URL, ...), as the provider reads them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { knownProperties } from "../check";
import { call, configure } from "../door";
import { registry } from "../registry";

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
interface Written {
  type: string;
  name: string;
  inputs: object;
}

/** One object found: its type, the id the provider reads it by, and a name for it in the program. */
interface Found {
  type: string;
  id: string;
  name: string;
  /** Inputs made here rather than from the provider's read (a script, whose code goes into a file). */
  inputs?: Record<string, unknown>;
  /** Files to write beside the program, by path relative to it (a script's code). */
  files?: Record<string, string>;
  /** Taken over by its `adopt` alone: `pulumi import --file` cannot give its inputs (a Claude skill's files). */
  notImportable?: boolean;
}

const DOCUMENTED_SETTINGS = ["ssl", "always_use_https", "security_level"];

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

/** Writes `index.ts`, Pulumi.yaml and package.json (depending on pulumi-ops as it is installed here); the spec written. */
export function writeTypeScriptProject(out: string, program: string[], description: string, fallbackName: string, name?: string): string {
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, "index.ts"), `${program.join("\n")}\n`);
  const project = name ?? (path.basename(out).replace(/[^A-Za-z0-9_.-]/g, "-") || fallbackName);
  writeFileSync(path.join(out, "Pulumi.yaml"), `name: ${project}\nruntime: nodejs\ndescription: ${description}\n`);
  const spec = dependencySpec(out);
  // typescript@5: the Node language host cannot run TypeScript 7, the registry's latest.
  writeFileSync(
    path.join(out, "package.json"),
    `${JSON.stringify({ name: project, private: true, main: "index.ts", dependencies: { "pulumi-ops": spec, "@pulumi/pulumi": "^3.259.0" }, devDependencies: { typescript: "^5.9.3", "@types/node": "^22.19.0" } }, null, 2)}\n`,
  );
  return spec;
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

async function zoneObjects(zoneName: string, asRules?: Written[]): Promise<Found[]> {
  const { edge, resolveZone } = await import("../edge/zones");
  const { FIREWALL_PHASE, RATE_LIMIT_PHASE } = await import("../edge/rulesets");
  const zone = await resolveZone({ zoneName });
  const client = edge();
  const found: Found[] = [];
  for await (const r of client.dnsRecords(zone.id)) {
    // The service's own records (a Worker's custom domain's) come with their WorkerDomain, not as records.
    if (r.meta?.read_only) continue;
    found.push({
      type: "edge:DnsRecord",
      id: `${zone.id}/${r.id}`,
      name: `${r.type}-${r.name === zone.name ? "apex" : r.name.replace(`.${zone.name}`, "")}`,
    });
  }
  for (const r of await client.listPageRules(zone.id)) {
    if (!asRules) {
      found.push({ type: "edge:PageRule", id: `${zone.id}/${r.id}`, name: `page-rule-${r.priority ?? r.id}` });
      continue;
    }
    // The rules that do the same (page-rule/as-rules.ts), written new; the page rule stays until the user deletes it.
    const { pageRuleAsRules } = await import("../edge/page-rule/as-rules");
    const target = r.targets[0].constraint.value;
    const { rules, unconverted } = pageRuleAsRules(zone.name, target, r.actions, `page rule ${target}`);
    for (const inputs of rules)
      asRules.push({
        type: "edge:RulesetRule",
        name: `${inputs.phase.replace(/^http_(request_|response_)?/, "").replace(/_settings$/, "")}-${target}`,
        inputs,
      });
    console.log(
      `pulumi-ops import: page rule ${target} written as ${rules.length} RulesetRule${rules.length === 1 ? "" : "s"}${unconverted.length ? `; no rule does the same for: ${unconverted.join(", ")} (developers.cloudflare.com/rules/reference/page-rules-migration/)` : ""}; the page rule stays on the service: delete it once the new rules do its job`,
    );
  }
  // WAF custom rules (the rulesets engine; the legacy firewall rules were converted into them).
  for (const r of (await client.entrypoint(zone.id, FIREWALL_PHASE))?.rules ?? [])
    found.push({ type: "edge:FirewallRule", id: `${zone.id}/${r.id}`, name: `firewall-${r.description || r.ref || r.id}` });
  // Rate limiting rules whose expression a URL pattern can say (host, path, methods); the others are named, not guessed.
  const { matchFromExpression } = await import("../edge/rate-limit/rule");
  for (const r of (await client.entrypoint(zone.id, RATE_LIMIT_PHASE))?.rules ?? []) {
    if (matchFromExpression(r.expression))
      found.push({ type: "edge:RateLimit", id: `${zone.id}/${r.id}`, name: `rate-limit-${r.description || r.ref || r.id}` });
    else
      console.log(
        `pulumi-ops import: ${zone.name}'s rate limiting rule ${r.ref ?? r.id} (${r.expression}) is not written: a RateLimit matches a URL pattern, and this expression is not one`,
      );
  }
  // The rules of the other phases (cache, redirect, transform, origin, configuration, ...), one RulesetRule each.
  const { PHASE_ACTIONS } = await import("../edge/ruleset-rule/schema");
  for (const phase of Object.keys(PHASE_ACTIONS).filter((p) => p !== FIREWALL_PHASE && p !== RATE_LIMIT_PHASE)) {
    let rules;
    try {
      rules = (await client.entrypoint(zone.id, phase))?.rules ?? [];
    } catch (e) {
      console.log(`pulumi-ops import: ${zone.name}'s ${phase} rules are not written: reading them failed (${(e as Error).message})`);
      continue;
    }
    for (const r of rules)
      found.push({
        type: "edge:RulesetRule",
        id: `${zone.id}/${phase}/${r.id}`,
        name: `${phase.replace(/^http_(request_|response_)?/, "")}-${r.description || r.ref || r.id}`,
      });
  }
  // The settings the API document names, and every other setting whose value is not a new zone's (known.ts).
  for (const id of [...DOCUMENTED_SETTINGS, ...(await changedSettings(zone.id))])
    found.push({ type: "edge:ZoneSetting", id: `${zone.id}/${id}`, name: `setting-${id}` });
  found.push(...(await workerObjects(zone)));
  return found;
}

/** The zone's editable settings whose value differs from a new zone's; none where the listing is not answered. */
async function changedSettings(zoneId: string): Promise<string[]> {
  const { edge } = await import("../edge/zones");
  const { DEFAULT_VALUES, valueKey } = await import("../edge/zone-setting/known");
  try {
    const all = await edge().listSettings(zoneId);
    return all
      .filter(
        (s) =>
          !DOCUMENTED_SETTINGS.includes(s.id) &&
          s.editable !== false &&
          s.id in DEFAULT_VALUES &&
          valueKey(s.value) !== valueKey(DEFAULT_VALUES[s.id]),
      )
      .map((s) => s.id);
  } catch (e) {
    console.log(
      `pulumi-ops import: the zone's settings listing was not answered (${(e as Error).message.split("\n")[0]}); only ${DOCUMENTED_SETTINGS.join(", ")} are written`,
    );
    return [];
  }
}

/**
 * What serves the zone: its routes, the account's custom domains in it, and the scripts they run, each script's
 * code written to `workers/<name>.js` beside the program with its compatibility date, flags, plain-text variables
 * and workers.dev switch. Secrets cannot be read back (the service never shows their text): they are left on the
 * script, named in the output.
 */
async function workerObjects(zone: { id: string; name: string }): Promise<Found[]> {
  const { edge } = await import("../edge/zones");
  const client = edge();
  const found: Found[] = [];
  let routes: Awaited<ReturnType<typeof client.listWorkerRoutes>> = [];
  try {
    routes = await client.listWorkerRoutes(zone.id);
  } catch (e) {
    console.log(
      `pulumi-ops import: ${zone.name}'s Worker routes are not written: reading them failed (${(e as Error).message.split("\n")[0]})`,
    );
  }
  for (const r of routes) found.push({ type: "edge:WorkerRoute", id: `${zone.id}/${r.id}`, name: `route-${r.pattern}` });
  const accountId = client.accountId ?? (await client.getZone(zone.id)).account?.id;
  if (!accountId) return found;
  const domains = await client.listWorkerDomains(accountId, { zone_id: zone.id }).catch(() => []);
  for (const d of domains) found.push({ type: "edge:WorkerDomain", id: `${accountId}/${d.id}`, name: `domain-${d.hostname}` });
  const scripts = [...new Set([...routes.map((r) => r.script), ...domains.map((d) => d.service)].filter((x): x is string => !!x))];
  for (const name of scripts) {
    const body = await client.getWorkerScript(accountId, name);
    if (body === undefined) continue; // a route naming a script that is gone
    const settings = await client.getWorkerScriptSettings(accountId, name);
    const sub = await client.getWorkerSubdomain(accountId, name).catch(() => undefined);
    const vars = Object.fromEntries((settings.bindings ?? []).filter((b) => b.type === "plain_text").map((b) => [b.name, b.text ?? ""]));
    const secrets = (settings.bindings ?? []).filter((b) => b.type === "secret_text").map((b) => b.name);
    const file = `workers/${name}.js`;
    found.push({
      type: "edge:WorkerScript",
      id: `${accountId}/${name}`,
      name: `script-${name}`,
      files: { [file]: body },
      inputs: {
        accountId,
        name,
        source: file,
        compatibilityDate: settings.compatibility_date ?? "2021-11-02",
        ...(settings.compatibility_flags?.length ? { compatibilityFlags: settings.compatibility_flags } : {}),
        ...(Object.keys(vars).length ? { vars } : {}),
        ...(sub ? { workersDev: sub.enabled } : {}),
        adopt: true,
      },
    });
    if (secrets.length)
      console.log(
        `pulumi-ops import: the script ${name}'s secrets (${secrets.join(", ")}) stay on it as they are: the service never shows their text; give them as \`secrets\` to manage them`,
      );
  }
  return found;
}

async function runnerObjects(): Promise<Found[]> {
  const { runner } = await import("../runner/client");
  return (await runner().list()).map((m) => ({ type: "runner:RunnerModel", id: m.name, name: `model-${m.name}` }));
}

async function skillObjects(): Promise<Found[]> {
  const { read, SKILLS_SETTINGS } = await import("../config");
  if (read(SKILLS_SETTINGS.kind) === "claude") return claudeSkillObjects();
  const { skills } = await import("../skills/client");
  return (await skills().search("")).map((s) => ({ type: "skills:Skill", id: s.slug, name: s.slug }));
}

/**
 * The workspace's own skills on the Claude API (ops:skillsKind claude), each as a Skill with `adopt: true` whose
 * `source` is a folder written here with a SKILL.md of its newest version's name and description. The API gives no
 * version's files back (outside its beta namespace): the folder is the place for the skill's files, and the first up
 * uploads it as the skill's newest version. Said for each.
 */
async function claudeSkillObjects(): Promise<Found[]> {
  const { claudeSkills, IMPORT_PLACEHOLDER } = await import("../skills/claude");
  const { NAME } = await import("../skills/document");
  const found: Found[] = [];
  for (const s of await claudeSkills().listCustom()) {
    const v = await claudeSkills().version(s.id, "latest");
    const folder = `skills/${v.name}`;
    const doc = `---\nname: ${v.name}\ndescription: ${JSON.stringify(v.description)}\n---\n\n${IMPORT_PLACEHOLDER}\n# ${v.name}\n\nReplace this folder with the skill's own files before the first \`pulumi up\`: the Claude API does not give a version's files back, and up uploads this folder as the skill's newest version (the check refuses this placeholder).\n`;
    // The slug is the display name the skill is found by; a display name that is no slug cannot be one.
    if (!s.display_name || !NAME.test(s.display_name)) {
      console.log(
        `pulumi-ops import: Claude skill ${s.id}: its display name ${JSON.stringify(s.display_name ?? null)} is not a slug pulumi-ops can find it by; not written (rename it to ${v.name} in the console, then import again)`,
      );
      continue;
    }
    console.log(
      `pulumi-ops import: Claude skill ${s.id} ("${s.display_name}"): its files cannot be read back; put them in ${folder}/ before the first up, which uploads that folder as its newest version`,
    );
    found.push({
      type: "skills:Skill",
      id: s.id,
      name: v.name,
      inputs: { slug: s.display_name, source: `${folder}/SKILL.md`, adopt: true, followGuide: false },
      files: { [`${folder}/SKILL.md`]: doc },
      notImportable: true,
    });
  }
  return found;
}

/** Names a program can use: lower-case words joined by dashes, numbered where two would be the same. */
export function uniqueNames(found: { type: string; name: string }[]): string[] {
  const seen = new Map<string, number>();
  return found.map((f) => {
    const base =
      f.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")
        .slice(0, 60) || f.type.split(":")[1].toLowerCase();
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base}-${n}`;
  });
}

/**
 * How the written program depends on pulumi-ops: the way the running copy was installed, so that `npm install` in
 * the new folder resolves it as it did here — the tarball, URL or path npm recorded for it (node_modules/.package-lock.json
 * of the project it is installed in; a path re-based to the new folder), else that project's own dependency line,
 * else the project the command runs in; a copy that is no install (a clone) is depended on by its path. A registry
 * version is written only where npm installed it from the registry.
 */
export function dependencySpec(out: string, cwd = process.cwd(), own = packageRoot()): string {
  const installedIn = own && path.basename(path.dirname(own)) === "node_modules" ? path.dirname(path.dirname(own)) : undefined;
  if (installedIn) {
    const resolved = lockedResolution(installedIn);
    if (resolved) return rebased(resolved, installedIn, out);
  }
  for (const project of [installedIn, cwd].filter((p): p is string => !!p)) {
    const spec = declaredSpec(project);
    if (spec) return rebased(spec, project, out);
  }
  if (own && !installedIn) return `file:${path.relative(out, own) || "."}`;
  const version = own ? (JSON.parse(readFileSync(path.join(own, "package.json"), "utf8")) as { version: string }).version : undefined;
  return version ? `^${version}` : "*";
}

/** This package's folder: two levels up from the source (provider/cli), three from the build (dist/provider/cli). */
export function packageRoot(): string | undefined {
  return ["../..", "../../.."]
    .map((up) => path.resolve(__dirname, up))
    .find(
      (d) =>
        existsSync(path.join(d, "package.json")) && JSON.parse(readFileSync(path.join(d, "package.json"), "utf8")).name === "pulumi-ops",
    );
}

/** Where npm took pulumi-ops from when it installed it in `project`: a tarball URL, `file:` path or registry URL. */
function lockedResolution(project: string): string | undefined {
  for (const lock of ["node_modules/.package-lock.json", "package-lock.json"]) {
    try {
      const entry = (
        JSON.parse(readFileSync(path.join(project, lock), "utf8")) as { packages?: Record<string, { resolved?: string; version?: string }> }
      ).packages?.["node_modules/pulumi-ops"];
      if (!entry?.resolved) continue;
      // From the registry: its version's range reads better than the registry's tarball URL.
      const registry = /\/pulumi-ops\/-\/pulumi-ops-(\d[^/]*)\.tgz$/.exec(entry.resolved);
      return registry ? `^${registry[1]}` : entry.resolved;
    } catch {
      // no lock there
    }
  }
  return undefined;
}

function declaredSpec(project: string): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    return pkg.dependencies?.["pulumi-ops"] ?? pkg.devDependencies?.["pulumi-ops"];
  } catch {
    return undefined;
  }
}

/** A `file:` spec relative to `from` made relative to `to`; anything else as it is. */
function rebased(spec: string, from: string, to: string): string {
  return spec.startsWith("file:") ? `file:${path.relative(to, path.resolve(from, spec.slice(5))) || "."}` : spec;
}
