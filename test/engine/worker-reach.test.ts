/**
 * A site the edge really serves (issue 46), through the real engine on a Pro zone where another script already has a
 * route: a WorkerScript with a variable and a secret, on a route, a custom domain and workers.dev, beside a record
 * and a set of 1,000 records with tags and settings.
 * 1. preview writes nothing; up deploys, and the zone serves the script on its route, its custom domain and
 *    workers.dev; the secret is set without landing in state; the next preview shows no change;
 * 2. a new variable value uploads again, keeping a variable set in the dashboard; a new secret is set through the
 *    secrets endpoint alone;
 * 3. drift — the route pointed at the other script, the variable changed, a tag changed — is found by refresh and put
 *    back by up;
 * 4. a pattern routed to the other script is refused at preview naming it, with nothing sent;
 * 5. destroy leaves the other script's route and its variable, and takes the custom domain's record with it.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EdgeEmulator } from "../../emulators";
import { servedBy } from "../../emulators/edge/worker-routes";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";
import { everyServiceConfig } from "../helpers/every-service";
import { seedScripts } from "../helpers/type-cases";

const SECRET = "api-key-s3cret-0042";
let edge: EdgeEmulator;
let engine: EngineStack;
const zone = () => [...edge.zones.values()].find((z) => z.name === "example.com")!;
const writes = () =>
  edge.log.filter((e) => e.method !== "GET" && !e.path.startsWith("/__")).map((e) => `${e.method} ${e.path.replace(/^\/client\/v4/, "")}`);
const bindings = (script: string) =>
  edge.scripts
    .get(script)!
    .bindings.map((b) => `${b.type}:${b.name}=${b.text}`)
    .sort();
const routes = () => [...(edge.workerRoutes.get(zone().id)?.values() ?? [])];

beforeAll(async () => {
  withoutEnvFallback();
  edge = await new EdgeEmulator({ plans: { "example.com": "pro" } }).start();
  // Another script, deployed by another tool, with a route and a variable of its own.
  seedScripts(edge, ["other"]);
  edge.scripts.get("other")!.bindings.push({ type: "plain_text", name: "MODE", text: "theirs" });
  edge.workerRoutes.set(zone().id, new Map([["r-other", { id: "r-other", pattern: "example.com/other/*", script: "other" }]]));
  engine = await engineStack(path.join(ROOT, "test/programs/worker-reach"), everyServiceConfig({ edge }), "reach", {
    PULUMI_OPS_QUIET: "0",
  });
  await engine.stack.setConfig("apiKey", { value: SECRET, secret: true });
}, 300_000);

afterAll(async () => {
  await engine?.dispose();
  await edge?.stop();
});

describe("a script the zone serves, and records as the service keeps them", { timeout: 600_000 }, () => {
  it("1. preview writes nothing; up serves the script on its route, custom domain and workers.dev; no secret in state; then no change", async () => {
    edge.log.splice(0);
    await engine.stack.preview();
    expect(writes()).toEqual([]);
    await engine.stack.up();
    expect(servedBy(edge, "https://example.com/app/page")).toEqual({ script: "site", via: "route example.com/app/*" });
    expect(servedBy(edge, "https://api.example.com/v1")).toEqual({ script: "site", via: "custom domain api.example.com" });
    expect(servedBy(edge, "https://site.demo.workers.dev/").script).toBe("site");
    expect(servedBy(edge, "https://example.com/other/x").script).toBe("other");
    expect(bindings("site")).toEqual([`plain_text:GREETING=hello`, `secret_text:API_KEY=${SECRET}`]);
    const www = [...zone().records.values()].find((r) => r.name === "www.example.com")!;
    expect(www).toMatchObject({ settings: { flatten_cname: true } });
    expect(www.tags).toEqual(expect.arrayContaining(["env:prod", "team:web", "pulumi-ops-stack:worker-reach/reach"]));
    expect([...zone().records.values()].filter((r) => r.tags.includes("fleet:web"))).toHaveLength(1000);
    // At rest (every file the backend wrote) the secret is only ciphertext; decrypted (exportStack shows secrets),
    // it is the program's input alone: the script's outputs hold a digest, never the text.
    const atRest = engine.backendText();
    expect(atRest).toContain("ciphertext");
    expect(atRest).not.toContain(SECRET);
    const state = await engine.stack.exportStack();
    const script = state.deployment.resources.find((r: { type: string }) => r.type === "pulumi-nodejs:dynamic/edge:WorkerScript");
    expect(JSON.stringify(script.outputs)).not.toContain(SECRET);
    expect(script.outputs.secretNames).toEqual(["API_KEY"]);
    edge.log.splice(0);
    await engine.stack.preview({ expectNoChanges: true });
    expect(writes()).toEqual([]);
  });

  it("2. a new variable value is uploaded, keeping a variable set in the dashboard and the secret", async () => {
    edge.scripts.get("site")!.bindings.push({ type: "plain_text", name: "FROM_DASHBOARD", text: "kept" });
    await engine.stack.setConfig("greeting", { value: "bonjour" });
    edge.log.splice(0);
    await engine.stack.up();
    expect(writes()).toEqual([expect.stringMatching(/^PUT \/accounts\/\w+\/workers\/scripts\/site$/)]);
    expect(bindings("site")).toEqual(["plain_text:FROM_DASHBOARD=kept", "plain_text:GREETING=bonjour", `secret_text:API_KEY=${SECRET}`]);
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("2b. a new secret is set through the secrets endpoint: the script is not uploaded again", async () => {
    await engine.stack.setConfig("apiKey", { value: `${SECRET}-rotated`, secret: true });
    edge.log.splice(0);
    await engine.stack.up();
    expect(writes()).toEqual([expect.stringMatching(/^PUT \/accounts\/\w+\/workers\/scripts\/site\/secrets$/)]);
    expect(bindings("site")).toContain(`secret_text:API_KEY=${SECRET}-rotated`);
    expect(engine.backendText()).not.toContain(`${SECRET}-rotated`);
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("3. drift by hand — the route given to the other script, the variable changed, a tag changed — is found by refresh and put back", async () => {
    const mine = routes().find((r) => r.pattern === "example.com/app/*")!;
    mine.script = "other";
    const site = edge.scripts.get("site")!;
    site.bindings = site.bindings.map((b) => (b.name === "GREETING" ? { ...b, text: "changed by hand" } : b));
    const h5 = [...zone().records.values()].find((r) => r.name === "h5.example.com")!;
    h5.tags = h5.tags.filter((t) => t !== "fleet:web");
    const refreshed = await engine.stack.refresh();
    expect(refreshed.summary.resourceChanges?.update).toBe(3);
    await engine.stack.up();
    expect(servedBy(edge, "https://example.com/app/page").script).toBe("site");
    expect(bindings("site")).toContain("plain_text:GREETING=bonjour");
    expect(bindings("site")).toContain("plain_text:FROM_DASHBOARD=kept");
    expect([...zone().records.values()].find((r) => r.name === "h5.example.com")!.tags).toEqual(
      expect.arrayContaining(["index:5", "fleet:web"]),
    );
    await engine.stack.preview({ expectNoChanges: true });
  });

  it("4. a pattern the other script is routed on is refused at preview, naming that script; nothing is sent", async () => {
    await engine.stack.setConfig("takePattern", { value: "example.com/other/*" });
    edge.log.splice(0);
    const failed = await engine.stack.preview().catch((e: Error) => e);
    expect(String(failed)).toMatch(
      /the pattern example\.com\/other\/\* of zone example\.com is routed already, to the script other .*adopt: true/,
    );
    expect(writes()).toEqual([]);
    await engine.stack.removeConfig("takePattern");
  });

  it("5. destroy removes what the stack made and leaves the other script, its route and its variable", async () => {
    await engine.stack.destroy();
    expect(edge.scripts.has("site")).toBe(false);
    expect(routes().map((r) => `${r.pattern} ${r.script}`)).toEqual(["example.com/other/* other"]);
    expect(edge.scripts.get("other")!.bindings).toEqual([{ type: "plain_text", name: "MODE", text: "theirs" }]);
    expect([...edge.domains.values()]).toEqual([]);
    expect([...zone().records.values()].filter((r) => r.name === "api.example.com" || r.tags.includes("fleet:web"))).toEqual([]);
  });
});
