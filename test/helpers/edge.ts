/** Starts the edge emulator in-process and points the provider's environment fallback at it. */
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
