/**
 * Only the documented endpoints on the way to a write: against an edge emulator that answers 400 / 7003 ("No
 * route for that URI") to every endpoint the Cloudflare API v4 does not list, a DNS record given by zoneId and a record set
 * go through check, create, read (refresh), update and delete. The provider tries its faster undocumented reads
 * (GET /zones/{id}, GET .../dns_records/{id}) and falls back to the documented lists.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { records, useEdge, zoneId } from "../helpers/edge";

const edge = useEdge({ strict: true });
const refused = () => edge.log.filter((l) => l.status === 400).map((l) => `${l.method} ${l.path.replace(/[0-9a-f]{32}/g, "<id>")}`);

describe("a strict server that has only the document's endpoints", () => {
  it("refuses what the document does not list, as the service refuses an unknown route", async () => {
    const res = await fetch(`${edge.url}/client/v4/zones/${zoneId(edge)}`, {
      headers: { authorization: `Bearer ${process.env.EDGE_API_TOKEN}` },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).errors[0]).toEqual({ code: 7003, message: "No route for that URI" });
  });

  it("a DnsRecord by zoneId: create, read, a no-op and a real update, delete — through the documented lists", async () => {
    const T = "edge:DnsRecord";
    const { inputs, failures } = await call(T, "check", [
      {},
      {
        zoneId: zoneId(edge),
        type: "SRV",
        name: "_sip._tcp",
        data: { priority: 10, weight: 5, port: 5060, target: "sip.example.com" },
        ttl: 300,
      },
    ]);
    expect(failures).toEqual([]);
    const { id, outs } = await call(T, "create", [inputs]);
    expect(outs.zoneName).toBe("example.com");
    const read = await call(T, "read", [id, outs]);
    expect(read.props.data).toEqual(outs.data);
    const same = await call(T, "update", [id, outs, inputs]);
    expect(same.outs.data).toEqual(outs.data);
    const changed = await call(T, "update", [id, outs, { ...inputs, ttl: 600 }]);
    expect(changed.outs.ttl).toBe(600);
    await call(T, "delete", [id, changed.outs]);
    expect(records(edge)).toHaveLength(0);
    // The faster paths were tried and refused; nothing else was.
    expect(new Set(refused())).toEqual(new Set(["GET /client/v4/zones/<id>", "GET /client/v4/zones/<id>/dns_records/<id>"]));
  });

  it("a record set: create, refresh, update and delete", async () => {
    const T = "edge:DnsRecordSet";
    const { inputs } = await call(T, "check", [
      {},
      { zoneName: "example.com", records: { a: { type: "A", name: "www", content: "203.0.113.1", ttl: 300 } } },
    ]);
    const { id, outs } = await call(T, "create", [inputs]);
    expect((await call(T, "read", [id, outs])).inputs).toBeUndefined();
    const { outs: after } = await call(T, "update", [id, outs, { ...inputs, records: { a: { ...inputs.records.a, ttl: 600 } } }]);
    await call(T, "delete", [id, after]);
    expect(records(edge)).toHaveLength(0);
    // The batch endpoint (not in the document) was tried once, refused, and the run sent single requests after.
    expect(refused()).toEqual(["POST /client/v4/zones/<id>/dns_records/batch"]);
    expect(edge.count("POST", /dns_records$/)).toBe(1);
    expect(edge.count("DELETE", /dns_records\/[0-9a-f]+$/)).toBe(1);
  });
});
