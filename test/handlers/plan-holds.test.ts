/**
 * Plans that hold (issue 44): `pulumi preview --save-plan` records what `check` returns while some inputs are still
 * unknown (outputs of other resources), and `pulumi up --plan` refuses any input that then differs. So for every
 * resource type and every input that may be unknown at preview, `check` with it unknown must return every input it
 * returns once the value is known — defaults included — each either the same or itself unknown.
 */
import { describe, expect, it } from "vitest";
import { UNKNOWN } from "../../provider/check";
import { call } from "../../provider/door";
import { registry } from "../../provider/registry";
import { CREATE_INPUTS } from "../helpers/type-cases";

/** `v` with one text or number leaf unknown (a list item, a field of a map), for each leaf in turn. */
function leafUnknowns(v: unknown): unknown[] {
  if (typeof v === "string" || typeof v === "number") return [UNKNOWN];
  if (Array.isArray(v)) return v.flatMap((x, i) => leafUnknowns(x).map((inner) => v.map((y, j) => (j === i ? inner : y))));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => leafUnknowns(x).map((inner) => ({ ...v, [k]: inner })));
  return [];
}

/** Whether the applied value is what the plan holds: the planned one where it is known, at every depth. */
function holds(planned: unknown, applied: unknown): boolean {
  if (planned === UNKNOWN) return true;
  if (Array.isArray(planned))
    return Array.isArray(applied) && planned.length === applied.length && planned.every((p, i) => holds(p, applied[i]));
  if (planned && typeof planned === "object") {
    if (!applied || typeof applied !== "object") return false;
    const keys = new Set([...Object.keys(planned), ...Object.keys(applied)]);
    return [...keys].every((k) => holds((planned as Record<string, unknown>)[k], (applied as Record<string, unknown>)[k]));
  }
  return planned === applied;
}

function expectHolds(known: { inputs: Record<string, unknown> }, planned: { inputs: Record<string, unknown> }): void {
  const violations = Object.keys(known.inputs).filter((k) => !(k in planned.inputs) || !holds(planned.inputs[k], known.inputs[k]));
  expect(violations.map((k) => `${k}: planned ${JSON.stringify(planned.inputs[k])}, applied ${JSON.stringify(known.inputs[k])}`)).toEqual(
    [],
  );
}

describe("check with an input unknown returns what it returns once the input is known", () => {
  for (const [type, inputs] of Object.entries(CREATE_INPUTS)) {
    if (registry[type].retired) continue;
    for (const key of Object.keys(inputs)) {
      it(`${type}, ${key} unknown`, async () => {
        const known = await call(type, "check", [{}, inputs]);
        expect(known.failures).toEqual([]);
        const planned = await call(type, "check", [{}, { ...inputs, [key]: UNKNOWN }]);
        expect(planned.failures).toEqual([]);
        expectHolds(known, planned);
      });
      const nested = typeof inputs[key] === "object" ? leafUnknowns(inputs[key]) : [];
      nested.forEach((value, i) => {
        it(`${type}, value ${i + 1} inside ${key} unknown`, async () => {
          const known = await call(type, "check", [{}, inputs]);
          const planned = await call(type, "check", [{}, { ...inputs, [key]: value }]);
          expect(planned.failures).toEqual([]);
          expectHolds(known, planned);
        });
      });
    }
  }
});

/** Inputs the check rewrites (names and targets spelled otherwise, a stop word as text), with several unknown at once. */
const REWRITTEN: [string, Record<string, unknown>, string[][]][] = [
  [
    "edge:DnsRecord",
    { zoneName: "example.com", type: "CNAME", name: "WWW", content: "Target.Example.com.", ttl: 300 },
    [["zoneName"], ["type"], ["content"], ["zoneName", "content"]],
  ],
  [
    "edge:DnsRecordSet",
    {
      zoneName: "example.com",
      records: {
        blog: { type: "CNAME", name: "Blog", content: "Target.Example.COM." },
        v6: { type: "AAAA", name: "V6", content: "2001:DB8:0:0::1" },
      },
    },
    [["zoneName"], ["zoneName", "records.blog.content"], ["records.v6.type"]],
  ],
  ["runner:RunnerModel", { name: "helper", from: "qwen2.5:0.5b", parameters: { stop: "User:" } }, [["name"], ["from"]]],
];

describe("check with several inputs unknown returns what it returns once they are known, rewritten ones included", () => {
  for (const [type, inputs, sets] of REWRITTEN) {
    for (const unknown of sets) {
      it(`${type}, ${unknown.join(" and ")} unknown`, async () => {
        const known = await call(type, "check", [{}, inputs]);
        expect(known.failures).toEqual([]);
        const news = structuredClone(inputs);
        for (const p of unknown) {
          const keys = p.split(".");
          let at = news as Record<string, unknown>;
          for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>;
          at[keys.at(-1)!] = UNKNOWN;
        }
        const planned = await call(type, "check", [{}, news]);
        expect(planned.failures).toEqual([]);
        expectHolds(known, planned);
      });
    }
  }
});

describe("a plan made with an input unknown plans the change the up makes", () => {
  it.each([undefined, "claude"])("a Skill (ops:skillsKind %s): an unknown input plans an update, never a replacement", async (kind) => {
    if (kind) process.env.SKILLS_KIND = kind;
    try {
      const inputs = {
        slug: "oven-care",
        instruction: "# Oven care\n\nSteps.",
        name: "oven-care",
        description: "Care for the oven.",
        followGuide: false,
      };
      const { inputs: olds } = await call("skills:Skill", "check", [{}, inputs]);
      // The derived inputs (publishTo, filesHash, contentHash, name) are all unknown while `instruction` is.
      const { inputs: planned } = await call("skills:Skill", "check", [olds, { ...inputs, instruction: UNKNOWN }]);
      const diff = await call("skills:Skill", "diff", ["oven-care", { ...olds, lines: 5 }, planned]);
      expect(diff).toMatchObject({ changes: true, replaces: [] });
    } finally {
      delete process.env.SKILLS_KIND;
    }
  });
});
