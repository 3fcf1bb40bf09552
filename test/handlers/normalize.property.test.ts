/**
 * Property-based tests (fast-check) of the DNS normalisation the diffs rely on: normalising twice equals
 * normalising once, and no input, however it is spelled (case, trailing dots, @ / label / full name, IPv6
 * compression), produces a diff or a refresh drift against what the service stores and returns for it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { fullName, normalizeContent, normalizeName } from "../../provider/edge/dns-record/normalize";
import { canonicalModel } from "../../provider/runner/model-name";
import { canonicalModelName } from "../../emulators";
import { useEdge } from "../helpers/edge";

const ZONE = "example.com";
const T = "edge:DnsRecord";

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,14}[a-z0-9])?$/);
/** Randomly upper-cases letters: DNS names compare without case. */
const anyCase = (s: fc.Arbitrary<string>) =>
  fc
    .tuple(s, fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }))
    .map(([v, up]) => [...v].map((c, i) => (up[i % 64] ? c.toUpperCase() : c)).join(""));
const dot = fc.constantFrom("", ".");
const host = fc
  .tuple(anyCase(fc.array(label, { minLength: 1, maxLength: 3 }).map((ls) => `${ls.join(".")}.example.net`)), dot)
  .map(([h, d]) => h + d);
/** The three spellings of a record's name: @, a label, a full name in the zone (any case, maybe a trailing dot). */
const recordName = fc.oneof(
  fc.constant("@"),
  anyCase(label),
  fc.tuple(anyCase(label), anyCase(fc.constant(ZONE)), dot).map(([l, z, d]) => `${l}.${z}${d}`),
);
const content = fc.oneof(
  fc.record({ type: fc.constant("A"), content: fc.ipV4() }),
  fc.record({ type: fc.constant("AAAA"), content: fc.ipV6() }),
  fc.record({ type: fc.constant("CNAME"), content: host }),
  fc.record({
    type: fc.constant("TXT"),
    content: fc.string({ minLength: 1, maxLength: 60, unit: "grapheme-ascii" }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s)),
  }),
);

describe("normalisation is idempotent", () => {
  it("names", () => {
    fc.assert(
      fc.property(
        recordName,
        (n) => normalizeName(normalizeName(n)) === normalizeName(n) && fullName(fullName(n, ZONE), ZONE) === fullName(n, ZONE),
      ),
    );
  });
  it("content of every type", () => {
    fc.assert(
      fc.property(content, ({ type, content: c }) => normalizeContent(type, normalizeContent(type, c)) === normalizeContent(type, c)),
    );
  });
});

describe("check, the normaliser of every input, is idempotent", () => {
  it("DNS records: checking the checked inputs changes nothing", async () => {
    await fc.assert(
      fc.asyncProperty(recordName, content, fc.constantFrom(1, 300), fc.boolean(), async (name, { type, content: c }, ttl, proxied) => {
        const once = await call(T, "check", [{}, { zoneName: ZONE, type, name, content: c, ttl, proxied: proxied && type !== "TXT" }]);
        const twice = await call(T, "check", [{}, once.inputs]);
        expect(twice).toEqual(once);
      }),
      { numRuns: 200 },
    );
  });
  it("page subscriptions: fields in any order, with repeats, settle to one spelling", async () => {
    const fields = fc.array(fc.constantFrom("feed", "messages", "mention", "ratings"), { minLength: 1, maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(fields, fields, async (a, b) => {
        const once = await call("pages:PageSubscription", "check", [{}, { pageId: "200000000000001", subscribedFields: a }]);
        expect((await call("pages:PageSubscription", "check", [{}, once.inputs])).inputs).toEqual(once.inputs);
        // The same set of fields, however listed, is the same input: no diff.
        const other = await call("pages:PageSubscription", "check", [{}, { pageId: "200000000000001", subscribedFields: b }]);
        expect(JSON.stringify(once.inputs) === JSON.stringify(other.inputs)).toBe(
          new Set(a).size === new Set(b).size && a.every((f) => b.includes(f)),
        );
      }),
    );
  });
  it("model names: idempotent, and spelled as the runner lists them", () => {
    const model = fc
      .tuple(anyCase(label), fc.option(anyCase(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,8}$/)), { nil: undefined }))
      .map(([m, t]) => (t ? `${m}:${t}` : m));
    fc.assert(
      fc.property(model, (m) => canonicalModel(canonicalModel(m)) === canonicalModel(m) && canonicalModel(m) === canonicalModelName(m)),
    );
  });
});

describe("no normalised input diffs against what the service returns for it", () => {
  const edge = useEdge();

  it("create, then diff and refresh against the service's own spelling: no change, no drift", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(recordName, content, fc.constantFrom(1, 300, 3600), async (name, { type, content: c }, ttl) => {
        // One record at a time, each name unique in the run: A/AAAA/CNAME at one name would conflict by design.
        const unique = name === "@" ? `r${n++}` : name.replace(/^[^.]+/, (l) => `${l}-${n++}`);
        const { inputs, failures } = await call(T, "check", [{}, { zoneName: ZONE, type, name: unique, content: c, ttl }]);
        expect(failures).toEqual([]);
        const { id, outs } = await call(T, "create", [inputs]);
        try {
          // What a second up compares: the stored outputs against the program's (checked) inputs.
          expect(await call(T, "diff", [id, outs, inputs])).toMatchObject({ changes: false });
          // What a refresh does: read the service's record; no drifted inputs come back.
          const read = await call(T, "read", [id, outs]);
          expect(read.inputs).toBeUndefined();
          expect(await call(T, "diff", [id, read.props, inputs])).toMatchObject({ changes: false });
        } finally {
          await call(T, "delete", [id, outs]);
        }
      }),
      { numRuns: 60 },
    );
    expect(edge.count("POST")).toBe(60);
  }, 60_000);
});
