/**
 * Zone files for the property test of parseZoneFile against dnspython (test/unit/zone-file.test.ts): records of the
 * types a zone holds most, written the many ways BIND allows (TTL and class in either order or left out, owner left
 * blank, relative and absolute names, parentheses, comments, escapes, units), and about one in six broken the ways
 * real files break (a text continued without parentheses, a value out of range, a string over 255 bytes, an
 * unknown type, a missing field).
 */
import fc from "fast-check";

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);
const ttl = fc.constantFrom(
  ["60", 60],
  ["300", 300],
  ["5m", 300],
  ["1h", 3600],
  ["3600", 3600],
  ["1h30m", 5400],
  ["1d", 86400],
  ["86400", 86400],
);
const host = fc.oneof(
  label.map((l) => ({ text: l, full: `${l}.example.com` })),
  label.map((l) => ({ text: `${l}.example.net.`, full: `${l}.example.net` })),
  fc.constant({ text: "@", full: "example.com" }),
);
const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString("hex"));
const u16 = fc.integer({ min: 0, max: 65535 });
/** A TXT string as a zone file writes it: printable ASCII, `"` and `\` escaped, some bytes as \DDD. */
const txtString = fc
  .array(
    fc.oneof(fc.constantFrom("a", "Z", "0", " ", ";", "=", "~", ":", "."), fc.constantFrom('\\"', "\\\\", "\\059", "\\065", "\\032")),
    { minLength: 1, maxLength: 40 },
  )
  .map((p) => `"${p.join("")}"`);

/** Record data as written, by type. */
const rdata = fc.oneof(
  fc.ipV4().map((a) => ["A", a]),
  fc.ipV6().map((a) => ["AAAA", a]),
  host.map((h) => ["CNAME", h.text]),
  fc.tuple(u16, host).map(([p, h]) => ["MX", `${p} ${h.text}`]),
  fc.array(txtString, { minLength: 1, maxLength: 3 }).map((s) => ["TXT", s.length > 1 ? `( ${s.join("\n    ")} )` : s[0]]),
  fc
    .tuple(
      u16,
      u16,
      u16,
      fc.oneof(
        host.map((h) => h.text),
        fc.constant("."),
      ),
    )
    .map(([a, b, c, t]) => ["SRV", `${a} ${b} ${c} ${t}`]),
  fc
    .tuple(
      fc.constantFrom(0, 128),
      fc.constantFrom("issue", "issuewild", "iodef"),
      fc.constantFrom('"ca.example.net"', '";"', '"mailto:sec@example.com"'),
    )
    .map(([f, t, v]) => ["CAA", `${f} ${t} ${v}`]),
  fc
    .tuple(u16, fc.constantFrom(8, 13, 15), hex(32))
    .map(([k, a, d]) => ["DS", `${k} ${a} 2 ( ${d.slice(0, 30)}\n ${d.slice(30).toUpperCase()} )`]),
  fc.tuple(fc.integer({ min: 1, max: 4 }), hex(32)).map(([a, f]) => ["SSHFP", `${a} 2 ${f}`]),
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1 }), hex(32)).map(([u, s, c]) => ["TLSA", `${u} ${s} 1 ${c}`]),
  fc
    .tuple(u16, u16, fc.constantFrom('"S"', '"U"', '""'), fc.constantFrom('"SIP+D2U"', '"E2U+sip"'), host)
    .map(([o, p, f, s, h]) => ["NAPTR", `${o} ${p} ${f} ${s} "" ${h.text}`]),
  fc.tuple(u16, u16, label).map(([p, w, l]) => ["URI", `${p} ${w} "https://${l}.example.com/"`]),
  fc.tuple(label).map(([l]) => ["PTR", `${l}.example.com.`]),
);

/** The ways a real file breaks: each must be refused by both readers. */
const broken = fc.constantFrom(
  '@ TXT "v=spf1 include:a.example.net"\n   "include:b.example.net ~all"',
  "_x._tcp SRV 1 2 70000 host",
  `@ TXT "${"x".repeat(256)}"`,
  "@ FOO bar",
  "@ MX mail",
  "@ A 203.0.113.1 203.0.113.2",
  '@ CAA 256 issue "ca.example.net"',
  "s DS 1 13 2 ABC",
  '@ TXT "\\300"',
);

const record = fc.record({
  owner: fc.oneof(
    label,
    fc.constant("@"),
    label.map((l) => `${l}.example.com.`),
    fc.constant(""),
  ),
  ttl: fc.option(ttl, { nil: undefined }),
  klass: fc.boolean(),
  classFirst: fc.boolean(),
  typeCase: fc.boolean(),
  value: rdata,
  comment: fc.boolean(),
});

export const zoneFile = fc
  .tuple(
    fc.option(ttl, { nil: undefined }),
    fc.array(record, { minLength: 1, maxLength: 12 }),
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: fc.tuple(fc.nat(12), broken), weight: 1 }),
  )
  .map(([defaultTtl, records, breakage]) => {
    const lines = [defaultTtl ? `$TTL ${defaultTtl[0]}` : "$TTL 300"];
    records.forEach((r, i) => {
      // An SRV record lives at _service._proto; a blank owner continues the previous one (never on the first line).
      const [type, data] = r.value as [string, string];
      // A CNAME gets a name of its own now and then shares one (which both readers must refuse).
      const owner = type === "SRV" ? `_s${i}._tcp` : type === "CNAME" && i % 4 ? `c${i}` : i === 0 && r.owner === "" ? "@" : r.owner;
      const t = r.ttl?.[0];
      const fields = r.klass ? (r.classFirst ? ["IN", t] : [t, "IN"]) : [t];
      const head = owner === "" ? " " : owner;
      lines.push([head, ...fields.filter(Boolean), r.typeCase ? type : type.toLowerCase(), data].join(" ") + (r.comment ? " ; note" : ""));
    });
    if (breakage) lines.splice(1 + (breakage[0] % records.length), 0, breakage[1]);
    return { text: `${lines.join("\n")}\n`, broken: breakage !== undefined };
  });
