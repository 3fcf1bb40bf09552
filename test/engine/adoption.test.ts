/**
 * One object, one owner, through the real engine (issue 43): records of one type and name (two MX, a round-robin A
 * pair, two TXT, two CAA), all `adopt: true` as `pulumi-ops import` writes them —
 * - applied to an empty zone: eight records, eight ids (the second of a pair never takes the record the first made);
 * - applied by a new stack to the zone that holds them: each taken exactly once, said at preview, 0 writes;
 * - an up killed halfway and run again: every record present, no id held twice;
 * and two stacks declaring one skill, or one record of a paid zone and one edge script (the second refused naming the
 * first; a stack that lost them takes its own back with no switch; ops:adoptFromStack moves them and the old owner's
 * destroy leaves them), or one model (the adopting one told it may be another's; its destroy leaves it; a takeover naming the other stack
 * refused until that stack lets go, so its destroy cannot delete what the taker holds).
 */
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator, RunnerEmulator, SKILLS_PUBLISH_TOKEN, SkillsEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { settled, withoutEnvFallback, type EngineStack } from "../helpers/engine";

const PROGRAM = path.join(ROOT, "test/programs/adoption");
let edge: EdgeEmulator, skills: SkillsEmulator, runner: RunnerEmulator;
const engines: EngineStack[] = [];

const zone = () => [...edge.zones.values()].find((z) => z.name === "example.org")!;
const recordsThere = () => [...zone().records.values()];
const EIGHT = [
  "A 203.0.113.1",
  "A 203.0.113.2",
  'CAA 0 iodef "mailto:security@example.org"',
  'CAA 0 issue "letsencrypt.org"',
  "MX mx1.example.net",
  "MX mx2.example.net",
  "TXT site-verification=abc123",
  "TXT v=spf1 include:example.net -all",
];
const contents = () =>
  recordsThere()
    .map((r) => `${r.type} ${r.content}`)
    .sort();
const writes = () =>
  [edge, skills, runner].flatMap((e) =>
    e.log.filter((l) => !["GET", "HEAD"].includes(l.method) && !l.path.startsWith("/__")).map((l) => `${e.name} ${l.method} ${l.path}`),
  );
const mark = () => [edge, skills, runner].forEach((e) => e.log.splice(0));

async function stack(name: string, config: Record<string, string> = {}): Promise<EngineStack> {
  const engine = await engineStack(
    PROGRAM,
    {
      "ops:edgeBaseUrl": { value: edge.url },
      "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
      "ops:edgeAccountId": { value: DEMO_ACCOUNT },
      "ops:skillsUrl": { value: skills.url },
      "ops:skillsToken": { value: SKILLS_PUBLISH_TOKEN, secret: true },
      "ops:runnerHost": { value: runner.url },
      ...Object.fromEntries(Object.entries(config).map(([k, v]) => [`adoption:${k}`, { value: v }])),
    },
    name,
    { PULUMI_OPS_QUIET: "0" },
    "?metadata=skip",
  ); // the notices are the point; a killed up cannot leave the stack unreadable (docs/reliability.md)
  engines.push(engine);
  return engine;
}

/** The record ids the stack's state holds, by resource. */
async function idsInState(engine: EngineStack): Promise<string[]> {
  const state = await engine.stack.exportStack();
  return state.deployment.resources.filter((r: { type: string }) => r.type.endsWith(":DnsRecord")).map((r: { id: string }) => r.id);
}

beforeAll(async () => {
  withoutEnvFallback();
  [edge, skills, runner] = await Promise.all([
    new EdgeEmulator({ plans: { "example.com": "pro" } }).start(),
    new SkillsEmulator({ publishToken: SKILLS_PUBLISH_TOKEN }).start(),
    new RunnerEmulator({ pullStepMs: 5 }).start(),
  ]);
}, 120_000);

afterAll(async () => {
  for (const e of engines) await e.dispose();
  await Promise.all([edge, skills, runner].map((e) => e?.stop()));
});

