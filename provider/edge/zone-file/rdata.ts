/**
 * A record's data as a zone file writes it (RFC presentation format), read into the value the service takes:
 * `content` for A, AAAA, CNAME, MX, TXT, NS and PTR, structured `data` for the others. What BIND and dnspython
 * refuse is refused, with what the line should say.
 */
import { DATA_FIELDS, type DataType, type RecordData } from "../dns-record/data";
import { ZoneFileError, type Token } from "./lexer";

export interface Value {
  content?: string;
  data?: RecordData;
  priority?: number;
}

/** DNSSEC algorithm mnemonics (RFC 8624's registry) that dnspython and BIND accept for a number. */
const ALGORITHMS: Record<string, number> = {
  RSAMD5: 1,
  DH: 2,
  DSA: 3,
  RSASHA1: 5,
  "DSA-NSEC3-SHA1": 6,
  "RSASHA1-NSEC3-SHA1": 7,
  RSASHA256: 8,
  RSASHA512: 10,
  "ECC-GOST": 12,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
  INDIRECT: 252,
  PRIVATEDNS: 253,
  PRIVATEOID: 254,
};
/** CERT type mnemonics (RFC 4398). */
const CERT_TYPES: Record<string, number> = {
  PKIX: 1,
  SPKI: 2,
  PGP: 3,
  IPKIX: 4,
  ISPKI: 5,
  IPGP: 6,
  ACPKIX: 7,
  IACPKIX: 8,
  URI: 253,
  OID: 254,
};

/** Host names in data as the service stores them: absolute, lowercase, no trailing dot ("." stays). */
export type Absolute = (name: string) => string;

export function readValue(type: string, data: Token[], line: number, absolute: Absolute): Value {
  const r = new Reader(type, data, line);
  const value = ((): Value => {
    switch (type) {
      case "A":
      case "AAAA":
        return { content: r.word("an address") };
      case "CNAME":
      case "NS":
      case "PTR":
        return { content: absolute(r.word("a host name")) };
      case "MX":
        return { priority: r.int("preference", 0, 65535), content: absolute(r.word("a host name")) };
      case "TXT":
        return { content: r.strings() };
      case "OPENPGPKEY":
        return { content: r.rest("a base64 public key") };
      default:
        return { data: readData(type as DataType, r, absolute), ...(type === "URI" ? { priority: r.priority } : {}) };
    }
  })();
  r.end();
  return value;
}

function readData(type: DataType, r: Reader, absolute: Absolute): RecordData {
  const host = (what: string) => {
    const h = r.word(what);
    return h === "." || h === "@" ? (h === "@" ? absolute(h) : ".") : absolute(h);
  };
  let d: RecordData;
  switch (type) {
    case "SRV":
      d = {
        priority: r.int("priority", 0, 65535),
        weight: r.int("weight", 0, 65535),
        port: r.int("port", 0, 65535),
        target: host("a target host"),
      };
      break;
    case "CAA":
      d = { flags: r.int("flags", 0, 255), tag: r.word("a tag (issue, issuewild or iodef)"), value: r.word("a value", true) };
      break;
    case "DS":
      d = {
        key_tag: r.int("key tag", 0, 65535),
        algorithm: r.int("algorithm", 0, 255, ALGORITHMS),
        digest_type: r.int("digest type", 0, 255),
        digest: r.rest("a hexadecimal digest"),
      };
      break;
    case "DNSKEY":
      d = {
        flags: r.int("flags", 0, 65535),
        protocol: r.int("protocol", 0, 255),
        algorithm: r.int("algorithm", 0, 255, ALGORITHMS),
        public_key: r.rest("a base64 public key"),
      };
      break;
    case "HTTPS":
    case "SVCB":
      d = { priority: r.int("priority", 0, 65535), target: host("a target name or ."), value: r.params() };
      break;
    case "TLSA":
    case "SMIMEA":
      d = {
        usage: r.int("usage", 0, 255),
        selector: r.int("selector", 0, 255),
        matching_type: r.int("matching type", 0, 255),
        certificate: r.rest("hexadecimal certificate data"),
      };
      break;
    case "SSHFP":
      d = {
        algorithm: r.int("algorithm", 0, 255),
        type: r.int("fingerprint type", 0, 255),
        fingerprint: r.rest("a hexadecimal fingerprint"),
      };
      break;
    case "NAPTR":
      d = {
        order: r.int("order", 0, 65535),
        preference: r.int("preference", 0, 65535),
        flags: r.word("flags", true),
        service: r.word("a service", true),
        regex: r.word("a regular expression", true),
        replacement: host("a replacement name or ."),
      };
      break;
    case "CERT":
      d = {
        type: r.int("certificate type", 0, 65535, CERT_TYPES),
        key_tag: r.int("key tag", 0, 65535),
        algorithm: r.int("algorithm", 0, 255, ALGORITHMS),
        certificate: r.rest("a base64 certificate"),
      };
      break;
    case "URI":
      r.priority = r.int("priority", 0, 65535);
      d = { weight: r.int("weight", 0, 65535), target: r.word("a quoted URI", true) };
      break;
    case "LOC":
      d = readLoc(r);
      break;
  }
  return d;
}

