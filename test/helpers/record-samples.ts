/**
 * One record of every type the service manages, for the handler, fidelity and engine tests: the value a program
 * writes, the same value spelled otherwise (case, trailing dots, spacing: must compare equal, no diff), a changed
 * value (one PATCH), and a value the type's rules refuse with the message that names the field.
 */
export interface Sample {
  type: string;
  name: string;
  value: { content?: string; data?: Record<string, number | string>; priority?: number };
  respelled: { content?: string; data?: Record<string, number | string>; priority?: number };
  changed: { content?: string; data?: Record<string, number | string>; priority?: number };
  bad: [{ content?: string; data?: Record<string, unknown>; priority?: number }, RegExp];
}

const h64 = "0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6";
const h64b = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const key = "mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==";
const loc = {
  lat_degrees: 52,
  lat_minutes: 22,
  lat_seconds: 23,
  lat_direction: "N",
  long_degrees: 4,
  long_minutes: 53,
  long_seconds: 32,
  long_direction: "E",
  altitude: -2,
  size: 0,
  precision_horz: 10000,
  precision_vert: 10,
};

export const SAMPLES: Sample[] = [
  {
    type: "A",
    name: "a",
    value: { content: "203.0.113.10" },
    respelled: { content: "203.0.113.10" },
    changed: { content: "203.0.113.11" },
    bad: [{ content: "203.0.113.300" }, /content must be an IPv4 address/],
  },
  {
    type: "AAAA",
    name: "aaaa",
    value: { content: "2001:db8::10" },
    respelled: { content: "2001:DB8:0:0::10" },
    changed: { content: "2001:db8::11" },
    bad: [{ content: "203.0.113.1" }, /IPv6/],
  },
  {
    type: "CNAME",
    name: "alias",
    value: { content: "target.example.net" },
    respelled: { content: "Target.Example.NET." },
    changed: { content: "other.example.net" },
    bad: [{ content: "not a host" }, /host name/],
  },
  {
    type: "MX",
    name: "@",
    value: { content: "mail.example.com", priority: 10 },
    respelled: { content: "MAIL.example.com.", priority: 10 },
    changed: { content: "mail.example.com", priority: 20 },
    bad: [{ content: "mail.example.com" }, /an MX record needs a priority/],
  },
  {
    type: "TXT",
    name: "txt",
    value: { content: "v=spf1 include:_spf.example.net ~all" },
    respelled: { content: "v=spf1 include:_spf.example.net ~all" },
    changed: { content: "v=spf1 -all" },
    bad: [{ content: "bell\u0007" }, /control characters/],
  },
  {
    type: "NS",
    name: "sub",
    value: { content: "ns1.example.net" },
    respelled: { content: "NS1.example.net." },
    changed: { content: "ns2.example.net" },
    bad: [{ data: { target: "x" } }, /takes its value as content, not data/],
  },
  {
    type: "PTR",
    name: "10.hosts",
    value: { content: "host10.example.com" },
    respelled: { content: "HOST10.example.com." },
    changed: { content: "host11.example.com" },
    bad: [{ content: "a b" }, /host name for a PTR record/],
  },
  {
    type: "OPENPGPKEY",
    name: "c93f1e400f26708f98cb19d936620da35eec8f72e57f9eec01c1afd6._openpgpkey",
    value: { content: key },
    respelled: { content: `${key.slice(0, 30)} ${key.slice(30)}` },
    changed: { content: key.replace("mdss", "mdsx") },
    bad: [{ content: "not base64!" }, /base64 for an OPENPGPKEY record/],
  },
  {
    type: "SRV",
    name: "_sip._tcp",
    value: { data: { priority: 10, weight: 60, port: 5060, target: "sip.example.com" } },
    respelled: { data: { priority: 10, weight: 60, port: 5060, target: "SIP.example.com." } },
    changed: { data: { priority: 10, weight: 60, port: 5061, target: "sip.example.com" } },
    bad: [
      { data: { priority: 10, weight: 60, port: 70000, target: "sip.example.com" } },
      /data\.port must be from 0 to 65535 for an SRV record/,
    ],
  },
  {
    type: "CAA",
    name: "@",
    value: { data: { flags: 0, tag: "issue", value: "letsencrypt.org" } },
    respelled: { data: { flags: 0, tag: "ISSUE", value: "letsencrypt.org" } },
    changed: { data: { flags: 0, tag: "issue", value: "pki.goog" } },
    bad: [{ data: { flags: 0, tag: "issuer", value: "ca.example.net" } }, /data\.tag must be issue, issuewild, iodef/],
  },
  {
    type: "DS",
    name: "secure",
    value: { data: { key_tag: 12345, algorithm: 13, digest_type: 2, digest: h64 } },
    respelled: { data: { key_tag: 12345, algorithm: 13, digest_type: 2, digest: h64.toUpperCase() } },
    changed: { data: { key_tag: 12346, algorithm: 13, digest_type: 2, digest: h64 } },
    bad: [{ data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: "abcd" } }, /must be 64 hexadecimal digits, got 4/],
  },
  {
    type: "HTTPS",
    name: "@",
    value: { data: { priority: 1, target: ".", value: 'alpn="h3,h2" ipv4hint="203.0.113.10"' } },
    respelled: { data: { priority: 1, target: ".", value: 'alpn="h3,h2"  ipv4hint=203.0.113.10' } },
    changed: { data: { priority: 1, target: ".", value: 'alpn="h2"' } },
    bad: [{ data: { priority: 1, target: ".", value: '"h3"' } }, /key=value service parameters/],
  },
  {
    type: "SVCB",
    name: "_svc",
    value: { data: { priority: 1, target: "svc.example.net", value: 'port="8443"' } },
    respelled: { data: { priority: 1, target: "SVC.example.net.", value: "port=8443" } },
    changed: { data: { priority: 2, target: "svc.example.net", value: 'port="8443"' } },
    bad: [{ data: { priority: 70000, target: ".", value: "" } }, /data\.priority must be from 0 to 65535/],
  },
  {
    type: "TLSA",
    name: "_443._tcp.www",
    value: { data: { usage: 3, selector: 1, matching_type: 1, certificate: h64 } },
    respelled: { data: { usage: 3, selector: 1, matching_type: 1, certificate: h64.toUpperCase() } },
    changed: { data: { usage: 3, selector: 1, matching_type: 1, certificate: h64b } },
    bad: [{ data: { usage: 4, selector: 1, matching_type: 1, certificate: h64 } }, /data\.usage must be from 0 to 3/],
  },
  {
    type: "SSHFP",
    name: "host",
    value: { data: { algorithm: 4, type: 2, fingerprint: h64b } },
    respelled: { data: { algorithm: 4, type: 2, fingerprint: h64b.toUpperCase() } },
    changed: { data: { algorithm: 4, type: 2, fingerprint: h64 } },
    bad: [{ data: { algorithm: 5, type: 2, fingerprint: h64 } }, /data\.algorithm must be one of 1, 2, 3, 4, 6/],
  },
  {
    type: "NAPTR",
    name: "@",
    value: { data: { order: 100, preference: 10, flags: "S", service: "SIP+D2U", regex: "", replacement: "_sip._udp.example.com" } },
    respelled: { data: { order: 100, preference: 10, flags: "S", service: "SIP+D2U", regex: "", replacement: "_SIP._udp.example.com." } },
    changed: { data: { order: 100, preference: 20, flags: "S", service: "SIP+D2U", regex: "", replacement: "_sip._udp.example.com" } },
    bad: [
      { data: { order: 100, preference: 10, flags: "S", service: "SIP+D2U", regex: "" } },
      /data\.replacement is required for an NAPTR record/,
    ],
  },
  {
    type: "CERT",
    name: "key",
    value: { data: { type: 3, key_tag: 0, algorithm: 0, certificate: key } },
    respelled: { data: { type: 3, key_tag: 0, algorithm: 0, certificate: `${key.slice(0, 20)} ${key.slice(20)}` } },
    changed: { data: { type: 1, key_tag: 0, algorithm: 0, certificate: key } },
    bad: [{ data: { type: 3, key_tag: 0, algorithm: 0, certificate: "not base64!" } }, /data\.certificate must be base64/],
  },
  {
    type: "URI",
    name: "_http._tcp",
    value: { data: { weight: 1, target: "https://www.example.com/" }, priority: 10 },
    respelled: { data: { weight: 1, target: "https://www.example.com/" }, priority: 10 },
    changed: { data: { weight: 5, target: "https://www.example.com/" }, priority: 10 },
    bad: [{ data: { weight: 1, target: "https://www.example.com/" } }, /a URI record needs a priority/],
  },
  {
    type: "SMIMEA",
    name: "0b9f1c7a._smimecert",
    value: { data: { usage: 3, selector: 0, matching_type: 1, certificate: h64 } },
    respelled: { data: { usage: 3, selector: 0, matching_type: 1, certificate: h64.toUpperCase() } },
    changed: { data: { usage: 2, selector: 0, matching_type: 1, certificate: h64 } },
    bad: [{ data: { usage: 3, selector: 0, matching_type: 1, certificate: "xyz" } }, /data\.certificate must be hexadecimal/],
  },
  {
    type: "DNSKEY",
    name: "secure",
    value: { data: { flags: 257, protocol: 3, algorithm: 13, public_key: key } },
    respelled: { data: { flags: 257, protocol: 3, algorithm: 13, public_key: key } },
    changed: { data: { flags: 256, protocol: 3, algorithm: 13, public_key: key } },
    bad: [{ data: { flags: 257, protocol: 2, algorithm: 13, public_key: key } }, /data\.protocol must be from 3 to 3/],
  },
  {
    type: "LOC",
    name: "office",
    value: { data: loc },
    respelled: { data: { ...loc, lat_direction: "n" } },
    changed: { data: { ...loc, altitude: 12 } },
    bad: [{ data: { ...loc, lat_degrees: 91 } }, /data\.lat_degrees must be from 0 to 90/],
  },
];
