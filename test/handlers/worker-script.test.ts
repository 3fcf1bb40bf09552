/**
 * WorkerScript as the service takes scripts today: module syntax (`export default { fetch }`) and service-worker
 * syntax, each uploaded as multipart with its metadata (main_module or body_part, a compatibility date), read back
 * without false drift, and a script of the same name deployed elsewhere taken over only with adopt.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNT } from "../../emulators";
import { call, checkForEngine } from "../../provider/door";
import { DEFAULT_COMPATIBILITY_DATE } from "../../provider/edge/worker-script/schema";
import { forgetPreviewChecks } from "../../provider/preflight";
import { useEdge } from "../helpers/edge";

const edge = useEdge();
const T = "edge:WorkerScript";
const MODULE = "export default {\n  async fetch(request) {\n    return new Response('hello');\n  },\n};\n";
const SERVICE_WORKER = "addEventListener('fetch', (event) => event.respondWith(new Response('hello')));\n";

async function make(args: Record<string, unknown>) {
  const { inputs, failures } = await call(T, "check", [{}, args]);
  expect(failures).toEqual([]);
  return { inputs, ...(await call(T, "create", [inputs])) };
}

describe("edge scripts as the service takes them", () => {
  it("a module goes as multipart with main_module and the default compatibility date; no drift after", async () => {
    const r = await make({ name: "site", content: MODULE });
    const stored = edge.scripts.get("site")!;
    expect(stored).toMatchObject({ format: "module", main: "worker.js", compatibility_date: DEFAULT_COMPATIBILITY_DATE, body: MODULE });
    expect(stored.parts).toEqual([{ name: "worker.js", type: "application/javascript+module", text: MODULE }]);
    expect(r.outs).toMatchObject({ format: "module", compatibilityDate: DEFAULT_COMPATIBILITY_DATE });
    const read = await call(T, "read", [r.id, r.outs]);
    expect(read.inputs).toBeUndefined();
    expect((await call(T, "diff", [r.id, read.props, r.inputs])).changes).toBe(false);
  });

  it("a service worker goes with body_part; a compatibility date or flag changed is an update", async () => {
    const r = await make({ name: "legacy", content: SERVICE_WORKER, compatibilityDate: "2024-09-23", compatibilityFlags: ["nodejs_compat"] });
    expect(edge.scripts.get("legacy")).toMatchObject({ format: "service-worker", main: "script", compatibility_date: "2024-09-23", compatibility_flags: ["nodejs_compat"] });
    expect((await call(T, "read", [r.id, r.outs])).inputs).toBeUndefined();
    const later = (await call(T, "check", [{}, { name: "legacy", content: SERVICE_WORKER, compatibilityDate: "2025-04-01", compatibilityFlags: ["nodejs_compat"] }])).inputs;
    expect((await call(T, "diff", [r.id, r.outs, later])).changes).toBe(true);
    await call(T, "update", [r.id, r.outs, later]);
    expect(edge.scripts.get("legacy")!.compatibility_date).toBe("2025-04-01");
    // Changed in the dashboard: refresh shows the date the service has.
    edge.scripts.get("legacy")!.compatibility_date = "2021-11-02";
    expect((await call(T, "read", [r.id, { ...r.outs, compatibilityDate: "2025-04-01" }])).inputs).toMatchObject({ compatibilityDate: "2021-11-02" });
  });

  it("the service refuses module syntax sent as a service worker (10021), as it refused 0.3.0's raw upload", async () => {
    const res = await fetch(`${edge.url}/client/v4/accounts/${DEMO_ACCOUNT}/workers/scripts/raw`, { method: "PUT", headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/javascript" }, body: MODULE });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0]).toEqual({ code: 10021, message: "Uncaught SyntaxError: Unexpected token 'export'" });
    const forced = await call(T, "check", [{}, { name: "forced", content: MODULE, format: "service-worker" }]);
    await expect(call(T, "create", [forced.inputs])).rejects.toThrow(/code 10021: Uncaught SyntaxError: Unexpected token 'export'/);
  });

  it("a script of the same name deployed elsewhere fails the preview and the up unless adopt is set", async () => {
    await make({ name: "taken", content: MODULE });
    forgetPreviewChecks();
    await expect(checkForEngine(T, {}, { name: "taken", content: SERVICE_WORKER })).rejects.toThrow(/an edge script named taken already exists in account \w+ .*Set `adopt: true`/);
    const { inputs } = await call(T, "check", [{}, { name: "taken", content: SERVICE_WORKER }]);
    await expect(call(T, "create", [inputs])).rejects.toThrow(/already exists/);
    expect(edge.scripts.get("taken")!.body).toBe(MODULE);
    forgetPreviewChecks();
    expect((await checkForEngine(T, {}, { name: "taken", content: SERVICE_WORKER, adopt: true })).failures).toEqual([]);
    await make({ name: "taken", content: SERVICE_WORKER, adopt: true });
    expect(edge.scripts.get("taken")!.body).toBe(SERVICE_WORKER);
  });
});

describe("reviewable changes", () => {
  it("a script from a file keeps its text in the inputs (preview --diff shows its changed lines) but not in the outputs; a file over 64 KiB keeps only its hash", async () => {
    const { mkdtempSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const dir = mkdtempSync(path.join(tmpdir(), "script-"));
    writeFileSync(path.join(dir, "worker.js"), MODULE);
    const r = await make({ name: "from-file", source: path.join(dir, "worker.js") });
    expect(r.inputs.sourceText).toBe(MODULE);
    expect(r.outs.sourceText).toBeUndefined();
    writeFileSync(path.join(dir, "big.js"), `${MODULE}// ${"x".repeat(70_000)}\n`);
    const big = (await call(T, "check", [{}, { name: "big", source: path.join(dir, "big.js") }])).inputs;
    expect(big.sourceText).toBeUndefined();
    expect(big.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await call(T, "check", [{}, { name: "inline", content: MODULE }])).inputs.sourceText).toBeUndefined();
  });
});
