/**
 * An octoDNS zone file (`zones/example.com.yaml`: names relative to the zone, `''` the apex, each a record or a list
 * of records with `type`, `value` or `values`, `ttl`, and `octodns:` options) as the records of one DnsRecordSet. Each
 * record is written as a line of a standard zone file and read by parseZoneFile, so the keys are the ones a zone file
 * gets (`<type>:<name>`, with the value where several share a type and name) and every value goes through the same
 * rules. octoDNS's own options: `octodns.cloudflare.proxied` and `auto-ttl` (the service's automatic TTL), `ignored`
 * (left out, as octoDNS leaves it); the apex NS records are the service's own.
 */
import { parse } from "yaml";
import { parseZoneFile } from "../../edge/zone-file";
import type { Carried, Left } from "./carry";
import { pageRuleAsRules } from "../../edge/page-rule/as-rules";

type Bag = Record<string, unknown>;

/** A TXT value as octoDNS keeps it (`;` escaped as `\;`) in a zone file's quoted strings of at most 255 characters. */
function txt(v: string): string {
  const text = v.replace(/\\;/g, ";");
  // At most 255 bytes a string (a zone file's limit): split by bytes, never inside a character.
  const chunks: string[] = [];
  let chunk = "";
  for (const ch of text) {
    if (Buffer.byteLength(chunk + ch) > 255) {
      chunks.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  chunks.push(chunk);
  return chunks.map((c) => `"${c.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(" ");
}

/** One value's rdata, by type; undefined for a type the service does not serve. */
function rdata(type: string, v: unknown): string | undefined {
  const o = (v ?? {}) as Bag;
  switch (type) {
    case "A":
    case "AAAA":
    case "CNAME":
    case "ALIAS":
    case "NS":
    case "PTR":
      return String(v);
    case "TXT":
    case "SPF":
      return txt(String(v));
    case "MX":
      return `${o.preference ?? o.priority} ${o.exchange ?? o.value}`;
    case "CAA":
      return `${o.flags ?? 0} ${o.tag} "${o.value}"`;
    case "SRV":
      return `${o.priority} ${o.weight} ${o.port} ${o.target}`;
    case "NAPTR":
      return `${o.order} ${o.preference} "${o.flags}" "${o.service}" "${o.regexp}" ${o.replacement}`;
    case "SSHFP":
      return `${o.algorithm} ${o.fingerprint_type} ${o.fingerprint}`;
    case "TLSA":
      return `${o.certificate_usage} ${o.selector} ${o.matching_type} ${o.certificate_association_data}`;
    case "DS":
      return `${o.key_tag} ${o.algorithm} ${o.digest_type} ${o.digest}`;
    default:
      return undefined;
  }
}

/** The zone's records as one DnsRecordSet taking them over, and what is left out with why. */
export function octodnsZone(text: string, zoneName: string, file: string): { carried: Carried[]; left: Left[] } {
  const zone = (parse(text) ?? {}) as Record<string, Bag | Bag[]>;
  if (typeof zone !== "object" || Array.isArray(zone)) throw new Error(`${file} is not an octoDNS zone file (a map of names to records)`);
  const lines: string[] = [];
  const left: Left[] = [];
  const redirects: Carried[] = [];
  /** Lines (1-based, after `$ORIGIN`) whose TTL the service chooses (automatic): octoDNS's auto-ttl, or proxied. */
  const automatic = new Set<number>();
  for (const [name, entry] of Object.entries(zone)) {
    for (const r of Array.isArray(entry) ? entry : [entry]) {
      const type = String(r.type ?? "").toUpperCase();
      const at = `${file} ${name === "" ? "(apex)" : name} ${type}`;
      const options = (r.octodns ?? {}) as Bag;
      if (options.ignored === true) {
        left.push({
          address: at,
          reason: "ignored in octoDNS: left on the service as it is (give an authoritative set an `ignore` pattern for it)",
        });
        continue;
      }
      if (type === "NS" && name === "") {
        left.push({ address: at, reason: "the apex NS records are the service's own (the zone's assigned name servers)" });
        continue;
      }
      if (type === "URLFWD") {
        redirects.push(...urlForwards(zoneName, name, at, (r.values ?? [r.value]) as Bag[], left));
        continue;
      }
      const values = r.values !== undefined ? (r.values as unknown[]) : [r.value];
      const cloudflare = (options.cloudflare ?? {}) as Bag;
      const auto = cloudflare["auto-ttl"] === true || cloudflare.proxied === true;
      for (const v of values) {
        const data = rdata(type, v);
        if (data === undefined) {
          left.push({ address: at, reason: `type ${type} is not one the service serves` });
          continue;
        }
        // ALIAS at the apex is the service's CNAME flattening: a CNAME there.
        if (auto) automatic.add(lines.length + 2);
        lines.push(
          `${name === "" ? "@" : name} ${auto ? 300 : Number(r.ttl ?? 3600)} IN ${type === "ALIAS" ? "CNAME" : type === "SPF" ? "TXT" : type} ${data}${cloudflare.proxied === true ? " ; cf_tags=cf-proxied:true" : ""}`,
        );
      }
    }
  }
  const parsed = parseZoneFile(`$ORIGIN ${zoneName}.\n${lines.join("\n")}\n`, { origin: zoneName, skipUnsupported: true });
  for (const s of parsed.skipped) left.push({ address: `${file} ${s.name} ${s.type}`, reason: s.reason });
  // Automatic TTL (1) where octoDNS let the service choose it: a zone file has no word for it.
  const records = Object.fromEntries(
    Object.entries(parsed.records).map(([k, r]) => [k, automatic.has(parsed.lines[k]) ? { ...r, ttl: 1 } : r]),
  );
  return {
    carried: [{ type: "edge:DnsRecordSet", name: "records", from: [file], inputs: { zoneName, records, adopt: true } }, ...redirects],
    left,
  };
}

/**
 * octoDNS's URLFWD (`{code, path, target, masking, query}`), which octodns-cloudflare keeps as a forwarding page rule
 * on `<name><path>`, written as `pulumi-ops import --page-rules-as-rules` writes such a page rule: a redirect rule
 * (Single Redirects), the successor the service names for page rules. A new rule: the page rule stays until removed.
 */
function urlForwards(zoneName: string, name: string, at: string, values: Bag[], left: Left[]): Carried[] {
  const out: Carried[] = [];
  for (const [i, v] of values.entries()) {
    const code = Number(v.code ?? 301);
    if (typeof v.target !== "string" || ![301, 302, 303, 307, 308].includes(code)) {
      left.push({
        address: at,
        reason: `a URL forward without a target or with code ${String(v.code)}: a redirect rule takes 301, 302, 303, 307 or 308`,
      });
      continue;
    }
    const pattern = `${name === "" ? "" : `${name}.`}${zoneName}${typeof v.path === "string" ? v.path : "/"}`;
    const label = `octodns ${name === "" ? "@" : name} URLFWD${values.length > 1 ? ` ${i + 1}` : ""}`;
    const { rules } = pageRuleAsRules(zoneName, pattern, [{ id: "forwarding_url", value: { url: v.target, status_code: code } }], label);
    for (const rule of rules) {
      out.push({
        type: "edge:RulesetRule",
        name: `redirect-${name === "" ? "apex" : name.replace(/[^A-Za-z0-9-]/g, "-")}${values.length > 1 ? `-${i + 1}` : ""}`,
        from: [`${at}${values.length > 1 ? ` ${i + 1}` : ""}`],
        inputs: { ...rule },
        note: `a new redirect rule for ${pattern} -> ${v.target} (${code}): its first up makes it; then delete the forwarding page rule octoDNS made for it (its successor is this rule)`,
      });
    }
  }
  return out;
}
