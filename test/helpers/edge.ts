/** Starts the edge emulator in-process and points the provider's environment fallback at it. */
import { forgetClaims } from "../../provider/claims";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { forgetListings } from "../../provider/edge/dns-record/batch-read";
import { forgetRuleListings } from "../../provider/edge/rule-listing";
import { forgetZoneListings } from "../../provider/edge/dns-record-set/authority";
import { standIn } from "./social";
import { DEMO_ACCOUNT, DEMO_TOKEN, EdgeEmulator, type EdgeEmulatorOptions } from "../../emulators";

export async function startEdge(options: EdgeEmulatorOptions = {}): Promise<EdgeEmulator> {
  const edge = await new EdgeEmulator(options).start();
  process.env.EDGE_BASE_URL = edge.url;
  process.env.EDGE_API_TOKEN = DEMO_TOKEN;
  process.env.EDGE_ACCOUNT_ID = DEMO_ACCOUNT;
  process.env.EDGE_MAX_RETRIES = "3";
  return edge;
}

export function zoneId(edge: EdgeEmulator, name = "example.com"): string {
  return [...edge.zones.values()].find((z) => z.name === name)!.id;
}

export function records(edge: EdgeEmulator, name = "example.com") {
  return [...edge.zones.get(zoneId(edge, name))!.records.values()];
}

/**
 * One emulator for a test file, fresh state for every test: `const edge = useEdge();` at the top of the file.
 * The returned object stands for the emulator started in beforeAll.
 */
export function useEdge(options: EdgeEmulatorOptions = {}): EdgeEmulator {
  let current: EdgeEmulator | undefined;
  beforeAll(async () => {
    current = await startEdge(options);
  });
  afterAll(() => current?.stop());
  beforeEach(() => {
    current!.reset();
    current!.log.splice(0);
    current!.clearFaults();
    forgetListings();
    forgetRuleListings();
    forgetZoneListings();
    forgetClaims(); // the emulator's ids start again: a claim of the last test is not this one's
    process.env.EDGE_API_TOKEN = DEMO_TOKEN;
  });
  return standIn(() => current!);
}
