/**
 * What `pulumi-ops migrate` reads: the objects of a Terraform state written by the service's provider (its v4 and v5
 * resource shapes) or of a `pulumi stack export` of a pulumi-cloudflare stack (v5 on Terraform v4, v6 on Terraform
 * v5), each brought to one form — the Terraform resource type and its attributes in snake_case, blocks as objects —
 * so that one mapper per kind (carry.ts) serves all four. Facts (docs/migrating-in.md has the sources):
 * - A Terraform state (format version 4) lists `resources[]` of `mode` managed or data, each with `instances[]` of
 *   `attributes` and an `index_key` (count or for_each). The v4 provider's SDKv2 resources store a one-item block as
 *   a list of one object and unset fields as zero values; v5 stores objects and nulls. The shape tells them apart
 *   (schema versions collide). A dynamic attribute (v5 zone_setting `value`) is stored as `{value, type}`.
 * - A stack export lists `deployment.resources[]` with `type` (`cloudflare:index/dnsRecord:DnsRecord`), `urn` and
 *   `outputs` in camelCase; a secret is `{"4dabf18193072939515e22adb298388d": "1b47...", plaintext | ciphertext}`.
 */

/** One object of the old tool's state. */
export interface Found {
  /** The Terraform resource type (`cloudflare_dns_record`), also for a pulumi-cloudflare resource. */
  type: string;
  /** Where it is in the old tool: `cloudflare_dns_record.www["a"]`, or the URN's name. */
  address: string;
  /** A name for it in the new program, from the old one's. */
  name: string;
  attributes: Record<string, unknown>;
  /** Values the export kept encrypted (no `--show-secrets`): their paths. */
  encrypted: string[];
  /**
   * The text of the values the old tool held as secrets (a stack export's opened secrets, a state's
   * `sensitive_attributes`): none of them may be written into the program (carry.ts checks what it writes).
   */
  secrets: string[];
}

export interface Source {
  kind: "terraform" | "pulumi-cloudflare";
  found: Found[];
  /** Objects that are not the service's (other providers' resources), counted. */
  others: number;
  /** Zones' names by id, where the state read them (a `cloudflare_zone` data source): what the project is named for. */
  zoneNames?: Record<string, string>;
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";

/** Reads either kind of file from its text; throws one line saying what the file is not. */
export function readSource(text: string, file: string): Source {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(
      `${file} is not JSON (${(e as Error).message}): give a Terraform state (terraform state pull > state.json) or a stack export (pulumi stack export > stack.json)`,
      { cause: e },
    );
  }
  const bag = json as Record<string, unknown>;
  if (Array.isArray(bag.resources) && typeof bag.version === "number") return terraform(bag);
  const deployment = (bag.deployment ?? bag.checkpoint) as Record<string, unknown> | undefined;
  if (deployment && (Array.isArray(deployment.resources) || deployment.resources === undefined))
    return pulumiExport((deployment.resources ?? []) as Record<string, unknown>[]);
  throw new Error(
    `${file} is neither a Terraform state (no "resources" with a "version") nor a Pulumi stack export (no "deployment"): give one of those`,
  );
}

function terraform(state: Record<string, unknown>): Source {
  if (state.version !== 4)
    throw new Error(
      `the Terraform state is format version ${state.version}: this reads version 4 (Terraform 0.12 and later); run \`terraform state pull\` with a current Terraform`,
    );
  const found: Found[] = [];
  const zoneNames: Record<string, string> = {};
  let others = 0;
  for (const r of state.resources as Record<string, unknown>[]) {
    if (r.mode !== "managed") {
      // Data sources own nothing; a zone's names the zone the program was about.
      if (r.type === "cloudflare_zone") {
        for (const i of (r.instances ?? []) as { attributes?: Record<string, unknown> }[]) {
          const a = i.attributes ?? {};
          const [id, name] = [a.zone_id ?? a.id, a.name ?? a.zone];
          if (typeof id === "string" && typeof name === "string") zoneNames[id] = name;
        }
      }
      continue;
    }
    if (!String(r.type).startsWith("cloudflare_")) {
      others += ((r.instances as unknown[]) ?? []).length;
      continue;
    }
    const module = r.module ? `${r.module}.` : "";
    for (const i of (r.instances ?? []) as Record<string, unknown>[]) {
      if (i.deposed) continue; // a deposed object is on its way out
      const key = i.index_key;
      const suffix = key === undefined ? "" : typeof key === "number" ? `[${key}]` : `["${key}"]`;
      const attributes = (i.attributes ?? {}) as Record<string, unknown>;
      const secrets = ((i.sensitive_attributes ?? []) as unknown[][]).flatMap((p) => texts(at(attributes, p)));
      found.push({
        type: String(r.type),
        address: `${module}${r.type}.${r.name}${suffix}`,
        name: `${r.name}${key === undefined ? "" : `-${key}`}`,
        attributes,
        encrypted: [],
        secrets,
      });
    }
  }
  return { kind: "terraform", found, others, zoneNames };
}

