/**
 * TXT values as the service stores them: a value over 255 bytes (every DKIM key) comes back as quoted strings of at
 * most 255 bytes, `"..." "..."`. A record and a record set compare the text, however it is split: no diff after
 * create, on refresh or on the next preview; a real change of the text still shows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgetClaims } from "../../provider/claims";
import { call } from "../../provider/door";
import { txtText } from "../../provider/edge/dns-record/normalize";
import { records, useEdge } from "../helpers/edge";

const edge = useEdge();
beforeAll(() => void (process.env.EDGE_BATCH_SIZE = "200"));
afterAll(() => void delete process.env.EDGE_BATCH_SIZE);

/** A 2048-bit DKIM key's record: 400 characters. */
const DKIM = `v=DKIM1; k=rsa; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA".repeat(9)}`.slice(0, 400);

describe("long TXT values", () => {
  it("the emulator stores them split as the service does, and txtText joins them back", async () => {
    const { inputs } = await call("edge:DnsRecord", "check", [
      {},
      { zoneName: "example.com", type: "TXT", name: "sel._domainkey", content: DKIM },
    ]);
    await call("edge:DnsRecord", "create", [inputs]);
    const stored = records(edge)[0].content;
    expect(stored).toBe(`"${DKIM.slice(0, 255)}" "${DKIM.slice(255)}"`);
    expect(txtText(stored)).toBe(DKIM);
    expect(txtText('"a \\"quoted\\" word" "b"')).toBe('a "quoted" wordb');
    expect(txtText("v=spf1 -all")).toBe("v=spf1 -all");
  });

  it("DnsRecord: no drift on read and no diff on the next preview; a changed text is a change", async () => {
    const { inputs } = await call("edge:DnsRecord", "check", [
      {},
      { zoneName: "example.com", type: "TXT", name: "sel._domainkey", content: DKIM },
    ]);
    const { id, outs } = await call("edge:DnsRecord", "create", [inputs]);
    expect(outs.content).toBe(DKIM);
    const read = await call("edge:DnsRecord", "read", [id, outs]);
    expect(read.inputs).toBeUndefined();
    const again = (
      await call("edge:DnsRecord", "check", [outs, { zoneName: "example.com", type: "TXT", name: "sel._domainkey", content: DKIM }])
    ).inputs;
    expect((await call("edge:DnsRecord", "diff", [id, read.props, again])).changes).toBe(false);
    // Given already split (as a zone file has it), the same text: no change either.
    const split = `"${DKIM.slice(0, 100)}" "${DKIM.slice(100)}"`;
    const asSplit = (
      await call("edge:DnsRecord", "check", [outs, { zoneName: "example.com", type: "TXT", name: "sel._domainkey", content: split }])
    ).inputs;
    expect((await call("edge:DnsRecord", "diff", [id, read.props, asSplit])).changes).toBe(false);
    const changed = (
      await call("edge:DnsRecord", "check", [outs, { zoneName: "example.com", type: "TXT", name: "sel._domainkey", content: `${DKIM}x` }])
    ).inputs;
    expect((await call("edge:DnsRecord", "diff", [id, read.props, changed])).changes).toBe(true);
  });

  it("DnsRecordSet: a 2,048-character value, no drift and no diff after create; adoption by the joined text", async () => {
    const long = `v=DKIM1; p=${"A".repeat(2036)}`;
    const recs = {
      dkim: { type: "TXT", name: "big._domainkey", content: long, ttl: 300 },
      short: { type: "TXT", name: "@", content: "v=spf1 -all", ttl: 300 },
    };
    const { inputs } = await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records: recs }]);
    const { id, outs } = await call("edge:DnsRecordSet", "create", [inputs]);
    expect(
      records(edge)
        .find((r) => r.name === "big._domainkey.example.com")!
        .content.split('" "'),
    ).toHaveLength(9);
    const read = await call("edge:DnsRecordSet", "read", [id, outs]);
    expect(read.inputs).toBeUndefined();
    const again = (await call("edge:DnsRecordSet", "check", [read.props, { zoneName: "example.com", records: recs }])).inputs;
    expect((await call("edge:DnsRecordSet", "diff", [id, read.props, again])).changes).toBe(false);
    // Made outside the program (split by the service): an adopting set finds it by its text.
    await call("edge:DnsRecordSet", "delete", [id, outs]);
    const { inputs: single } = await call("edge:DnsRecord", "check", [
      {},
      { zoneName: "example.com", type: "TXT", name: "big._domainkey", content: long },
    ]);
    await call("edge:DnsRecord", "create", [single]);
    forgetClaims(); // made outside the program: no resource of this run holds it
    const adopting = (
      await call("edge:DnsRecordSet", "check", [{}, { zoneName: "example.com", records: { dkim: recs.dkim }, adopt: true }])
    ).inputs;
    edge.log.splice(0);
    await call("edge:DnsRecordSet", "create", [adopting]);
    expect(edge.log.filter((e) => e.method === "POST")).toEqual([]);
  });
});