describe("records of one type and name, all adopting", { timeout: 300_000 }, () => {
  let first: string[];

  it("applied to an empty zone: eight records with eight distinct ids", async () => {
    expect(recordsThere()).toEqual([]);
    const a = await stack("records-a");
    const up = await a.stack.up();
    first = (up.outputs.recordIds.value as string[]).slice().sort();
    expect(new Set(first).size).toBe(8);
    expect(contents(), JSON.stringify(contents())).toEqual(EIGHT);
    expect(
      recordsThere()
        .map((r) => r.id)
        .sort(),
    ).toEqual(first);
  });

  it("applied by a new stack to the zone that holds them: the preview says what it adopts, the up takes each once with 0 writes", async () => {
    const b = await stack("records-b");
    mark();
    let said = "";
    await b.stack.preview({ onOutput: (o) => (said += o) });
    expect(said).toMatch(
      /will adopt MX record @ \(mx1\.example\.net 10\) \(already in zone example\.org\): nothing is made|will adopt .*mx1\.example\.net/,
    );
    expect(new Set(said.match(/will adopt [^\n]*/g))).toHaveProperty("size", 8); // one each (the CLI repeats them under Diagnostics)
    expect(said).not.toMatch(/warning: .*adopt/);
    expect(writes()).toEqual([]);
    const up = await b.stack.up();
    expect((up.outputs.recordIds.value as string[]).slice().sort()).toEqual(first);
    expect(writes()).toEqual([]);
    expect(contents()).toEqual(EIGHT);
    await b.stack.preview({ expectNoChanges: true });
  });

  it("an up killed halfway and run again: every record present, no id held twice", async () => {
    for (const id of [...zone().records.keys()]) zone().records.delete(id);
    const c = await stack("records-c");
    // Each create answered after a second, so the kill lands with some records made and some not.
    edge.inject({ match: { method: "POST", path: "dns_records$" }, count: 8, kind: "slow", ms: 1000 });
    const cli = spawn(c.cli.command, ["up", "--yes", "--skip-preview", "--non-interactive", "--parallel", "2", "--stack", "records-c"], {
      cwd: c.cli.cwd,
      env: c.cli.env,
      stdio: "ignore",
    });
    const exited = new Promise<void>((resolve) => cli.on("exit", () => resolve()));
    const stop = edge.onRequest(() => {
      if (recordsThere().length >= 3) {
        process.kill(cli.pid!, "SIGKILL");
        stop();
      }
    });
    await exited;
    await settled(c, [edge]); // past the slowed answers: the providers have stopped
    const partly = recordsThere().length;
    expect(partly).toBeGreaterThanOrEqual(3);
    expect(partly).toBeLessThan(8);
    edge.clearFaults();
    await c.stack.cancel().catch(() => undefined);
    await c.stack.up().catch((e: Error) => {
      throw new Error(String(e).slice(0, 3000));
    });
    expect(contents()).toEqual(EIGHT);
    const ids = await idsInState(c);
    expect(ids).toHaveLength(8);
    expect(new Set(ids).size).toBe(8);
    expect(ids.slice().sort()).toEqual(
      recordsThere()
        .map((r) => r.id)
        .sort(),
    );
  });
});