/** RFC 1876: `d [m [s]] N|S d [m [s]] E|W alt[m] [size[m] [hp[m] [vp[m]]]]`. */
function readLoc(r: Reader): RecordData {
  const d: RecordData = {};
  for (const [what, dirs, max] of [
    ["lat", ["N", "S"], 90],
    ["long", ["E", "W"], 180],
  ] as const) {
    d[`${what}_degrees`] = r.int(`${what === "lat" ? "latitude" : "longitude"} degrees`, 0, max);
    d[`${what}_minutes`] = 0;
    d[`${what}_seconds`] = 0;
    for (const part of ["minutes", "seconds"] as const) {
      const next = r.peek()?.toUpperCase();
      if (next === undefined || (dirs as readonly string[]).includes(next)) break;
      d[`${what}_${part}`] = part === "minutes" ? r.int("minutes", 0, 59) : r.decimal("seconds", 0, 59.999, 3);
    }
    const dir = r.word(`${dirs.join(" or ")}`).toUpperCase();
    if (!(dirs as readonly string[]).includes(dir))
      r.fail(`expected ${dirs.join(" or ")}, got "${dir}"`, "Write it as `52 22 23.000 N 4 53 32.000 E -2.00m`");
    d[`${what}_direction`] = dir;
  }
  d.altitude = r.decimal("altitude", -100000, 42849672.95, 2, "m");
  const defaults = { size: 1, precision_horz: 10000, precision_vert: 10 };
  for (const [k, v] of Object.entries(defaults)) d[k] = r.peek() === undefined ? v : r.decimal(k.replace("_", " "), 0, 90000000, 2, "m");
  return d;
}

class Reader {
  private at = 0;
  priority?: number;
  constructor(
    private readonly type: string,
    private readonly tokens: Token[],
    private readonly line: number,
  ) {}

  fail(message: string, remedy = `Check the line against the ${this.type} record's format: ${FORMAT[this.type] ?? "its RFC"}`): never {
    throw new ZoneFileError(this.line, `${this.type} data: ${message}`, remedy);
  }

  peek(): string | undefined {
    return this.tokens[this.at]?.text;
  }

  word(what: string, quotedOk = false): string {
    const t = this.tokens[this.at++];
    if (!t) this.fail(`${what} is missing`);
    if (t.quoted && !quotedOk) this.fail(`${what} cannot be a quoted string, got "${t.text}"`);
    return t.text;
  }

  int(what: string, min: number, max: number, names?: Record<string, number>): number {
    const text = this.word(what);
    const n = names?.[text.toUpperCase()] ?? (/^\d+$/.test(text) ? Number(text) : NaN);
    if (!Number.isInteger(n) || n < min || n > max) this.fail(`the ${what} must be a whole number from ${min} to ${max}, got "${text}"`);
    return n;
  }

  decimal(what: string, min: number, max: number, places: number, unit = ""): number {
    const text = this.word(what);
    const m = new RegExp(`^(-?\\d+)(\\.\\d{1,${places}})?${unit}?$`).exec(text);
    const n = m ? Number(`${m[1]}${m[2] ?? ""}`) : NaN;
    if (!m || n < min || n > max)
      this.fail(
        `the ${what} must be a number from ${min} to ${max}${unit ? ` (${unit})` : ""} with at most ${places} decimals, got "${text}"`,
      );
    return n;
  }

  /** The rest of the tokens as one value (hex and base64 may be split by spaces). */
  rest(what: string): string {
    if (this.at >= this.tokens.length) this.fail(`${what} is missing`);
    const out = this.tokens
      .slice(this.at)
      .map((t) => t.text)
      .join("");
    this.at = this.tokens.length;
    return out;
  }

  /** TXT: one or more strings, each at most 255 bytes, joined as the service's content. */
  strings(): string {
    if (!this.tokens.length) this.fail("at least one string is needed", 'Write it as `@ TXT "v=spf1 -all"`');
    for (const t of this.tokens) {
      if (Buffer.byteLength(t.text) > 255)
        this.fail(
          `a string is ${Buffer.byteLength(t.text)} bytes, and one string holds at most 255`,
          'Split it into several quoted strings: "first 255 bytes" "the rest"',
        );
    }
    this.at = this.tokens.length;
    return this.tokens.map((t) => t.text).join("");
  }

  /** SVCB/HTTPS parameters: `key`, `key=value` or `key="value"` (the quoted value glued to its `=`). */
  params(): string {
    const out: string[] = [];
    while (this.at < this.tokens.length) {
      const t = this.tokens[this.at++];
      if (t.quoted)
        this.fail(`a parameter must start with its key, got the string "${t.text}"`, 'Write parameters as key=value, e.g. alpn="h3,h2"');
      const eq = t.text.indexOf("=");
      if (eq < 0) {
        out.push(t.text.toLowerCase());
        continue;
      }
      let value = t.text.slice(eq + 1);
      if (eq === t.text.length - 1) {
        const next = this.tokens[this.at];
        if (!next?.quoted || !next.glued)
          this.fail(`the parameter ${t.text} has no value after "="`, 'Write the value right after "=" with no space, e.g. alpn="h3,h2"');
        value = next.text;
        this.at++;
      }
      out.push(`${t.text.slice(0, eq).toLowerCase()}="${value}"`);
    }
    return out.join(" ");
  }

  end(): void {
    if (this.at < this.tokens.length) this.fail(`${this.tokens.length - this.at} item(s) too many ("${this.tokens[this.at].text}")`);
  }
}

/** Each type's format, for the remedy of a line that does not fit it. */
const FORMAT: Record<string, string> = {
  A: "`www A 203.0.113.10`",
  AAAA: "`www AAAA 2001:db8::10`",
  CNAME: "`www CNAME target.example.net.`",
  NS: "`sub NS ns1.example.net.`",
  PTR: "`10 PTR host.example.com.`",
  MX: "`@ MX 10 mail.example.com.`",
  ...Object.fromEntries(Object.entries(DATA_FIELDS).map(([t, f]) => [t, `\`name ${t} ${Object.keys(f).join(" ")}\``])),
  URI: '`_http._tcp URI 10 1 "https://www.example.com/"`',
  LOC: "`@ LOC 52 22 23.000 N 4 53 32.000 E -2.00m 0.00m 10000m 10m`",
};
