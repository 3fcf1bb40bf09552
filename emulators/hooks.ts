/**
 * The test hooks every emulator answers under /__emulator/ (kit.ts lists them), then the service's own.
 */
import type { Emulator } from "./kit";
import { parseLatency } from "./latency";
import type { Fault, Reply, Request } from "./wire";

/** A service's own hooks (e.g. changing an object out of band without counting as an API call). */
export type ServiceHook = (op: string, req: Request, body: any) => Reply | undefined;

export function answerHook(emu: Emulator, req: Request, faults: () => Fault[], serviceHook: ServiceHook): Reply {
  const op = req.path.slice("/__emulator/".length);
  const body = req.rawBody ? JSON.parse(req.rawBody) : {};
  if (op === "log" && req.method === "GET") return { status: 200, body: emu.log };
  if (op === "log" && req.method === "DELETE") return { status: 200, body: { cleared: emu.log.splice(0).length } };
  if (op === "reset" && req.method === "POST") {
    emu.reset();
    emu.log.splice(0);
    emu.clearFaults();
    return { status: 200, body: { reset: true } };
  }
  if (op === "faults" && req.method === "POST") {
    emu.inject(body as Fault);
    return { status: 200, body: { faults: faults() } };
  }
  if (op === "faults" && req.method === "DELETE") {
    emu.clearFaults();
    return { status: 200, body: { faults: [] } };
  }
  if (op === "latency" && req.method === "POST") {
    emu.latency = parseLatency(String(body.profile ?? "off"));
    return { status: 200, body: { latency: emu.latency ?? "off" } };
  }
  if (op === "reverse-keys" && req.method === "POST") {
    emu.reverseKeys = body.on !== false;
    return { status: 200, body: { reverseKeys: emu.reverseKeys } };
  }
  if (op === "clock" && req.method === "POST") {
    emu.clockOffsetMs += Number(body.advanceSeconds ?? 0) * 1000;
    return { status: 200, body: { now: new Date(emu.now()).toISOString() } };
  }
  return serviceHook(op, req, body) ?? { status: 404, body: { error: `no test hook ${op}` } };
}