describe("a page rule made in the dashboard, in the service's key order (issue 57)", { timeout: 300_000 }, () => {
  it("taken over with the program's {status_code, url}: the preview says nothing changes, the up sends nothing, the next preview has no change", async () => {
    const zoneId = zone().id;
    const made = await fetch(`${edge.url}/client/v4/zones/${zoneId}/pagerules`, {
      method: "POST",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        targets: [{ target: "url", constraint: { operator: "matches", value: "example.org/shop/*" } }],
        actions: [{ id: "forwarding_url", value: { status_code: 301, url: "https://shop.example.net/$1" } }],
        status: "active",
        priority: 1,
      }),
    });
    expect(made.ok).toBe(true);
    edge.reverseKeys = true; // the service's order: {url, status_code}
    try {
      const s = await stack("page-rule", { records: "false", pageRule: "true" });
      mark();
      let said = "";
      await s.stack.preview({ onOutput: (o) => (said += o) });
      expect(said).toMatch(
        /PageRule for example\.org\/shop\/\* will adopt the existing page rule \(id \w+\) in example\.org: nothing to change/,
      );
      await s.stack.up();
      expect(writes()).toEqual([]);
      await s.stack.preview({ expectNoChanges: true, refresh: true });
      expect(writes()).toEqual([]);
    } finally {
      edge.reverseKeys = false;
    }
  });
});

