/**
 * The edge service's credentials as they are today: account-owned API tokens (which verify only at their account's
 * endpoint), user tokens, and the variable names the service's own tools read (CLOUDFLARE_*).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, DEMO_TOKEN } from "../../emulators";
import { call, checkForEngine, invoke } from "../../provider/door";
import { edge } from "../../provider/edge/zones";
import { records, useEdge } from "../helpers/edge";

const emu = useEdge({
  tokens: { [DEMO_TOKEN]: ["zone:read", "dns:read", "dns:edit"] },
  accountTokens: { [DEMO_ACCOUNT_TOKEN]: ["zone:read", "dns:read", "dns:edit"], "cfat_read-only": ["zone:read", "dns:read"] },
});

let saved: NodeJS.ProcessEnv = {};
beforeEach(() => {
  saved = { ...process.env };
});
afterEach(() => {
  for (const k of [
    "EDGE_API_TOKEN",
    "EDGE_BASE_URL",
    "EDGE_ACCOUNT_ID",
    "CLOUDFLARE_API_TOKEN",
    "CLOUDFLARE_BASE_URL",
    "CLOUDFLARE_API_BASE_URL",
    "CLOUDFLARE_ACCOUNT_ID",
  ]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

const paths = () => emu.log.map((e) => `${e.method} ${e.path.replace(/^\/client\/v4/, "")} ${e.status}`);

describe("account-owned API tokens", () => {
  it("verify at the account endpoint after the user endpoint's 1000, with the configured account (a token of the older format)", async () => {
    emu.options.accountTokens["legacy-format-account-token"] = ["zone:read"];
    process.env.EDGE_API_TOKEN = "legacy-format-account-token";
    await edge().verifyCredentials();
    expect(paths()).toEqual(["GET /user/tokens/verify 401", `GET /accounts/${DEMO_ACCOUNT}/tokens/verify 200`]);
    // Learnt once per run: the next verification goes straight to the account endpoint.
    await edge().verifyCredentials();
    expect(paths().slice(2)).toEqual([`GET /accounts/${DEMO_ACCOUNT}/tokens/verify 200`]);
  });

  it("find their account from the zones they see when no account is configured, and say which kind they are", async () => {
    process.env.EDGE_API_TOKEN = DEMO_ACCOUNT_TOKEN;
    delete process.env.EDGE_ACCOUNT_ID;
    const { outputs } = await invoke("edge:verifyToken", {});
    expect(outputs).toMatchObject({ status: "active", kind: "account", accountId: DEMO_ACCOUNT });
    // A cfat_ token is an account's (the service's token formats): verified there first, the user endpoint untried.
    expect(paths()).toEqual(["GET /zones 200", `GET /accounts/${DEMO_ACCOUNT}/tokens/verify 200`]);
  });

  it("a cfat_ token verifies at its account first; a cfut_ token at the user endpoint", async () => {
    process.env.EDGE_API_TOKEN = DEMO_ACCOUNT_TOKEN;
    await edge().verifyCredentials();
    expect(paths()).toEqual([`GET /accounts/${DEMO_ACCOUNT}/tokens/verify 200`]);
    emu.log.splice(0);
    emu.options.tokens["cfut_user-token-0123"] = ["zone:read"];
    process.env.EDGE_API_TOKEN = "cfut_user-token-0123";
    await edge().verifyCredentials();
    expect(paths()).toEqual(["GET /user/tokens/verify 200"]);
  });

  it("a global API key given as the token fails the check, saying to set it as ops:edgeApiKey with the e-mail; nothing is sent", async () => {
    process.env.EDGE_API_TOKEN = "cfk_0123456789abcdef0123456789abcdef01234567abcd";
    const err = await checkForEngine(
      "edge:DnsRecord",
      {},
      { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.7" },
    ).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/holds a global API key \(it starts with cfk_\).*ops:edgeApiKey.*ops:edgeEmail/);
    expect(err?.message).not.toContain("cfk_0123456789");
    expect(paths()).toEqual([]);
  });

  it("a user token is still a user token", async () => {
    const { outputs } = await invoke("edge:verifyToken", {});
    expect(outputs).toMatchObject({ status: "active", kind: "user" });
    expect(paths()).toEqual(["GET /user/tokens/verify 200"]);
  });

  it("an invalid token fails the preview's check, having tried both endpoints", async () => {
    process.env.EDGE_API_TOKEN = "cfat_not-a-token";
    await expect(edge().verifyCredentials()).rejects.toThrow(/the API token is not valid \(Invalid API Token\).*CLOUDFLARE_API_TOKEN/s);
    expect(paths()).toEqual([`GET /accounts/${DEMO_ACCOUNT}/tokens/verify 401`, "GET /user/tokens/verify 401"]);
  });

  it("an account-owned token without a permission is told apart from an invalid one", async () => {
    process.env.EDGE_API_TOKEN = "cfat_read-only";
    const { inputs } = await call("edge:DnsRecord", "check", [
      {},
      { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.7" },
    ]);
    await expect(call("edge:DnsRecord", "create", [inputs])).rejects.toThrow(
      /the token is valid but lacks the permission Zone \/ DNS \/ Edit/,
    );
    expect(emu.count("POST", /dns_records$/)).toBe(1); // refused, and nothing made
    expect(records(emu)).toHaveLength(0);
  });

  it("apply with nothing but CLOUDFLARE_API_TOKEN, CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_BASE_URL (which includes /client/v4)", async () => {
    delete process.env.EDGE_API_TOKEN;
    delete process.env.EDGE_BASE_URL;
    delete process.env.EDGE_ACCOUNT_ID;
    process.env.CLOUDFLARE_API_TOKEN = DEMO_ACCOUNT_TOKEN;
    process.env.CLOUDFLARE_ACCOUNT_ID = DEMO_ACCOUNT;
    process.env.CLOUDFLARE_BASE_URL = `${emu.url}/client/v4`;
    await edge().verifyCredentials();
    const { inputs } = await call("edge:DnsRecord", "check", [
      {},
      { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.7" },
    ]);
    const { outs } = await call("edge:DnsRecord", "create", [inputs]);
    expect(outs).toMatchObject({ name: "www", content: "203.0.113.7", zoneName: "example.com" });
    expect(records(emu).map((r) => r.name)).toEqual(["www.example.com"]);
  });

  it("the pipeline's own EDGE_* names come before the ecosystem's", async () => {
    process.env.CLOUDFLARE_API_TOKEN = "cfat_not-a-token";
    process.env.CLOUDFLARE_API_BASE_URL = "http://127.0.0.1:9"; // wrangler's name: read after CLOUDFLARE_BASE_URL
    await edge().verifyCredentials(); // EDGE_API_TOKEN (the user token) and EDGE_BASE_URL are set by useEdge
    expect(paths()).toEqual(["GET /user/tokens/verify 200"]);
  });
});
