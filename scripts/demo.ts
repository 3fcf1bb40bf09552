/**
 * `npm run demo`: the whole life of a stack against the embedded edge emulator, through the real Pulumi engine.
 * preview -> up -> outputs -> a change made out of band -> refresh reveals it -> up restores it -> destroy.
 * `npm run demo -- --keep` stops before destroy and keeps the emulator running so the stack can be explored.
 */
import * as path from "node:path";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator } from "../emulators";
import { engineStack, ROOT } from "./engine";

const keep = process.argv.includes("--keep");
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const step = (title: string) => console.log(`\n${bold(`=== ${title} ===`)}`);
/** The CLI's own output, indented; chunks arrive split anywhere, so whole lines are printed. */
let pending = "";
const echo = (out: string) => {
  const lines = (pending + out).split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) if (line.trim()) console.log(`  │ ${line}`);
};

async function main(): Promise<void> {
  const edge = await new EdgeEmulator().start();
  const engine = await engineStack(ROOT, {
    "ops:edgeBaseUrl": { value: edge.url },
    "ops:edgeApiToken": { value: DEMO_TOKEN, secret: true },
    "ops:edgeAccountId": { value: DEMO_ACCOUNT },
  }, "demo");
  const { stack, scratch } = engine;
  // A GraphQL analytics query is a POST that only reads.
  const writes = () => edge.log.filter((e) => e.method !== "GET" && !e.path.endsWith("/graphql")).length;
  console.log(`edge emulator on ${edge.url}; state in ${scratch}/state`);

  step("1. pulumi preview: what would change (no write reaches the API)");
  const preview = await stack.preview({ onOutput: echo, color: "never" });
  console.log(`→ ${JSON.stringify(preview.changeSummary)}; write requests sent: ${writes()}`);

  step("2. pulumi up: create the site (zone settings, records, page rules, firewall rule, rate limit, edge script)");
  const up = await stack.up({ onOutput: echo, color: "never" });
  console.log(`→ ${JSON.stringify(up.summary.resourceChanges)}`);

  step("3. stack outputs");
  for (const [k, v] of Object.entries(await stack.outputs())) console.log(`  ${k} = ${JSON.stringify(v.value)}`);

  step("4. someone changes the api record by hand (through the API, outside Pulumi)");
  const zone = [...edge.zones.values()].find((z) => z.name === "example.com")!;
  const api = [...zone.records.values()].find((r) => r.name === "api.example.com")!;
  const res = await fetch(`${edge.url}/client/v4/zones/${zone.id}/dns_records/${api.id}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ content: "198.51.100.99", ttl: 120 }),
  });
  console.log(`  PATCH api.example.com -> content 198.51.100.99, ttl 120: HTTP ${res.status}`);

  step("5. pulumi refresh: the drift is revealed");
  const refresh = await stack.refresh({ onOutput: echo, color: "never" });
  console.log(`→ ${JSON.stringify(refresh.summary.resourceChanges)}`);

  step("6. pulumi preview --diff, then pulumi up: the program's values are restored");
  await stack.preview({ onOutput: echo, color: "never", diff: true });
  const restore = await stack.up({ onOutput: echo, color: "never" });
  const now = zone.records.get(api.id)!;
  console.log(`→ ${JSON.stringify(restore.summary.resourceChanges)}; api.example.com is ${now.content}, ttl ${now.ttl}`);

  const byMethod = edge.log.reduce<Record<string, number>>((m, e) => ({ ...m, [e.method]: (m[e.method] ?? 0) + 1 }), {});
  if (keep) {
    step("kept: the stack and the emulator stay up (Ctrl-C to stop)");
    console.log(`  export PULUMI_BACKEND_URL=file://${scratch}/state PULUMI_CONFIG_PASSPHRASE=pulumi-ops PULUMI_HOME=${scratch}/home`);
    console.log(`  export PATH=${path.join(ROOT, "node_modules/.bin")}:${path.join(ROOT, ".tools/pulumi/bin")}:$PATH`);
    console.log(`  pulumi stack --stack demo --show-urns   # from ${ROOT}`);
    console.log(`  API requests so far: ${JSON.stringify(byMethod)}`);
    return;
  }

  step("7. pulumi destroy: nothing left behind, settings restored");
  const destroy = await stack.destroy({ onOutput: echo, color: "never" });
  const left = async (p: string) => {
    const res = await fetch(`${edge.url}/client/v4${p}`, { headers: { authorization: `Bearer ${DEMO_TOKEN}` } });
    const result = ((await res.json()) as { result: unknown[] | { rules: unknown[] } | null }).result;
    return Array.isArray(result) ? result.length : (result?.rules.length ?? 0); // a ruleset answers its rules
  };
  const phases = ["http_request_firewall_custom", "http_ratelimit"].map((p) => `/zones/${zone.id}/rulesets/phases/${p}/entrypoint`);
  const rules = (await left(`/zones/${zone.id}/pagerules`)) + (await left(phases[0])) + (await left(phases[1]));
  console.log(`→ ${JSON.stringify(destroy.summary.resourceChanges)}; left in example.com: ${zone.records.size} records, ${rules} rules, ${edge.scripts.size} scripts; ssl is back to "${zone.settings.ssl.value}"`);
  console.log(`\nAPI requests in all: ${JSON.stringify(byMethod)}`);
  await engine.dispose();
  await edge.stop();
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
