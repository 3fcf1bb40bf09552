/**
 * How a script is reached (issue 46): WorkerRoute and WorkerDomain through check, preview, create, read, update and
 * delete against the emulator, which answers which script a request reaches (`servedBy`); and WorkerScript's
 * variables, secrets and workers.dev endpoint, with what was set elsewhere kept.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { forgetPreviewChecks, previewCheck } from "../../provider/preflight";
import { servedBy } from "../../emulators/edge/worker-routes";
import { useEdge } from "../helpers/edge";

const edge = useEdge();
const MODULE = "export default {\n  async fetch() {\n    return new Response('hello');\n  },\n};\n";

async function make(type: string, args: Record<string, unknown>) {
  const { inputs, failures } = await call(type, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(type, "create", [inputs])) };
}
const checked = async (type: string, args: Record<string, unknown>) => (await call(type, "check", [{}, args])).inputs;
const zoneOf = (name: string) => [...edge.zones.values()].find((z) => z.name === name)!;

describe("WorkerRoute", () => {
  it("puts a script on a pattern: served there, no drift, moved in place, drift restored, destroy leaves other routes", async () => {
    await make("edge:WorkerScript", { name: "site", content: MODULE });
    await make("edge:WorkerScript", { name: "other", content: MODULE });
    const zone = zoneOf("example.com");
    edge.workerRoutes.set(zone.id, new Map([["keep", { id: "keep", pattern: "example.com/other/*", script: "other" }]]));
    const r = await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/app/*", script: "site" });
    expect(servedBy(edge, "https://example.com/app/x")).toEqual({ script: "site", via: "route example.com/app/*" });
    expect(servedBy(edge, "https://example.com/other/x").script).toBe("other");
    const read = await call("edge:WorkerRoute", "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call("edge:WorkerRoute", "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
    // A pattern change is an update in place (same route id).
    const moved = await checked("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/site/*", script: "site" });
    const d = await call("edge:WorkerRoute", "diff", [r.id, r.outs, moved]);
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const up = await call("edge:WorkerRoute", "update", [r.id, r.outs, moved]);
    expect(up.outs.routeId).toBe(r.outs.routeId);
    expect(servedBy(edge, "https://example.com/site/a").script).toBe("site");
    // Pointed at another script by hand: refresh shows it, and the program's update puts it back.
    edge.workerRoutes.get(zone.id)!.get(r.outs.routeId)!.script = "other";
    const drift = await call("edge:WorkerRoute", "read", [r.id, up.outs]);
    expect(drift.inputs).toMatchObject({ script: "other", pattern: "example.com/site/*" });
    expect((await call("edge:WorkerRoute", "diff", [r.id, drift.props, moved])).changes).toBe(true);
    await call("edge:WorkerRoute", "update", [r.id, drift.props, moved]);
    expect(servedBy(edge, "https://example.com/site/a").script).toBe("site");
    await call("edge:WorkerRoute", "delete", [r.id, up.outs]);
    expect([...edge.workerRoutes.get(zone.id)!.values()].map((x) => x.pattern)).toEqual(["example.com/other/*"]);
  });

  it("a pattern routed to another script is refused at preview naming it, and taken over with adopt", async () => {
    await make("edge:WorkerScript", { name: "site", content: MODULE });
    await make("edge:WorkerScript", { name: "theirs", content: MODULE });
    const zone = zoneOf("example.com");
    edge.workerRoutes.set(zone.id, new Map([["r1", { id: "r1", pattern: "example.com/*", script: "theirs" }]]));
    forgetPreviewChecks();
    const inputs = await checked("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/*", script: "site" });
    await expect(previewCheck("edge:WorkerRoute", undefined, inputs, {})).rejects.toThrow(
      /example\.com\/\* of zone example\.com is routed already, to the script theirs/,
    );
    await expect(call("edge:WorkerRoute", "create", [inputs])).rejects.toThrow(/10020|already/);
    const adopting = await checked("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/*", script: "site", adopt: true });
    forgetPreviewChecks();
    await previewCheck("edge:WorkerRoute", undefined, adopting, {});
    const r = await call("edge:WorkerRoute", "create", [adopting]);
    expect(r.outs.routeId).toBe("r1");
    expect(servedBy(edge, "example.com/x").script).toBe("site");
  });

  it("a pattern moved onto one another route holds: refused without adopt, that route taken over with it", async () => {
    await make("edge:WorkerScript", { name: "site", content: MODULE });
    await make("edge:WorkerScript", { name: "other", content: MODULE });
    const zone = zoneOf("example.com");
    const r = await make("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/a/*", script: "site" });
    edge.workerRoutes.get(zone.id)!.set("held", { id: "held", pattern: "example.com/b/*", script: "other" });
    const moved = await checked("edge:WorkerRoute", { zoneName: "example.com", pattern: "example.com/b/*", script: "site" });
    await expect(call("edge:WorkerRoute", "update", [r.id, r.outs, moved])).rejects.toThrow(/routed already, to the script other/);
    const adopting = await checked("edge:WorkerRoute", {
      zoneName: "example.com",
      pattern: "example.com/b/*",
      script: "site",
      adopt: true,
    });
    const up = await call("edge:WorkerRoute", "update", [r.id, r.outs, adopting]);
    expect(up.outs.routeId).toBe("held");
    expect([...edge.workerRoutes.get(zone.id)!.values()]).toEqual([{ id: "held", pattern: "example.com/b/*", script: "site" }]);
    // Read and destroy follow the route it took over.
    expect((await call("edge:WorkerRoute", "read", [r.id, up.outs])).props.routeId).toBe("held");
    await call("edge:WorkerRoute", "delete", [r.id, up.outs]);
    expect(edge.workerRoutes.get(zone.id)!.size).toBe(0);
  });

  it("check refuses what the service refuses: a query string, an infix wildcard, a host outside the zone", async () => {
    for (const [pattern, words] of [
      ["example.com/a?b=1", /query string/],
      ["example.com/*.jpg", /wildcard inside/],
      ["example.org/*", /outside the zone/],
    ] as const) {
      const { failures } = await call("edge:WorkerRoute", "check", [{}, { zoneName: "example.com", pattern, script: "site" }]);
      expect(failures.map((f: { property: string; reason: string }) => `${f.property}: ${f.reason}`).join("; ")).toMatch(words);
    }
  });
});

describe("WorkerDomain", () => {
  it("serves a host name with the record the service makes; DNS records of that name are refused at preview; destroy removes it", async () => {
    await make("edge:WorkerScript", { name: "api", content: MODULE });
    const r = await make("edge:WorkerDomain", { zoneName: "example.com", hostname: "api.example.com", script: "api" });
    expect(servedBy(edge, "https://api.example.com/v1")).toEqual({ script: "api", via: "custom domain api.example.com" });
    const zone = zoneOf("example.com");
    const made = [...zone.records.values()].filter((x) => x.name === "api.example.com");
    expect(made).toMatchObject([{ type: "AAAA", content: "100::", meta: { read_only: true } }]);
    expect((await call("edge:WorkerDomain", "read", [r.id, r.outs])).inputs).toBeUndefined();
    // A record at that name: refused at preview, with the reason.
    forgetPreviewChecks();
    const rec = await checked("edge:DnsRecord", { zoneName: "example.com", type: "A", name: "api", content: "203.0.113.9" });
    await expect(previewCheck("edge:DnsRecord", undefined, rec, {})).rejects.toThrow(/custom domain.*read-only/);
    await call("edge:WorkerDomain", "delete", [r.id, r.outs]);
    expect([...zone.records.values()].filter((x) => x.name === "api.example.com")).toEqual([]);
    expect(servedBy(edge, "https://api.example.com/v1")).toEqual({});
  });

  it("a host with address records of its own is refused at preview (the service answers 100117); a TXT beside a custom domain is not", async () => {
    await make("edge:WorkerScript", { name: "api", content: MODULE });
    await make("edge:DnsRecord", { zoneName: "example.com", type: "A", name: "legacy", content: "203.0.113.9" });
    forgetPreviewChecks();
    const inputs = await checked("edge:WorkerDomain", { zoneName: "example.com", hostname: "legacy.example.com", script: "api" });
    await expect(previewCheck("edge:WorkerDomain", undefined, inputs, {})).rejects.toThrow(
      /legacy\.example\.com has DNS records of its own \(A 203\.0\.113\.9.*100117/,
    );
    await make("edge:WorkerDomain", { zoneName: "example.com", hostname: "api.example.com", script: "api" });
    forgetPreviewChecks();
    const txt = await checked("edge:DnsRecord", { zoneName: "example.com", type: "TXT", name: "api", content: "verification=1" });
    await previewCheck("edge:DnsRecord", undefined, txt, {});
  });

  it("a host another script serves is refused at preview naming it; adopt moves it", async () => {
    await make("edge:WorkerScript", { name: "api", content: MODULE });
    await make("edge:WorkerScript", { name: "old", content: MODULE });
    await make("edge:WorkerDomain", { zoneName: "example.com", hostname: "api.example.com", script: "old" });
    forgetPreviewChecks();
    const inputs = await checked("edge:WorkerDomain", { zoneName: "example.com", hostname: "api.example.com", script: "api" });
    await expect(previewCheck("edge:WorkerDomain", undefined, inputs, {})).rejects.toThrow(/served by the script old/);
    await expect(call("edge:WorkerDomain", "create", [inputs])).rejects.toThrow(/served by the script old/);
    const adopting = await checked("edge:WorkerDomain", {
      zoneName: "example.com",
      hostname: "api.example.com",
      script: "api",
      adopt: true,
    });
    await call("edge:WorkerDomain", "create", [adopting]);
    expect(servedBy(edge, "api.example.com").script).toBe("api");
  });
});

describe("WorkerScript's variables, secrets and workers.dev", () => {
  it("sends vars and secrets, keeps those set elsewhere, changes a secret without an upload, and finds drift", async () => {
    const args = { name: "site", content: MODULE, vars: { GREETING: "hi" }, secrets: { API_KEY: "s3cret-1" }, workersDev: true };
    const r = await make("edge:WorkerScript", args);
    const s = edge.scripts.get("site")!;
    expect(s.bindings).toEqual(
      expect.arrayContaining([
        { type: "plain_text", name: "GREETING", text: "hi" },
        { type: "secret_text", name: "API_KEY", text: "s3cret-1" },
      ]),
    );
    expect(s.subdomain.enabled).toBe(true);
    expect(JSON.stringify(r.outs)).not.toContain("s3cret-1");
    expect(r.outs).toMatchObject({ vars: { GREETING: "hi" }, secretNames: ["API_KEY"], workersDev: true });
    expect(servedBy(edge, "https://site.demo.workers.dev/").script).toBe("site");
    // Set in the dashboard: a variable and a secret of other names.
    s.bindings.push({ type: "plain_text", name: "FROM_DASHBOARD", text: "kept" }, { type: "secret_text", name: "DASH_SECRET", text: "x" });
    expect((await call("edge:WorkerScript", "read", [r.id, r.outs])).inputs).toBeUndefined();
    // A changed var uploads again, keeping the dashboard's variable and both secrets.
    const v2 = await checked("edge:WorkerScript", { ...args, vars: { GREETING: "hello" } });
    expect((await call("edge:WorkerScript", "diff", [r.id, r.outs, v2])).changes).toBe(true);
    const u = await call("edge:WorkerScript", "update", [r.id, r.outs, v2]);
    const names = () =>
      edge.scripts
        .get("site")!
        .bindings.map((b) => `${b.type}:${b.name}=${b.text}`)
        .sort();
    expect(names()).toEqual([
      "plain_text:FROM_DASHBOARD=kept",
      "plain_text:GREETING=hello",
      "secret_text:API_KEY=s3cret-1",
      "secret_text:DASH_SECRET=x",
    ]);
    // A changed secret: no upload, only the secrets endpoint.
    edge.log.splice(0);
    const v3 = await checked("edge:WorkerScript", { ...args, vars: { GREETING: "hello" }, secrets: { API_KEY: "s3cret-2" } });
    expect((await call("edge:WorkerScript", "diff", [r.id, u.outs, v3])).changes).toBe(true);
    const u3 = await call("edge:WorkerScript", "update", [r.id, u.outs, v3]);
    expect(edge.log.map((l) => `${l.method} ${l.path.replace(/.*\/scripts\//, "")}`).filter((l) => !l.startsWith("GET"))).toEqual([
      "PUT site/secrets",
    ]);
    expect(names()).toContain("secret_text:API_KEY=s3cret-2");
    // Drift: the variable changed by hand, the secret deleted by hand, workers.dev turned off.
    const st = edge.scripts.get("site")!;
    st.bindings = st.bindings.map((b) => (b.name === "GREETING" ? { ...b, text: "changed" } : b)).filter((b) => b.name !== "API_KEY");
    st.subdomain.enabled = false;
    const drift = await call("edge:WorkerScript", "read", [r.id, u3.outs]);
    expect(drift.inputs).toMatchObject({ vars: { GREETING: "changed" }, workersDev: false });
    expect((await call("edge:WorkerScript", "diff", [r.id, drift.props, v3])).changes).toBe(true);
    await call("edge:WorkerScript", "update", [r.id, drift.props, v3]);
    expect(names()).toEqual([
      "plain_text:FROM_DASHBOARD=kept",
      "plain_text:GREETING=hello",
      "secret_text:API_KEY=s3cret-2",
      "secret_text:DASH_SECRET=x",
    ]);
    expect(edge.scripts.get("site")!.subdomain.enabled).toBe(true);
    // Removing a variable and the secret from the program removes those, and only those.
    const v4 = await checked("edge:WorkerScript", { name: "site", content: MODULE, vars: {}, secrets: {} });
    await call("edge:WorkerScript", "update", [r.id, u3.outs, v4]);
    expect(names()).toEqual(["plain_text:FROM_DASHBOARD=kept", "secret_text:DASH_SECRET=x"]);
  });

  it("a secret moved into vars: the secret goes before the upload, so one name is one binding", async () => {
    const r = await make("edge:WorkerScript", { name: "site", content: MODULE, secrets: { TOKEN: "t0" } });
    const next = await checked("edge:WorkerScript", { name: "site", content: MODULE, vars: { TOKEN: "plain" } });
    await call("edge:WorkerScript", "update", [r.id, r.outs, next]);
    expect(edge.scripts.get("site")!.bindings).toEqual([{ type: "plain_text", name: "TOKEN", text: "plain" }]);
  });

  it("check refuses a name that is both a variable and a secret, and preview URLs without workers.dev", async () => {
    const a = await call("edge:WorkerScript", "check", [{}, { name: "x", content: MODULE, vars: { K: "1" }, secrets: { K: "2" } }]);
    expect(a.failures[0]).toMatchObject({ property: "secrets" });
    const b = await call("edge:WorkerScript", "check", [{}, { name: "x", content: MODULE, workersDev: false, previewUrls: true }]);
    expect(b.failures[0]).toMatchObject({ property: "previewUrls" });
  });
});
