/**
 * `pulumi-ops migrate`: a team on the service's Terraform provider (v4 or v5 state) or on pulumi-cloudflare moves with
 * zero writes. Reads the state file (migrate/source.ts), carries each object to the pulumi-ops resource that takes it
 * over with `adopt: true` (migrate/carry.ts), and writes a TypeScript or YAML program whose first preview says what
 * each resource adopts and whose first up sends nothing; what it cannot carry is listed with the reason, in the
 * output and in MIGRATION.md beside the program. Reads no service: it needs no credentials.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { parseArgs } from "node:util";
import { stringify } from "yaml";
import { carry, type Carried, type Left } from "./migrate/carry";
import { readSource, type Found } from "./migrate/source";
import { octodnsZone } from "./migrate/octodns";
import { isHostname } from "../edge/dns-record/normalize";
import { packageRoot, uniqueNames, writeTypeScriptProject } from "./project";

const HELP = `usage: pulumi-ops migrate <file> [--out <dir>] [--name <project>] [--language typescript|yaml] [--zone <name>] [--force] [--no-protect]
  <file>              a Terraform state of the service's provider, v4 or v5 (\`terraform state pull > state.json\`),
                      a pulumi-cloudflare stack export (\`pulumi stack export --show-secrets > stack.json\`),
                      or an octoDNS zone file (zones/example.com.yaml: its records, as one DnsRecordSet)
  --zone <name>       the zone of an octoDNS file not named for it
  --out <dir>         where to write the program and MIGRATION.md (default: .)
  --name <project>    the Pulumi project's name (default: the zone's, such as example-com, so that
                      zones migrated one by one are projects of their own on one backend)
  --language <l>      typescript (index.ts, package.json; the default) or yaml (Pulumi.yaml)
  --force             write over a folder's index.ts, Pulumi.yaml, package.json or MIGRATION.md
  --no-protect        leave out \`protect: true\`: then \`pulumi destroy\` deletes what was taken over
Carried: DNS records (one DnsRecordSet per zone, keyed by the old resource names), zone rulesets' rules
(RulesetRule), page rules, zone settings, Worker scripts (their code into workers/) and routes; each with
\`adopt: true\`, so the first up takes it over and sends nothing where the service holds it as the state says.
Reads no service. Then stop the old tool managing them: \`terraform state rm <address>\` for each (or remove the
pulumi-cloudflare resources with \`pulumi state delete\`), so the two never fight.`;

/** The release's own version and download address, for a YAML program's plugin. */
function release(): { version: string; pluginDownloadURL: string } {
  const schema = JSON.parse(readFileSync(path.join(packageRoot()!, "schema.json"), "utf8")) as {
    version: string;
    pluginDownloadURL: string;
  };
  // `${VERSION}` is the engine's to fill in: escaped from Pulumi YAML's own interpolation (`$${`), as the README writes it.
  return { version: schema.version, pluginDownloadURL: schema.pluginDownloadURL.replaceAll("${", () => "$${") };
}

function typescript(out: string, project: string, carried: Carried[], names: string[], protect: boolean, from: string): void {
  const program = [
    'import * as ops from "pulumi-ops";',
    "",
    `// Written by \`pulumi-ops migrate\` from ${from}: every object below exists already; the first \`pulumi up\` takes each`,
    "// over (adopt: true) and sends nothing where the service holds it as the old state said. MIGRATION.md lists what was",
    "// not carried, and how to stop the old tool managing what this program now does.",
    "",
  ];
  for (const [i, c] of carried.entries()) {
    const [module, kind] = c.type.split(":");
    program.push(
      `new ops.${module}.${kind}(${JSON.stringify(names[i])}, ${JSON.stringify(c.inputs, null, 2)}${protect ? ", { protect: true }" : ""});`,
    );
  }
  writeTypeScriptProject(out, program, `Moved to pulumi-ops from ${from}.`, "migrated", project);
}

function yamlProgram(out: string, project: string, carried: Carried[], names: string[], protect: boolean, from: string): void {
  const { version, pluginDownloadURL } = release();
  const resources: Record<string, unknown> = {};
  for (const [i, c] of carried.entries()) {
    // A script's code: read from its file by the YAML runtime (the plugin does not run where the program is).
    const { source, ...rest } = c.inputs;
    const properties = c.type === "edge:WorkerScript" ? { ...rest, content: { "fn::readFile": `./${source}` } } : c.inputs;
    resources[names[i]] = {
      type: `ops:${c.type}`,
      properties,
      options: { version, pluginDownloadURL, ...(protect ? { protect: true } : {}) },
    };
  }
  const header = `# Written by \`pulumi-ops migrate\` from ${from}: every object below exists already; the first \`pulumi up\` takes\n# each over (adopt: true) and sends nothing where the service holds it as the old state said. MIGRATION.md lists\n# what was not carried. Credentials are stack config (ops:edgeApiToken, ...).\n`;
  writeFileSync(
    path.join(out, "Pulumi.yaml"),
    header + stringify({ name: project, runtime: "yaml", description: `Moved to pulumi-ops from ${from}.`, resources }, { lineWidth: 0 }),
  );
}