describe("two stacks and one skill or model", { timeout: 300_000 }, () => {
  it("the second stack declaring a skill is refused naming the first, even with adopt; a stack destroyed and applied again takes its own back", async () => {
    const first = await stack("skills-one", { records: "false", skill: "host-care" });
    await first.stack.up();
    expect(skills.skills.get("host-care")!.metadata).toMatchObject({
      "pulumi-ops-stack": "adoption/skills-one",
      "pulumi-ops-resource": "host-care",
    });
    const second = await stack("skills-two", { records: "false", skill: "host-care", adopt: "true" });
    mark();
    await expect(second.stack.preview()).rejects.toThrow(/skill "host-care" belongs to stack adoption\/skills-one \(resource host-care\)/);
    expect(writes()).toEqual([]);
    // The registry has no delete: the first stack's destroy leaves its skill published, released (issue 57: the
    // label of a stack that let go blocks no other), and its next up takes it back, restoring its label.
    await first.stack.destroy();
    expect(skills.skills.has("host-care")).toBe(true);
    expect(skills.skills.get("host-care")!.metadata).toMatchObject({ "pulumi-ops-released-by": "adoption/skills-one" });
    mark();
    const again = await first.stack.up();
    expect(again.summary.resourceChanges?.create).toBe(2); // the skill and the stack
    expect(writes()).toEqual(["skills PUT /api/skills/host-care"]); // its own: only its label put back
    expect(skills.skills.get("host-care")!.metadata).toMatchObject({ "pulumi-ops-stack": "adoption/skills-one" });
    await expect(second.stack.preview()).rejects.toThrow(/belongs to stack adoption\/skills-one/);
  });

  it("one record of a paid zone and one edge script: labelled by the first stack, refused to the second naming it; taken back after a state loss with no switch; moved by ops:adoptFromStack, and the old owner's destroy leaves them", async () => {
    const paid = () => [...[...edge.zones.values()].find((z) => z.name === "example.com")!.records.values()].filter((r) => r.type === "MX");
    const first = await stack("edge-one", { records: "false", edgeOwner: "greeter" });
    await first.stack.up();
    expect(paid().map((r) => r.tags)).toEqual([["pulumi-ops-stack:adoption/edge-one"]]);
    expect(edge.scripts.get("greeter")!.tags).toEqual(["pulumi-ops-stack:adoption/edge-one"]);
    const second = await stack("edge-two", { records: "false", edgeOwner: "greeter", adopt: "true" });
    mark();
    await expect(second.stack.preview()).rejects.toThrow(/belongs to stack adoption\/edge-one \(its tag pulumi-ops-stack\)/);
    expect(writes()).toEqual([]);
    // The first stack loses them from its state (pulumi state delete): its next up takes its own back, sending nothing.
    const state = await first.stack.exportStack();
    const urns = state.deployment.resources
      .filter((r: { type: string }) => /:(DnsRecord|WorkerScript)$/.test(r.type))
      .map((r: { urn: string }) => r.urn);
    for (const urn of urns)
      await promisify(execFile)(first.cli.command, ["state", "delete", urn, "--yes", "--stack", "edge-one"], {
        cwd: first.cli.cwd,
        env: first.cli.env,
      });
    mark();
    let said = "";
    await first.stack.up({ onOutput: (o) => (said += o) });
    expect(said).toMatch(/is this stack's own \(its tag\): taken back/);
    expect(said).toMatch(/the script greeter is this stack's own/);
    expect(said).toMatch(/the script greeter is deployed already as the program says; nothing sent/);
    expect(writes()).toEqual([`edge POST /client/v4/zones/${paid()[0].zone_id}/dns_records`]); // the record's create, refused (81058): then its own is found
    // Moved for one run: the second stack takes both and tags them; the first's destroy leaves them.
    await second.stack.setConfig("ops:adoptFromStack", { value: "adoption/edge-one" });
    await second.stack.up();
    await second.stack.removeConfig("ops:adoptFromStack");
    expect(paid().map((r) => r.tags)).toEqual([["pulumi-ops-stack:adoption/edge-two"]]);
    expect(edge.scripts.get("greeter")!.tags).toEqual(["pulumi-ops-stack:adoption/edge-two"]);
    await first.stack.destroy();
    expect(paid()).toHaveLength(1);
    expect(edge.scripts.has("greeter")).toBe(true);
    await second.stack.destroy();
    expect(paid()).toHaveLength(0);
    expect(edge.scripts.has("greeter")).toBe(false);
  });

  it("a model another stack made is refused without adopt; with it, the preview says it may be another's, and its destroy leaves it; taken from that stack by name, refused until it lets go", async () => {
    const first = await stack("model-one", { records: "false", model: "tinyllama" });
    await first.stack.up();
    const second = await stack("model-two", { records: "false", model: "tinyllama" });
    await expect(second.stack.preview()).rejects.toThrow(/already has a model tinyllama:latest .*adopt: true/);
    await second.stack.setConfig("adoption:adopt", { value: "true" });
    let said = "";
    await second.stack.preview({ onOutput: (o) => (said += o) });
    expect(said).toMatch(
      /RunnerModel tinyllama:latest will adopt the model already on the runner; the runner keeps no owner, so it may be another stack's: destroy will leave it there\. If a stack declares it, that stack.s destroy would still delete it: let go of it there first \(`pulumi state delete <its URN>`/,
    );
    await second.stack.up();
    await second.stack.destroy();
    expect(runner.models.has("tinyllama:latest")).toBe(true);
    await first.stack.preview({ expectNoChanges: true });
    // Taken from the first stack by name (ops:adoptFromStack): refused, as the runner keeps no label the takeover
    // could move and the first stack's destroy would still delete it; the message says how that stack lets go.
    await second.stack.setConfig("ops:adoptFromStack", { value: "adoption/model-one" });
    mark();
    await expect(second.stack.preview()).rejects.toThrow(
      /tinyllama:latest is on the runner and ops:adoptFromStack says it is stack adoption\/model-one's; the runner keeps no owner label.*pulumi state delete <its RunnerModel's URN> --stack model-one/s,
    );
    await expect(second.stack.up()).rejects.toThrow(/ops:adoptFromStack says it is stack adoption\/model-one's/);
    expect(writes()).toEqual([]);
    await second.stack.removeConfig("ops:adoptFromStack");
    // The first stack lets go as told; the second takes it; the first's destroy then leaves it, so one owner is left.
    const urn = (await first.stack.exportStack()).deployment.resources.find((r: { type: string }) => r.type.endsWith(":RunnerModel")).urn;
    await promisify(execFile)(first.cli.command, ["state", "delete", urn, "--yes", "--stack", "model-one"], {
      cwd: first.cli.cwd,
      env: first.cli.env,
    });
    await second.stack.up();
    await first.stack.destroy();
    expect(runner.models.has("tinyllama:latest")).toBe(true);
    await second.stack.preview({ expectNoChanges: true, refresh: true });
    await second.stack.destroy();
    expect(runner.models.has("tinyllama:latest")).toBe(true); // taken over with adopt: given back as it was, on the runner
  });
});
