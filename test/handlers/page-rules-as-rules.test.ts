/**
 * `pulumi-ops import --page-rules-as-rules` (issue 45): a zone's page rules written as the RulesetRules that do the
 * same — a forwarding URL (with its wildcard) as a redirect rule, cache settings as one cache rule, per-URL settings
 * as one configuration rule — and the actions no rule does the same named. Once made, the written rules show no
 * change: a diff and a read of each find them as the program says.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { importCommand } from "../../provider/cli/import";
import { call } from "../../provider/door";
import { forgetRuleListings } from "../../provider/edge/rule-listing";
import { useEdge, zoneId } from "../helpers/edge";

const edge = useEdge();

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}

describe("page rules written as the rules that replace them", () => {
  it("redirect, cache and configuration rules; what has no equivalent is named; applied, they show no change", async () => {
    await make("edge:PageRule", {
      zoneName: "example.com",
      targets: ["example.com/old/*"],
      actions: [{ id: "forwarding_url", value: { url: "https://example.com/new/$1", status_code: 301 } }],
    });
    await make("edge:PageRule", {
      zoneName: "example.com",
      targets: ["example.com/static/*"],
      actions: [
        { id: "cache_level", value: "cache_everything" },
        { id: "edge_cache_ttl", value: 7200 },
        { id: "security_level", value: "high" },
        { id: "browser_check", value: "on" },
        { id: "disable_security" },
      ],
    });
    const out = mkdtempSync(path.join(tmpdir(), "as-rules-"));
    const said: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void said.push(String(line)));
    try {
      expect(await importCommand(["--zone", "example.com", "--page-rules-as-rules", "--out", out])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(said.join("\n")).toMatch(
      /page rule example.com\/static\/\* written as 2 RulesetRules; no rule does the same for: disable_security/,
    );
    const index = readFileSync(path.join(out, "index.ts"), "utf8");
    expect(index).not.toContain("new ops.edge.PageRule(");
    const written = [...index.matchAll(/new ops\.edge\.RulesetRule\(("[^"]+"), (\{[\s\S]*?\n\})\);/g)].map((m) => ({
      name: JSON.parse(m[1]) as string,
      inputs: JSON.parse(m[2]) as Record<string, any>,
    }));
    expect(written.map((w) => w.inputs.phase).sort()).toEqual([
      "http_config_settings",
      "http_request_cache_settings",
      "http_request_dynamic_redirect",
    ]);
    const redirect = written.find((w) => w.inputs.phase === "http_request_dynamic_redirect")!.inputs;
    expect(redirect).toMatchObject({
      expression: '(http.host eq "example.com") and (http.request.uri.path wildcard "/old/*")',
      action: "redirect",
    });
    expect(redirect.actionParameters.from_value).toMatchObject({
      status_code: 301,
      target_url: { expression: 'wildcard_replace(http.request.full_uri, "*://example.com/old/*", "https://example.com/new/${2}")' },
    });
    expect(written.find((w) => w.inputs.phase === "http_request_cache_settings")!.inputs.actionParameters).toEqual({
      cache: true,
      edge_ttl: { mode: "override_origin", default: 7200 },
    });
    expect(written.find((w) => w.inputs.phase === "http_config_settings")!.inputs.actionParameters).toEqual({
      security_level: "high",
      bic: true,
    });
    // Applied as the program says, each shows no change.
    for (const w of written) {
      const made = await make("edge:RulesetRule", w.inputs);
      expect((await call("edge:RulesetRule", "diff", [made.id, made.outs, made.inputs])).changes).toBe(false);
      forgetRuleListings();
      expect((await call("edge:RulesetRule", "read", [made.id, made.outs])).inputs).toBeUndefined();
    }
    expect(edge.rulesets.entrypoint(zoneId(edge), "http_request_dynamic_redirect")!.rules).toHaveLength(1);
  });
});