function report(left: Left[], carried: Carried[], names: string[], kind: "terraform" | "pulumi-cloudflare" | "octodns"): string {
  const moved = carried.flatMap((c, i) => c.from.map((f) => `| \`${f}\` | ${c.type} \`${names[i]}\` |`));
  const stop = {
    terraform: [
      "```sh",
      ...[...new Set(carried.flatMap((c) => c.from).map((f) => f.replace(/\.rules\[\d+\]$|\.settings\.[a-z0-9_]+$| binding .*$/, "")))].map(
        (f) => `terraform state rm '${f.replaceAll("'", "'\\''")}'`,
      ),
      "```",
    ],
    "pulumi-cloudflare": [
      "Remove each from the pulumi-cloudflare program, or `pulumi state delete <urn>` it, so its next up does not delete what this stack now holds.",
    ],
    octodns: ["Remove the zone from octoDNS's config (its `zones:`), so that `octodns-sync` no longer plans changes to it."],
  }[kind];
  return [
    "# Moved to pulumi-ops",
    "",
    `${carried.length} resources carry what the old ${{ terraform: "Terraform state", "pulumi-cloudflare": "pulumi-cloudflare stack", octodns: "octoDNS zone file" }[kind]} held; each takes its object over (\`adopt: true\`) and sends nothing where the service holds it as the state said.`,
    "",
    "| From | To |",
    "|---|---|",
    ...moved,
    "",
    "## Not carried",
    "",
    ...(left.length ? left.map((l) => `- \`${l.address}\`: ${l.reason}`) : ["Nothing: every object was carried."]),
    "",
    ...(carried.some((c) => c.note)
      ? ["## Written anew", "", ...carried.flatMap((c, i) => (c.note ? [`- ${c.type} \`${names[i]}\`: ${c.note}`] : [])), ""]
      : []),
    "## Then: stop the old tool managing them",
    "",
    "After the first `pulumi up`, so that the two never fight:",
    "",
    ...stop,
    "",
    "## Letting go of one record later",
    "",
    "The records are one DnsRecordSet: removing a key from `records` deletes that record at the next up. To hand one",
    "record back to another tool instead (what `terraform state rm` does for one address), move it out of the set and",
    "let the stack forget it, in two ups:",
    "",
    "1. Move its key out of `records` into its own `ops.edge.DnsRecord` with the same fields, `adopt: true` and the",
    "   resource option `retainOnDelete: true`, and give the set `dependsOn: [that record]` so the record is taken",
    "   over first; `pulumi up` sends nothing for it (the set does not delete a record another resource of the run",
    "   took over).",
    "2. Remove that DnsRecord from the program; `pulumi up` drops it from the stack and leaves the record in the zone",
    "   (`retainOnDelete`). Or at once: `pulumi state delete <its URN>`.",
    "",
  ].join("\n");
}

/**
 * The zones a state's objects are in, by name: its zone objects' and zone data sources' names (v4 `zone`, v5 `name`), else, per zone id,
 * the labels its records' full names end with in common (a lone record's name less its first label).
 */
function zonesOf(found: Found[], read: Record<string, string> = {}): string[] {
  const named = [
    ...found.filter((f) => f.type === "cloudflare_zone").map((f) => String(f.attributes.zone ?? f.attributes.name ?? "")),
    ...Object.values(read),
  ].filter(isHostname);
  if (named.length) return named;
  const byZone = new Map<string, string[][]>();
  for (const f of found.filter((x) => x.type === "cloudflare_record" || x.type === "cloudflare_dns_record")) {
    const full = String(f.attributes.hostname ?? f.attributes.name ?? "")
      .replace(/\.$/, "")
      .toLowerCase();
    if (!full.includes(".") || !isHostname(full)) continue;
    const zone = String(f.attributes.zone_id ?? "");
    byZone.set(zone, [...(byZone.get(zone) ?? []), full.split(".").reverse()]);
  }
  return [...byZone.values()]
    .map((names) => {
      const common: string[] = [];
      for (let i = 0; names.every((n) => n[i] !== undefined && n[i] === names[0][i]); i++) common.push(names[0][i]);
      const labels = names.length === 1 && common.length > 2 ? common.slice(0, -1) : common;
      return labels.reverse().join(".");
    })
    .filter((z) => z.includes("."));
}