/** `cloudflare:index/dnsRecord:DnsRecord` → `cloudflare_dns_record`. */
export const terraformType = (token: string) => {
  const m = /^cloudflare:index\/([A-Za-z0-9]+):/.exec(token);
  return m ? `cloudflare_${snake(m[1])}` : undefined;
};

/** camelCase → snake_case (`zoneId` → `zone_id`); digits stay with the word before them. */
export const snake = (k: string) => k.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** Maps whose keys are the user's names, not attribute names: left as they are. */
const NAMED_KEYS = new Set(["headers", "cache_ttl_by_status", "rules_map", "tags_map"]);

/** A stack export's value in Terraform's form: keys in snake_case, secrets opened (or noted), `__meta` dropped. */
function fromExport(v: unknown, path: string, encrypted: string[], secrets: string[], keysAreNames = false): unknown {
  if (Array.isArray(v)) return v.map((x, i) => fromExport(x, `${path}[${i}]`, encrypted, secrets));
  if (!v || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (o[SECRET_SIG] === SECRET) {
    if (typeof o.plaintext === "string") {
      const opened = fromExport(JSON.parse(o.plaintext), path, encrypted, secrets, keysAreNames);
      secrets.push(...texts(opened));
      return opened;
    }
    encrypted.push(path);
    return undefined;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    if (k === "__meta") continue;
    const key = keysAreNames ? k : snake(k);
    out[key] = fromExport(x, `${path}.${k}`, encrypted, secrets, NAMED_KEYS.has(key));
  }
  return out;
}

function pulumiExport(resources: Record<string, unknown>[]): Source {
  const found: Found[] = [];
  let others = 0;
  for (const r of resources) {
    const token = String(r.type ?? "");
    if (token.startsWith("pulumi:") || token.startsWith("pulumi:providers:")) continue;
    const type = terraformType(token);
    if (!type || r.custom === false) {
      if (r.custom !== false) others++;
      continue;
    }
    const name =
      String(r.urn ?? "")
        .split("::")
        .pop() ?? String(r.id);
    const encrypted: string[] = [];
    const secrets: string[] = [];
    const attributes = fromExport(
      { ...((r.inputs ?? {}) as object), ...((r.outputs ?? {}) as object) },
      name,
      encrypted,
      secrets,
    ) as Record<string, unknown>;
    if (r.id !== undefined && attributes.id === undefined) attributes.id = r.id;
    found.push({ type, address: `${token} ${name}`, name, attributes, encrypted, secrets });
  }
  return { kind: "pulumi-cloudflare", found, others };
}

/** Every text (and number) a value holds: what must not be written where a secret was. */
export function texts(v: unknown): string[] {
  if (typeof v === "string") return v === "" ? [] : [v];
  if (typeof v === "number" || typeof v === "boolean") return [];
  if (Array.isArray(v)) return v.flatMap(texts);
  if (v && typeof v === "object") return Object.values(v).flatMap(texts);
  return [];
}

/** The value at a Terraform `sensitive_attributes` path (`[{type: "get_attr", value: "bindings"}, {type: "index", ...}]`). */
function at(v: unknown, path: unknown[]): unknown {
  let x = v;
  for (const step of path as { type: string; value: unknown }[]) {
    const key = step.type === "index" ? ((step.value as { value?: unknown })?.value ?? step.value) : step.value;
    x = x && typeof x === "object" ? (x as Record<string, unknown>)[String(key)] : undefined;
  }
  return x;
}

/** A one-item block as an object: the v4 provider's `[{...}]`, v5's `{...}`; none for an empty one. */
export function one(v: unknown): Record<string, unknown> | undefined {
  const x = Array.isArray(v) ? v[0] : v;
  return x && typeof x === "object" && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
}

/** A dynamic attribute's value: stored as `{value, type}` by Terraform, bare by the others. */
export function dynamic(v: unknown): unknown {
  return v && typeof v === "object" && !Array.isArray(v) && "value" in v && "type" in v && Object.keys(v).length === 2
    ? (v as { value: unknown }).value
    : v;
}

/** Whether a v4 attribute holds its zero value (the SDKv2 provider's "not set"). */
export const unset = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
