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
    const r = await make({
      name: "legacy",
      content: SERVICE_WORKER,
      compatibilityDate: "2024-09-23",
      compatibilityFlags: ["nodejs_compat"],
    });
    expect(edge.scripts.get("legacy")).toMatchObject({
      format: "service-worker",
      main: "script",
      compatibility_date: "2024-09-23",
      compatibility_flags: ["nodejs_compat"],
    });
    expect((await call(T, "read", [r.id, r.outs])).inputs).toBeUndefined();
    const later = (
      await call(T, "check", [
        {},
        { name: "legacy", content: SERVICE_WORKER, compatibilityDate: "2025-04-01", compatibilityFlags: ["nodejs_compat"] },
      ])
    ).inputs;
    expect((await call(T, "diff", [r.id, r.outs, later])).changes).toBe(true);
    await call(T, "update", [r.id, r.outs, later]);
    expect(edge.scripts.get("legacy")!.compatibility_date).toBe("2025-04-01");
    // Changed in the dashboard: refresh shows the date the service has.
    edge.scripts.get("legacy")!.compatibility_date = "2021-11-02";
    expect((await call(T, "read", [r.id, { ...r.outs, compatibilityDate: "2025-04-01" }])).inputs).toMatchObject({
      compatibilityDate: "2021-11-02",
    });
  });

  it("the service refuses module syntax sent as a service worker (10021), as it refused 0.3.0's raw upload", async () => {
    const res = await fetch(`${edge.url}/client/v4/accounts/${DEMO_ACCOUNT}/workers/scripts/raw`, {
      method: "PUT",
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}`, "content-type": "application/javascript" },
      body: MODULE,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0]).toEqual({ code: 10021, message: "Uncaught SyntaxError: Unexpected token 'export'" });
    const forced = await call(T, "check", [{}, { name: "forced", content: MODULE, format: "service-worker" }]);
    await expect(call(T, "create", [forced.inputs])).rejects.toThrow(/code 10021: Uncaught SyntaxError: Unexpected token 'export'/);
  });

  it("a script of the same name deployed elsewhere fails the preview and the up unless adopt is set", async () => {
    await make({ name: "taken", content: MODULE });
    forgetPreviewChecks();
    await expect(checkForEngine(T, {}, { name: "taken", content: SERVICE_WORKER })).rejects.toThrow(
      /an edge script named taken already exists in account \w+ .*Set `adopt: true`/,
    );
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

describe("whose a script is: the owner's label in its tags", () => {
  const as = (owner: string, args: Record<string, unknown>) => ({ ...args, __owner: owner });
  const inStack = async (owner: string, args: Record<string, unknown>) => (await call(T, "check", [{}, as(owner, args)])).inputs;

  it("a stack's script carries its tag beside tags set elsewhere; another stack is refused naming it, even with adopt; its own is taken back; a destroy leaves another stack's", async () => {
    const mine = await inStack("site/prod/web", { name: "labelled", content: MODULE });
    const made = await call(T, "create", [mine]);
    expect(edge.scripts.get("labelled")!.tags).toEqual(["pulumi-ops-stack:site/prod"]);
    expect(made.outs.__owner).toBe("site/prod/web");
    // A tag set in the dashboard is kept by the next upload.
    edge.scripts.get("labelled")!.tags.unshift("team:web");
    const later = await inStack("site/prod/web", { name: "labelled", content: SERVICE_WORKER });
    await call(T, "update", [made.id, made.outs, later]);
    expect(edge.scripts.get("labelled")!.tags).toEqual(["team:web", "pulumi-ops-stack:site/prod"]);

    const theirs = await inStack("site/staging/web", { name: "labelled", content: MODULE, adopt: true });
    forgetPreviewChecks();
    await expect(checkForEngine(T, {}, theirs)).rejects.toThrow(
      /the edge script labelled in account \w+ belongs to stack site\/prod .*ops:adoptFromStack/,
    );
    await expect(call(T, "create", [theirs])).rejects.toThrow(/belongs to stack site\/prod/);
    // A destroy by another stack (state it should not have) leaves the script.
    await call(T, "delete", [made.id, { ...made.outs, __owner: "site/staging/web" }]);
    expect(edge.scripts.has("labelled")).toBe(true);

    // The stack's own script, left behind (a destroy elsewhere, state lost): taken back with no switch.
    forgetPreviewChecks();
    const again = await inStack("site/prod/web", { name: "labelled", content: MODULE });
    expect((await checkForEngine(T, {}, again)).failures).toEqual([]);
    await call(T, "create", [again]);
    expect(edge.scripts.get("labelled")!.body).toBe(MODULE);

    // Forced for one run: taken, and tagged as the new owner's; the old owner's destroy then leaves it.
    process.env.PULUMI_OPS_ADOPT_FROM_STACK = "site/prod";
    try {
      await call(T, "create", [theirs]);
    } finally {
      delete process.env.PULUMI_OPS_ADOPT_FROM_STACK;
    }
    expect(edge.scripts.get("labelled")!.tags).toEqual(["team:web", "pulumi-ops-stack:site/staging"]);
    // The old owner's next change is refused: never uploaded over, nor labelled back.
    await expect(
      call(T, "update", [made.id, made.outs, await inStack("site/prod/web", { name: "labelled", content: SERVICE_WORKER })]),
    ).rejects.toThrow(/belongs to stack site\/staging/);
    expect(edge.scripts.get("labelled")!.body).toBe(MODULE);
    await call(T, "delete", [made.id, made.outs]);
    expect(edge.scripts.has("labelled")).toBe(true);
    await call(T, "delete", [made.id, { ...made.outs, __owner: "site/staging/web" }]);
    expect(edge.scripts.has("labelled")).toBe(false);
  });
});