/** A project named for its zone (example.com: example-com; several: the first and how many more), else the folder. */
function projectName(zones: string[], out: string): string {
  const [first, ...more] = [...new Set(zones)].sort();
  if (!first) return path.basename(out).replace(/[^A-Za-z0-9_.-]/g, "-") || "migrated";
  return `${first.replace(/\./g, "-")}${more.length ? `-and-${more.length}-more` : ""}`;
}

export async function migrateCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: "string" },
        name: { type: "string" },
        zone: { type: "string" },
        force: { type: "boolean" },
        language: { type: "string", default: "typescript" },
        "no-protect": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    console.error(`pulumi-ops migrate: ${(e as Error).message}\n${HELP}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length !== 1) {
    (values.help ? console.log : console.error)(HELP);
    return values.help ? 0 : 2;
  }
  const language = values.language === "ts" ? "typescript" : values.language;
  if (language !== "typescript" && language !== "yaml") {
    console.error(`pulumi-ops migrate: --language is typescript or yaml (got ${values.language})`);
    return 2;
  }
  const file = positionals[0];
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    console.error(`pulumi-ops migrate: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    return 2;
  }
  // An octoDNS zone file (YAML, named for its zone), or a state (JSON).
  const octodns = /\.ya?ml$/i.test(file);
  const zoneName = values.zone ?? path.basename(file).replace(/\.ya?ml$/i, "");
  if (octodns && !isHostname(zoneName)) {
    console.error(
      `pulumi-ops migrate: ${file} is read as an octoDNS zone file, named for its zone (example.com.yaml): give the zone with --zone <name>`,
    );
    return 2;
  }
  const source = octodns ? { kind: "octodns" as const, found: [], others: 0 } : readSource(text, file);
  const { carried, left } = octodns ? octodnsZone(text, zoneName, path.basename(file)) : carry(source.found);
  const out = path.resolve(values.out ?? ".");
  // The folder of the old project (where the state was just exported) is never written over unasked.
  const taken = ["index.ts", "Pulumi.yaml", "package.json", "MIGRATION.md"].filter((f) => existsSync(path.join(out, f)));
  if (taken.length && !values.force) {
    console.error(
      `pulumi-ops migrate: ${out} holds ${taken.join(", ")} already: give an empty folder with --out <dir> (or --force to write over them)`,
    );
    return 2;
  }
  mkdirSync(out, { recursive: true });
  for (const c of carried) {
    for (const [f, body] of Object.entries(c.files ?? {})) {
      const target = path.resolve(out, f);
      if (path.relative(out, target).startsWith("..")) throw new Error(`a file ${f} would be written outside ${out}`);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, body);
    }
  }
  const names = uniqueNames(carried);
  const from = { terraform: "a Terraform state", "pulumi-cloudflare": "a pulumi-cloudflare stack", octodns: "an octoDNS zone file" }[
    source.kind
  ];
  const protect = !values["no-protect"];
  const project =
    values.name ?? projectName(octodns ? [zoneName] : zonesOf(source.found, "zoneNames" in source ? source.zoneNames : undefined), out);
  if (!/^[A-Za-z0-9_.-]+$/.test(project)) {
    console.error(`pulumi-ops migrate: --name ${JSON.stringify(project)} is not a project name Pulumi takes (letters, digits, -, _ and .)`);
    return 2;
  }
  if (language === "yaml") yamlProgram(out, project, carried, names, protect, from);
  else typescript(out, project, carried, names, protect, from);
  writeFileSync(path.join(out, "MIGRATION.md"), report(left, carried, names, source.kind));
  const records = carried
    .filter((c) => c.type === "edge:DnsRecordSet")
    .reduce((n, c) => n + Object.keys(c.inputs.records as object).length, 0);
  console.log(
    `pulumi-ops migrate: ${octodns ? "the zone" : `${source.found.length} objects`} of ${from} read; ${carried.length} resources written to ${path.join(out, language === "yaml" ? "Pulumi.yaml" : "index.ts")} (${records} DNS records in ${carried.filter((c) => c.type === "edge:DnsRecordSet").length} set${carried.filter((c) => c.type === "edge:DnsRecordSet").length === 1 ? "" : "s"})${source.others ? `; ${source.others} objects of other providers left out` : ""}`,
  );
  for (const l of left) console.log(`pulumi-ops migrate: not carried: ${l.address}: ${l.reason}`);
  console.log(
    [
      "",
      "Next:",
      ...(language === "typescript" ? ["  npm install"] : []),
      "  pulumi stack init <name>    # then pulumi config set --secret ops:edgeApiToken ...",
      "  pulumi preview              # says what each resource will adopt; nothing is written",
      "  pulumi up                   # takes every object over; sends nothing where the service holds it as the state said",
      "  then stop the old tool managing them (MIGRATION.md)",
    ].join("\n"),
  );
  return 0;
}
