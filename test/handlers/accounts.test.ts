/**
 * Named accounts (`ops:accounts`, chosen by a resource's `account` input) at the door both doors share: each
 * resource reaches its own account's endpoint with its own token, keeps the account for read and delete, is
 * replaced when moved, and an unknown account or a missing credential is refused with the command that fixes it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ALL_PERMISSIONS, EdgeEmulator } from "../../emulators";
import { call, configure, invoke } from "../../provider/door";
import { configProblems, useStackConfig } from "../../provider/config";
import { records, useEdge } from "../helpers/edge";

const home = useEdge(); // the stack's own account, from the environment
let eu: EdgeEmulator;
const EU_TOKEN = "eu-account-token-0123456789";
const T = "edge:DnsRecord";
const record = { zoneName: "example.com", type: "A", name: "eu", content: "203.0.113.7", ttl: 300 };
const withAccounts = (accounts: unknown) => configure({ get: (k) => (k === "ops:accounts" ? JSON.stringify(accounts) : undefined) });

beforeAll(async () => {
  eu = await new EdgeEmulator({ tokens: { [EU_TOKEN]: ALL_PERMISSIONS } }).start();
});
afterAll(() => eu?.stop());
afterEach(() => useStackConfig(undefined));

describe("named accounts", () => {
  it("an account that is not configured is refused at check, with the command that adds it", async () => {
    withAccounts({});
    const r = await call(T, "check", [{}, { ...record, account: "eu" }]);
    expect(r.failures).toEqual([
      {
        property: "account",
        reason: expect.stringMatching(
          /account "eu" is not configured: .*pulumi config set --secret --path 'ops:accounts\.eu\.edgeApiToken' <token>/,
        ),
      },
    ]);
    expect(eu.log).toEqual([]);
  });

  it("a resource with `account` reaches that account with its token; read and delete use it too", async () => {
    withAccounts({ eu: { edgeApiToken: EU_TOKEN, edgeBaseUrl: eu.url } });
    const checked = await call(T, "check", [{}, { ...record, account: "eu" }]);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.account).toBe("eu");
    const made = await call(T, "create", [checked.inputs]);
    expect(made.outs.account).toBe("eu");
    expect(records(eu).map((r) => r.name)).toEqual(["eu.example.com"]);
    expect(records(home)).toEqual([]);
    expect(eu.log.every((e) => e.status < 400)).toBe(true); // that emulator knows only the eu token
    const read = await call(T, "read", [made.id, made.outs]);
    expect(read.props).toMatchObject({ account: "eu", content: "203.0.113.7" });
    await call(T, "delete", [made.id, made.outs]);
    expect(records(eu)).toEqual([]);
  });

  it("moving a resource to another account replaces it", async () => {
    withAccounts({ eu: { edgeApiToken: EU_TOKEN, edgeBaseUrl: eu.url } });
    const d = await call(T, "diff", ["id", { ...record, account: "eu" }, { ...record }]);
    expect(d).toMatchObject({ changes: true, replaces: expect.arrayContaining(["account"]), deleteBeforeReplace: true }); // the same record: made first, it would meet itself
    expect((await call(T, "diff", ["id", { ...record, account: "eu" }, { ...record, account: "eu" }])).replaces ?? []).not.toContain(
      "account",
    );
  });

  it("an account's credentials are its own: a missing token is not borrowed from the stack's", async () => {
    withAccounts({ bare: { edgeBaseUrl: eu.url } });
    eu.log.splice(0);
    const checked = await call(T, "check", [{}, { ...record, account: "bare" }]);
    await expect(call(T, "create", [checked.inputs])).rejects.toThrow(
      /account "bare" has no credentials.*ops:accounts\.bare\.edgeApiToken/,
    );
    expect(eu.log).toEqual([]); // nothing sent, with or without the stack's token
  });

  it("functions take `account` too", async () => {
    withAccounts({ eu: { edgeApiToken: EU_TOKEN, edgeBaseUrl: eu.url } });
    eu.log.splice(0);
    const r = await invoke("edge:getZone", { name: "example.com", account: "eu" });
    expect(r.outputs).toMatchObject({ name: "example.com" });
    expect(eu.log.length).toBeGreaterThan(0);
    expect((await invoke("edge:getZone", { name: "example.com", account: "nope" })).failures).toEqual([
      { property: "account", reason: expect.stringMatching(/account "nope" is not configured/) },
    ]);
  });

  it("bad accounts config fails at configure (so at preview), naming the key", () => {
    expect(() => withAccounts({ eu: { edgeApiTokn: "x" } })).toThrow(/ops:accounts\.eu\.edgeApiTokn is not a setting/);
    expect(() => withAccounts({ eu: { edgeRateLimit: "lots" } })).toThrow(
      /ops:accounts\.eu\.edgeRateLimit must be a number from 1 to 1000000; got "lots"/,
    );
    expect(() => configure({ get: (k) => (k === "ops:accounts" ? "[1,2]" : undefined) })).toThrow(
      /ops:accounts must be an object of accounts/,
    );
    useStackConfig({ get: (k) => (({ "edge:apiToken": "legacy-token-0123" }) as Record<string, string>)[k] });
    expect(configProblems()).toEqual([]); // the first release's keys are still read
  });
});
