/**
 * The preview checks at the door both doors share (provider/preflight.ts): one read per service and command, a
 * zone named by the program looked up once, failures with the remedy `up` would give, and the off switch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { checkForEngine } from "../../provider/door";
import { forgetPreviewChecks } from "../../provider/preflight";
import { useAi } from "../helpers/ai";
import { records, useEdge, zoneId } from "../helpers/edge";
import { useSocial } from "../helpers/social";

const edge = useEdge();
const { pages } = useSocial();
const { runner } = useAi();
const record = (zoneName: string, name: string) => ({ zoneName, type: "A", name, content: "203.0.113.10", ttl: 300 });
afterEach(() => {
  forgetPreviewChecks();
  delete process.env.PULUMI_OPS_PREVIEW_CHECKS;
});

describe("preview checks", () => {
  it("verify the token once and look each named zone up once, for any number of resources", async () => {
    for (let i = 0; i < 5; i++) await checkForEngine("edge:DnsRecord", {}, record("example.com", `r${i}`));
    expect(edge.count("GET", /\/user\/tokens\/verify$/)).toBe(1);
    expect(edge.count("GET", /\/zones$/)).toBe(1);
    expect(edge.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("a zone the token cannot see fails the check with the remedy up would give", async () => {
    await expect(checkForEngine("edge:DnsRecord", {}, record("nope.example", "www"))).rejects.toThrow(
      /no zone named "nope\.example" is visible to this token.*zone name/,
    );
  });

  it("a bad token fails the check, naming the setting and not the token", async () => {
    process.env.EDGE_API_TOKEN = "not-a-token-0123456789";
    const failed = await checkForEngine("edge:DnsRecord", {}, record("example.com", "www")).catch((e: Error) => e);
    expect(String(failed)).toMatch(/the API token is not valid.*ops:edgeApiToken/);
    expect(String(failed)).not.toContain("not-a-token-0123456789");
  });

  it("a page the token cannot manage fails the check; a page it can passes, with reads only", async () => {
    const role = (pageId: string) => ({ pageId, user: "300000000000003", role: "EDITOR" });
    await checkForEngine("pages:PageRole", {}, role("200000000000001"));
    await expect(checkForEngine("pages:PageRole", {}, role("200000000000999"))).rejects.toThrow(
      /not a token of page 200000000000999.*Set ops:pagesAccessToken/,
    );
    expect(pages.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("a generated skill's model the runner does not have fails the check; one it has passes; the list is read once", async () => {
    const pulled = await fetch(`${runner.url}/api/pull`, {
      method: "POST",
      body: JSON.stringify({ model: "qwen2.5:0.5b", stream: false }),
    });
    expect(pulled.status).toBe(200);
    runner.log.splice(0);
    const sources = ["deck-oven-handbook.md", "bake-schedule.md"].map((f) => `examples/ai-host/sources/${f}`);
    const skill = (model: string) => ({ slug: `oven-runbook-${model.replace(/[^a-z0-9]/g, "-")}`, sources, model }); // one skill per model
    expect((await checkForEngine("skills:GeneratedSkill", {}, skill("qwen2.5:0.5b"))).failures).toEqual([]);
    await expect(checkForEngine("skills:GeneratedSkill", {}, skill("qwen2.5:7b"))).rejects.toThrow(
      /the runner has no model qwen2\.5:7b.*RunnerModel.*`name` output/,
    );
    // A model the program makes: its RunnerModel's check came first (the skill waits for its `name` output).
    await checkForEngine("runner:RunnerModel", {}, { name: "baker", from: "qwen2.5:0.5b", system: "You bake." });
    expect((await checkForEngine("skills:GeneratedSkill", {}, skill("baker"))).failures).toEqual([]);
    expect(runner.count("GET", /\/api\/tags$/)).toBe(1);
    expect(runner.log.filter((e) => e.method !== "GET")).toEqual([]);
  });

  it("two resources of the program that stand for one thing with different inputs fail the second check, with no request, even with the checks off", async () => {
    process.env.PULUMI_OPS_PREVIEW_CHECKS = "false";
    const setting = (value: string) => ({ zoneName: "example.com", settingId: "security_level", value });
    await checkForEngine("edge:ZoneSetting", {}, setting("high"));
    await checkForEngine("edge:ZoneSetting", {}, setting("high")); // the same inputs again: one resource checked twice (a replacement)
    await expect(checkForEngine("edge:ZoneSetting", {}, setting("low"))).rejects.toThrow(
      /two resources of the program stand for the setting security_level of zone example\.com, with different inputs .*Keep one resource for it/,
    );
    // The same slug by a Skill and a GeneratedSkill; another account's slug is another thing.
    await checkForEngine("skills:Skill", {}, { slug: "oven-care", source: "examples/ai-host/skills/oven-care/SKILL.md" });
    await expect(
      checkForEngine(
        "skills:GeneratedSkill",
        {},
        {
          slug: "oven-care",
          sources: ["deck-oven-handbook.md", "bake-schedule.md"].map((f) => `examples/ai-host/sources/${f}`),
          model: "qwen2.5:0.5b",
        },
      ),
    ).rejects.toThrow(/the skill oven-care, .*a Skill and this GeneratedSkill/);
    expect(edge.log).toEqual([]);
  });

  it("ops:previewChecks false asks nothing", async () => {
    process.env.PULUMI_OPS_PREVIEW_CHECKS = "false";
    await checkForEngine("edge:DnsRecord", {}, record("nope.example", "www"));
    expect(edge.log).toEqual([]);
  });

  it("a CNAME beside another record of the program fails the check naming both, with no request, even with the checks off", async () => {
    process.env.PULUMI_OPS_PREVIEW_CHECKS = "false";
    const cname = { zoneName: "example.com", type: "CNAME", name: "www", content: "target.example.net", ttl: 300 };
    await checkForEngine("edge:DnsRecord", {}, cname);
    await expect(checkForEngine("edge:DnsRecord", {}, record("example.com", "WWW"))).rejects.toThrow(
      /the program's A record www \(203\.0\.113\.10\) and the program's CNAME record www \(target\.example\.net\) are both at www\.example\.com .*CNAME holds nothing else.*remove one of them from the program/,
    );
    forgetPreviewChecks();
    const set = {
      zoneName: "example.com",
      records: {
        "CNAME:api": { type: "CNAME", name: "api", content: "x.example.net", ttl: 300 },
        "TXT:api": { type: "TXT", name: "api", content: "v=1", ttl: 300 },
      },
    };
    await expect(checkForEngine("edge:DnsRecordSet", {}, set)).rejects.toThrow(
      /records\.TXT:api \(TXT api v=1\) and records\.CNAME:api \(CNAME api x\.example\.net\) are both at api\.example\.com/,
    );
    expect(edge.log).toEqual([]);
  });

  it("a new CNAME where the service holds another record fails the preview, reading the zone once; a set that removes the record in the same update passes", async () => {
    const z = zoneId(edge);
    await fetch(`${edge.url}/client/v4/zones/${z}/dns_records`, {
      method: "POST",
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ type: "TXT", name: "www", content: "hello", ttl: 300 }),
    });
    const txt = records(edge)[0];
    edge.log.splice(0);
    const cname = { zoneName: "example.com", type: "CNAME", name: "www", content: "target.example.net", ttl: 300 };
    await expect(checkForEngine("edge:DnsRecord", {}, cname)).rejects.toThrow(
      new RegExp(
        `the program's CNAME record www .* and the existing TXT record hello \\(id ${txt.id}\\) are both at www\\.example\\.com.*remove the record that is in the way`,
      ),
    );
    await checkForEngine("edge:DnsRecord", {}, record("example.com", "other")); // another name: fine, and the zone is not read again
    expect(edge.count("GET", /dns_records$/)).toBe(1);
    forgetPreviewChecks();
    // The set held that TXT and drops it for the CNAME: up deletes first, so there is no conflict.
    const olds = { zoneName: "example.com", records: { t: { type: "TXT", name: "www", content: "hello", ttl: 300 } } };
    const news = { zoneName: "example.com", records: { c: { type: "CNAME", name: "www", content: "target.example.net", ttl: 300 } } };
    expect((await checkForEngine("edge:DnsRecordSet", olds, news)).failures).toEqual([]);
    // An existing record (olds given) is not new: only new records are held against the service.
    forgetPreviewChecks();
    expect((await checkForEngine("edge:DnsRecord", cname, cname)).failures).toEqual([]);
  });

  it("a new set of thousands in a zone of thousands: each record looked up by name in one listing, the one that is there named", async () => {
    const z = zoneId(edge);
    const host = (i: number) => ({ type: "A", name: `h${i}`, content: `198.51.${Math.floor(i / 250)}.${(i % 250) + 1}`, ttl: 300 });
    for (let at = 0; at < 3000; at += 200) {
      const posts = Array.from({ length: 200 }, (_, i) => host(at + i));
      await fetch(`${edge.url}/client/v4/zones/${z}/dns_records/batch`, {
        method: "POST",
        headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/json" },
        body: JSON.stringify({ posts }),
      });
    }
    edge.log.splice(0);
    const fresh = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`n${i}`, { ...host(i), name: `n${i}` }]));
    const set = { zoneName: "example.com", records: { ...fresh, clash: host(2999) } };
    await expect(checkForEngine("edge:DnsRecordSet", {}, set)).rejects.toThrow(
      /records\.clash \(A h2999 198\.51\.11\.250\) already exists in zone example\.com .*\(81058\)/,
    );
    expect(edge.count("GET", /dns_records/)).toBe(1); // one page of 5,000
    forgetPreviewChecks();
    expect((await checkForEngine("edge:DnsRecordSet", {}, { ...set, adopt: true })).failures).toEqual([]);
  });
});
