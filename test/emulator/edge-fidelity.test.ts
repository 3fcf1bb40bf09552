/**
 * The edge emulator checked with a client nobody here wrote: the official `cloudflare` SDK lists, creates, edits
 * and deletes DNS records against it, follows its pagination and reads its error envelope.
 */
import Cloudflare, { toFile } from "cloudflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNT, DEMO_ACCOUNT_TOKEN, DEMO_TOKEN, EdgeEmulator } from "../../emulators";
import { startEdge, zoneId } from "../helpers/edge";
import { SAMPLES } from "../helpers/record-samples";

let edge: EdgeEmulator;
let cf: Cloudflare;
beforeAll(async () => {
  edge = await startEdge({ zones: ["example.com", ...Array.from({ length: 11 }, (_, i) => `zone${i}.example`)] });
  cf = new Cloudflare({ apiToken: DEMO_TOKEN, baseURL: `${edge.url}/client/v4`, maxRetries: 0 });
});
afterAll(() => edge.stop());

describe("edge emulator with the official cloudflare SDK", () => {
  it("verifies the token", async () => {
    expect((await cf.user.tokens.verify()).status).toBe("active");
  });

  it("verifies an account-owned token only at its account's endpoint, and lets it work elsewhere", async () => {
    const account = new Cloudflare({ apiToken: DEMO_ACCOUNT_TOKEN, baseURL: `${edge.url}/client/v4`, maxRetries: 0 });
    expect((await account.accounts.tokens.verify({ account_id: DEMO_ACCOUNT })).status).toBe("active");
    const atUser = await account.user.tokens.verify().catch((e) => e);
    expect(atUser).toBeInstanceOf(Cloudflare.AuthenticationError); // 401
    expect(atUser.errors[0]).toMatchObject({ code: 1000, message: "Invalid API Token" });
    // A user token is refused at the account endpoint the same way; an unknown token at both.
    expect((await cf.accounts.tokens.verify({ account_id: DEMO_ACCOUNT }).catch((e) => e)).status).toBe(401);
    const stranger = new Cloudflare({ apiToken: "not-a-token", baseURL: `${edge.url}/client/v4`, maxRetries: 0 });
    expect((await stranger.user.tokens.verify().catch((e) => e)).errors[0].code).toBe(1000);
    expect((await account.zones.list()).result.length).toBeGreaterThan(0);
  });

  it("pages through zones and filters by name", async () => {
    const all = [];
    for await (const z of cf.zones.list({ per_page: 5 })) all.push(z.name);
    expect(all).toHaveLength(12);
    const one = await cf.zones.list({ name: "example.com" });
    expect(one.result.map((z) => z.name)).toEqual(["example.com"]);
    expect(one.result_info).toMatchObject({ page: 1, total_count: 1 });
  });

  it("adds a zone as the API's Create Zone does: pending, on the Free plan, listed; a second add of it is 1061 (issue 57)", async () => {
    const zone = await cf.zones.create({ account: { id: DEMO_ACCOUNT }, name: "new-shop.example", type: "full" });
    expect(zone).toMatchObject({ name: "new-shop.example", status: "pending", type: "full", plan: { id: "free" } });
    expect((await cf.zones.list({ name: "new-shop.example" })).result.map((z) => z.id)).toEqual([zone.id]);
    const again = await cf.zones.create({ account: { id: DEMO_ACCOUNT }, name: "new-shop.example", type: "full" }).catch((e) => e);
    expect(again.status).toBe(400);
    expect(again.errors[0]).toMatchObject({ code: 1061, message: "new-shop.example already exists" });
  });

  it("creates, lists page by page, edits and deletes DNS records", async () => {
    const zone_id = zoneId(edge);
    for (let i = 0; i < 12; i++) {
      await cf.dns.records.create({ zone_id, type: "A", name: `host${i}`, content: `203.0.113.${i + 1}`, ttl: 300 });
    }
    const names: string[] = [];
    for await (const r of cf.dns.records.list({ zone_id, per_page: 5 })) names.push(r.name!);
    expect(names).toHaveLength(12);
    expect(names).toContain("host11.example.com");

    const filtered = await cf.dns.records.list({ zone_id, type: "A", name: { exact: "host3.example.com" } });
    expect(filtered.result.map((r) => r.content)).toEqual(["203.0.113.4"]);
    const page = await cf.dns.records.list({ zone_id, per_page: 5, page: 3 });
    expect(page.result).toHaveLength(2);
    expect(page.result_info).toMatchObject({ page: 3, per_page: 5, total_count: 12, total_pages: 3 });

    const first = (await cf.dns.records.list({ zone_id, per_page: 1 })).result[0];
    const edited = await cf.dns.records.edit(first.id, { zone_id, proxied: true } as never);
    expect(edited).toMatchObject({ proxied: true, ttl: 1 });
    await cf.dns.records.delete(first.id, { zone_id });
    const after = [];
    for await (const r of cf.dns.records.list({ zone_id })) after.push(r.id);
    expect(after).toHaveLength(11);
  });

  it("surfaces the envelope's errors: 81058 on a duplicate, 9041 on a proxied private address, 81044 on a missing record, 10000 on a bad token", async () => {
    const zone_id = zoneId(edge);
    await cf.dns.records.create({ zone_id, type: "TXT", name: "dup", content: "same", ttl: 1 });
    const dup = await cf.dns.records.create({ zone_id, type: "TXT", name: "dup", content: "same", ttl: 1 }).catch((e) => e);
    expect(dup).toBeInstanceOf(Cloudflare.BadRequestError);
    expect(dup.errors[0]).toMatchObject({ code: 81058, message: "An identical record already exists." });

    const priv = await cf.dns.records
      .create({ zone_id, type: "A", name: "db", content: "10.0.0.1", proxied: true, ttl: 1 })
      .catch((e) => e);
    expect(priv.errors[0]).toMatchObject({ code: 9041 });
    expect(priv.errors).toHaveLength(1); // the root cause alone, no 1004 wrapper since 2024-10-01

    const missing = await cf.dns.records.get("0123456789abcdef0123456789abcdef", { zone_id }).catch((e) => e);
    expect(missing).toBeInstanceOf(Cloudflare.NotFoundError);
    expect(missing.errors[0]).toMatchObject({ code: 81044, message: "Record does not exist." });

    const stranger = new Cloudflare({ apiToken: "not-a-token", baseURL: `${edge.url}/client/v4`, maxRetries: 0 });
    const denied = await stranger.zones.list().catch((e) => e);
    expect(denied).toBeInstanceOf(Cloudflare.PermissionDeniedError);
    expect(denied.errors[0].code).toBe(10000);
  });

  it("answers 429 with code 971 and Retry-After past the allowance, and Ratelimit headers on every answer", async () => {
    const limited = await new EdgeEmulator({ rateLimit: { requests: 3, perSeconds: 60 } }).start();
    const client = new Cloudflare({ apiToken: DEMO_TOKEN, baseURL: `${limited.url}/client/v4`, maxRetries: 0 });
    const first = await client.zones.list().withResponse();
    expect(first.response.headers.get("ratelimit")).toMatch(/^"default";r=2;t=\d+$/);
    expect(first.response.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
    for (let i = 0; i < 2; i++) await client.zones.list();
    const err = await client.zones.list().catch((e) => e);
    expect(err).toBeInstanceOf(Cloudflare.RateLimitError);
    expect(err.errors[0].code).toBe(971);
    expect(Number(err.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(err.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
    await limited.stop();
  });

  it("takes every record type the SDK types, each as its XxxRecordParam (data for the structured ones), and answers with content rendered from data", async () => {
    const zone_id = zoneId(edge, "zone9.example");
    for (const s of SAMPLES) {
      // The SDK's own parameter type for the record: a shape nobody here wrote.
      const params = { zone_id, type: s.type, name: s.name, ttl: 300, ...s.value } as Cloudflare.DNS.RecordCreateParams;
      const made = await cf.dns.records.create(params);
      expect(made.type).toBe(s.type);
      if (s.value.data) expect((made as { data?: unknown }).data).toMatchObject(s.value.data);
    }
    const all = [];
    for await (const r of cf.dns.records.list({ zone_id })) all.push(r);
    expect(all.map((r) => r.type).sort()).toEqual(SAMPLES.map((s) => s.type).sort());
    const rendered = Object.fromEntries(all.map((r) => [r.type, r.content]));
    expect(rendered).toMatchObject({
      SRV: "60 5060 sip.example.com",
      CAA: '0 issue "letsencrypt.org"',
      URI: '1 "https://www.example.com/"',
      LOC: "52 22 23 N 4 53 32 E -2m 0m 10000m 10m",
    });
    expect(all.find((r) => r.type === "SRV")).toMatchObject({ priority: 10 });
  });

  it("refuses a structured record's bad data with 9005, and a CNAME beside other records with the service's 81053 / 81054", async () => {
    const zone_id = zoneId(edge, "zone8.example");
    const caa = await cf.dns.records
      .create({ zone_id, type: "CAA", name: "@", ttl: 1, data: { flags: 0, tag: "issuer", value: "ca.example.net" } })
      .catch((e) => e);
    expect(caa).toBeInstanceOf(Cloudflare.BadRequestError);
    expect(caa.errors[0].code).toBe(9005);
    const ds = await cf.dns.records
      .create({ zone_id, type: "DS", name: "s", ttl: 1, data: { key_tag: 1, algorithm: 13, digest_type: 2, digest: "abcd" } })
      .catch((e) => e);
    expect(ds.errors[0]).toMatchObject({ code: 9005 });
    await cf.dns.records.create({ zone_id, type: "TXT", name: "www", content: "hello", ttl: 1 });
    const cname = await cf.dns.records
      .create({ zone_id, type: "CNAME", name: "www", content: "target.example.net", ttl: 1 })
      .catch((e) => e);
    expect(cname.errors[0]).toMatchObject({ code: 81053, message: "An A, AAAA, or CNAME record with that host already exists." });
    await cf.dns.records.create({ zone_id, type: "CNAME", name: "alias", content: "target.example.net", ttl: 1 });
    const beside = await cf.dns.records.create({ zone_id, type: "A", name: "alias", content: "203.0.113.1", ttl: 1 }).catch((e) => e);
    expect(beside.errors[0]).toMatchObject({ code: 81054, message: "A CNAME record with that host already exists." });
  });
});

describe("the batch endpoint through the official SDK's dns.records.batch", () => {
  it("runs deletes, patches, puts and posts in that order in one request, answering each group's records", async () => {
    const zone_id = (await cf.zones.list({ name: "zone0.example" })).result[0].id;
    const a = await cf.dns.records.create({ zone_id, type: "A", name: "a", content: "203.0.113.1", ttl: 300 });
    const b = await cf.dns.records.create({ zone_id, type: "A", name: "b", content: "203.0.113.2", ttl: 300 });
    const c = await cf.dns.records.create({ zone_id, type: "TXT", name: "c", content: "old", ttl: 300 });
    const before = edge.log.length;
    const result = await cf.dns.records.batch({
      zone_id,
      deletes: [{ id: a.id }],
      patches: [{ id: b.id, ttl: 600 } as never],
      puts: [{ id: c.id, type: "TXT", name: "c.zone0.example", content: "new", ttl: 120 }],
      // The name the delete frees, posted in the same batch: the deletes ran first.
      posts: [
        { type: "A", name: "a", content: "203.0.113.1", ttl: 300 },
        { type: "SRV", name: "_sip._tcp", data: { priority: 10, weight: 5, port: 5060, target: "sip.zone0.example" }, ttl: 300 },
      ],
    });
    expect(edge.log.length - before).toBe(1);
    expect(result.deletes?.map((r) => r.id)).toEqual([a.id]);
    expect(result.patches?.[0]).toMatchObject({ id: b.id, ttl: 600, content: "203.0.113.2" });
    expect(result.puts?.[0]).toMatchObject({ id: c.id, content: "new", ttl: 120 });
    expect(result.posts?.map((r) => r.content)).toEqual(["203.0.113.1", "5 5060 sip.zone0.example"]);
    const listed = (await cf.dns.records.list({ zone_id })).result.map((r) => `${r.type} ${r.name} ${r.content}`).sort();
    expect(listed).toEqual([
      "A a.zone0.example 203.0.113.1",
      "A b.zone0.example 203.0.113.2",
      "SRV _sip._tcp.zone0.example 5 5060 sip.zone0.example",
      "TXT c.zone0.example new",
    ]);
  });

  it("refuses the whole batch when one operation is refused, naming it, and applies nothing", async () => {
    const zone_id = (await cf.zones.list({ name: "zone1.example" })).result[0].id;
    const keep = await cf.dns.records.create({ zone_id, type: "A", name: "keep", content: "203.0.113.9", ttl: 300 });
    const err = await cf.dns.records
      .batch({
        zone_id,
        deletes: [{ id: keep.id }],
        posts: [
          { type: "A", name: "ok", content: "203.0.113.10", ttl: 300 },
          { type: "A", name: "bad", content: "203.0.113.300", ttl: 300 },
        ],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cloudflare.BadRequestError);
    expect(String((err as Error).message)).toMatch(/9005.*posts\[1\]/);
    expect((await cf.dns.records.list({ zone_id })).result.map((r) => r.id)).toEqual([keep.id]);
  });

  it("holds a batch to the plan's limit (200 by default), and a service without the endpoint refuses it", async () => {
    const zone_id = (await cf.zones.list({ name: "zone2.example" })).result[0].id;
    const posts = Array.from({ length: 201 }, (_, i) => ({ type: "TXT" as const, name: `t${i}`, content: `v${i}`, ttl: 300 }));
    expect(String(await cf.dns.records.batch({ zone_id, posts }).catch((e: Error) => e.message))).toMatch(/at most 200 changes/);
    expect((await cf.dns.records.batch({ zone_id, posts: posts.slice(0, 200) })).posts).toHaveLength(200);
    const without = await new EdgeEmulator({ batchLimit: 0 }).start();
    const cf2 = new Cloudflare({ apiToken: DEMO_TOKEN, baseURL: `${without.url}/client/v4`, maxRetries: 0 });
    expect(
      String(await cf2.dns.records.batch({ zone_id: zoneId(without), posts: posts.slice(0, 1) }).catch((e: Error) => e.message)),
    ).toMatch(/7003/);
    await without.stop();
  });

  it("the rulesets engine through the SDK's rulesets.phases and rulesets.rules: entry point, rule add, edit and delete, each answering the ruleset", async () => {
    const zone_id = zoneId(edge, "zone3.example");
    const none = await cf.rulesets.phases.get("http_request_firewall_custom", { zone_id }).catch((e) => e);
    expect(none).toBeInstanceOf(Cloudflare.NotFoundError);
    const made: any = await cf.rulesets.create({
      zone_id,
      kind: "zone",
      name: "custom",
      phase: "http_request_firewall_custom",
      rules: [{ action: "block", expression: "ip.src eq 203.0.113.1", ref: "first" }],
    });
    expect(made.rules).toHaveLength(1);
    const added: any = await cf.rulesets.rules.create(made.id, {
      zone_id,
      action: "managed_challenge",
      expression: 'http.request.uri.path eq "/admin"',
      description: "admin",
    });
    const rule = added.rules.find((r: any) => r.description === "admin")!;
    expect(rule).toMatchObject({ action: "managed_challenge", enabled: true, ref: rule.id });
    const edited: any = await cf.rulesets.rules.edit(rule.id!, {
      zone_id,
      ruleset_id: made.id,
      action: "js_challenge",
      expression: 'http.request.uri.path eq "/admin"',
    });
    expect(edited.rules.map((r: any) => r.action)).toEqual(["block", "js_challenge"]);
    // The edit replaced the rule's definition: the description it left out is gone (update-rule).
    expect(edited.rules[1].description ?? "").toBe("");
    const byId = await cf.rulesets.get(made.id, { zone_id });
    expect(byId.rules.map((r: any) => r.id)).toEqual(edited.rules.map((r: any) => r.id));
    const skip: any = await cf.rulesets.rules.create(made.id, {
      zone_id,
      action: "skip",
      expression: "ip.src eq 203.0.113.2",
      action_parameters: { ruleset: "current" },
    });
    expect(skip.rules.at(-1)).toMatchObject({ action: "skip", action_parameters: { ruleset: "current" } });
    const after: any = await cf.rulesets.rules.delete(rule.id!, { zone_id, ruleset_id: made.id });
    expect(after.rules.map((r: any) => r.ref)).toEqual(["first", expect.any(String)]);
    // The whole-ruleset PUT keeps a rule given by id alone, as the documentation shows.
    const put: any = await cf.rulesets.phases.update("http_request_firewall_custom", {
      zone_id,
      rules: [{ id: after.rules[0].id } as never],
    });
    expect(put.rules.map((r: any) => r.ref)).toEqual(["first"]);
    const limits: any = await cf.rulesets.phases.update("http_ratelimit", {
      zone_id,
      rules: [
        {
          action: "block",
          expression: 'http.request.uri.path eq "/login"',
          ratelimit: { characteristics: ["cf.colo.id", "ip.src"], period: 10, requests_per_period: 5, mitigation_timeout: 10 },
        },
      ],
    });
    expect(limits.rules[0].ratelimit).toMatchObject({ period: 10, requests_per_period: 5 });
    // The phases that replace page rules (RulesetRule): a cache rule, then a redirect rule added and edited.
    const cache: any = await cf.rulesets.phases.update("http_request_cache_settings", {
      zone_id,
      rules: [{ action: "set_cache_settings", expression: "true", action_parameters: { cache: true } }],
    });
    expect(cache.rules[0]).toMatchObject({ action: "set_cache_settings", action_parameters: { cache: true } });
    const redirects: any = await cf.rulesets.create({
      zone_id,
      kind: "zone",
      name: "redirects",
      phase: "http_request_dynamic_redirect",
      rules: [],
    });
    const redirect: any = await cf.rulesets.rules.create(redirects.id, {
      zone_id,
      action: "redirect",
      expression: 'http.request.uri.path eq "/old"',
      action_parameters: { from_value: { target_url: { value: "https://example.com/new" }, status_code: 301 } },
    });
    const moved: any = await cf.rulesets.rules.edit(redirect.rules[0].id!, {
      zone_id,
      ruleset_id: redirects.id,
      action: "redirect",
      expression: 'http.request.uri.path eq "/older"',
      action_parameters: { from_value: { target_url: { value: "https://example.com/new" }, status_code: 308 } },
    });
    expect(moved.rules[0]).toMatchObject({
      expression: 'http.request.uri.path eq "/older"',
      action_parameters: { from_value: { status_code: 308 } },
    });
    const refused = await cf.rulesets.rules
      .create(redirects.id, {
        zone_id,
        action: "redirect",
        expression: "true",
        action_parameters: { from_value: { status_code: 301 } } as never,
      })
      .catch((e) => e);
    expect(refused).toBeInstanceOf(Cloudflare.BadRequestError);
  });

  it("a module script: the SDK v7's own upload is refused as the service refuses it, the documented multipart is taken and read back by content.get", async () => {
    const source = "export default { fetch() { return new Response('sdk') } }";
    // cloudflare-typescript 7.x sends the multipart body as `application/javascript` with bracket-flattened metadata
    // (its issue 2799): the service reads it as a service worker and answers 10021, and so does the emulator.
    const v7 = await cf.workers.scripts
      .update("sdk-module", {
        account_id: DEMO_ACCOUNT,
        metadata: { main_module: "worker.js", compatibility_date: "2025-01-01" },
        files: [await toFile(Buffer.from(source), "worker.js", { type: "application/javascript+module" })],
      })
      .catch((e) => e);
    expect(v7).toBeInstanceOf(Cloudflare.BadRequestError);
    expect(v7.errors[0].code).toBe(10021);
    // The documented form (multipart/form-data, a JSON metadata part, the module part it names), as pulumi-ops sends it.
    const { upload } = await import("../../provider/edge/worker-script/upload");
    const body = await upload({ compatibilityDate: "2025-01-01", compatibilityFlags: ["nodejs_compat"] }, source);
    const put = await fetch(`${edge.url}/client/v4/accounts/${DEMO_ACCOUNT}/workers/scripts/sdk-module`, {
      method: "PUT",
      headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": body.contentType },
      body: body.body,
    });
    expect(put.status).toBe(200);
    const content = await cf.workers.scripts.content.get("sdk-module", { account_id: DEMO_ACCOUNT });
    expect(content.headers.get("cf-entrypoint")).toBe("worker.js");
    const form = await content.formData();
    expect(await (form.get("worker.js") as File).text()).toBe(source);
    const listed = [];
    for await (const s of cf.workers.scripts.list({ account_id: DEMO_ACCOUNT })) listed.push(s);
    expect(listed.find((s) => s.id === "sdk-module")).toMatchObject({ compatibility_date: "2025-01-01", has_modules: true });
  });

  it("routes, custom domains, the workers.dev subdomain and secrets through the SDK's workers.* (issue 46)", async () => {
    const zone_id = zoneId(edge);
    const account_id = DEMO_ACCOUNT;
    const body = "export default { fetch() { return new Response('ok') } }";
    const form = new FormData();
    form.append(
      "metadata",
      new Blob(
        [
          JSON.stringify({
            main_module: "w.js",
            compatibility_date: "2026-11-01",
            bindings: [{ type: "plain_text", name: "GREETING", text: "hi" }],
          }),
        ],
        { type: "application/json" },
      ),
      "metadata.json",
    );
    form.append("w.js", new Blob([body], { type: "application/javascript+module" }), "w.js");
    expect(
      (
        await fetch(`${edge.url}/client/v4/accounts/${account_id}/workers/scripts/site`, {
          method: "PUT",
          headers: { authorization: `Bearer ${DEMO_TOKEN}` },
          body: form,
        })
      ).status,
    ).toBe(200);
    // Routes.
    const route = await cf.workers.routes.create({ zone_id, pattern: "example.com/app/*", script: "site" });
    expect(route).toMatchObject({ pattern: "example.com/app/*", script: "site" });
    const dup = await cf.workers.routes.create({ zone_id, pattern: "example.com/app/*", script: "site" }).catch((e) => e);
    expect(dup.status).toBe(409);
    expect(dup.errors[0].code).toBe(10020);
    const missing = await cf.workers.routes.create({ zone_id, pattern: "example.com/x/*", script: "nope" }).catch((e) => e);
    expect(missing.errors[0].code).toBe(10019);
    expect((await cf.workers.routes.update(route.id, { zone_id, pattern: "example.com/site/*", script: "site" })).pattern).toBe(
      "example.com/site/*",
    );
    const listed = [];
    for await (const r of cf.workers.routes.list({ zone_id })) listed.push(r.pattern);
    expect(listed).toEqual(["example.com/site/*"]);
    expect((await cf.workers.routes.get(route.id, { zone_id })).script).toBe("site");
    await cf.workers.routes.delete(route.id, { zone_id });
    expect((await cf.workers.routes.get(route.id, { zone_id }).catch((e) => e)).status).toBe(404);
    // Custom domains, with the read-only record the service makes.
    const d = await cf.workers.domains.update({ account_id, hostname: "api.example.com", service: "site", zone_id });
    expect(d).toMatchObject({ hostname: "api.example.com", service: "site", zone_id, zone_name: "example.com" });
    expect(d.cert_id).toBeTruthy();
    const recs = await cf.dns.records.list({ zone_id, name: { exact: "api.example.com" } });
    expect(recs.result).toMatchObject([{ type: "AAAA", content: "100::", proxied: true }]);
    const clash = await cf.dns.records.create({ zone_id, type: "A", name: "api", content: "203.0.113.5" } as never).catch((e) => e);
    expect(clash.errors[0].code).toBe(81062);
    const doms = [];
    for await (const x of cf.workers.domains.list({ account_id, hostname: "api.example.com" })) doms.push(x.service);
    expect(doms).toEqual(["site"]);
    await cf.dns.records.create({ zone_id, type: "A", name: "taken", content: "203.0.113.6" } as never);
    const taken = await cf.workers.domains.update({ account_id, hostname: "taken.example.com", service: "site", zone_id }).catch((e) => e);
    expect(taken.errors[0].code).toBe(100117);
    await cf.workers.domains.delete(d.id!, { account_id });
    expect((await cf.dns.records.list({ zone_id, name: { exact: "api.example.com" } })).result).toEqual([]);
    // The workers.dev subdomain and secrets; the settings show a secret's name, never its text.
    expect(await cf.workers.scripts.subdomain.create("site", { account_id, enabled: true, previews_enabled: false })).toEqual({
      enabled: true,
      previews_enabled: false,
    });
    expect((await cf.workers.scripts.subdomain.get("site", { account_id })).enabled).toBe(true);
    expect(
      await cf.workers.scripts.secrets.update("site", { account_id, name: "API_KEY", text: "s3cret", type: "secret_text" }),
    ).toMatchObject({ name: "API_KEY", type: "secret_text" });
    const secrets = [];
    for await (const x of cf.workers.scripts.secrets.list("site", { account_id })) secrets.push(x.name);
    expect(secrets).toEqual(["API_KEY"]);
    const settings = await cf.workers.scripts.scriptAndVersionSettings.get("site", { account_id });
    expect(settings.bindings).toEqual(
      expect.arrayContaining([
        { type: "plain_text", name: "GREETING", text: "hi" },
        { type: "secret_text", name: "API_KEY" },
      ]),
    );
    await cf.workers.scripts.secrets.delete("API_KEY", { account_id, script_name: "site" });
    expect((await cf.workers.scripts.secrets.get("API_KEY", { account_id, script_name: "site" }).catch((e) => e)).errors[0].code).toBe(
      10056,
    );
  });

  it("KV namespaces through the SDK's kv.namespaces: create, list by title page by page, rename, a duplicate title is 10014, delete (issue 61)", async () => {
    const made = [];
    for (const title of ["orders", "menu-cache", "sessions", "assets", "prices", "staff"])
      made.push(await cf.kv.namespaces.create({ account_id: DEMO_ACCOUNT, title }));
    expect(made[0]).toMatchObject({ title: "orders", supports_url_encoding: true });
    const titles = [];
    for await (const n of cf.kv.namespaces.list({ account_id: DEMO_ACCOUNT, order: "title", per_page: 5 })) titles.push(n.title);
    expect(titles).toEqual(["assets", "menu-cache", "orders", "prices", "sessions", "staff"]);
    const renamed = await cf.kv.namespaces.update(made[0].id, { account_id: DEMO_ACCOUNT, title: "orders-v2" });
    expect(renamed).toMatchObject({ id: made[0].id, title: "orders-v2" });
    expect(await cf.kv.namespaces.get(made[0].id, { account_id: DEMO_ACCOUNT })).toMatchObject({ title: "orders-v2" });
    const again = await cf.kv.namespaces.create({ account_id: DEMO_ACCOUNT, title: "sessions" }).catch((e) => e);
    expect(again).toBeInstanceOf(Cloudflare.BadRequestError);
    expect(again.errors[0]).toMatchObject({ code: 10014, message: "a namespace with this account ID and title already exists" });
    const eu = await cf.kv.namespaces.create({ account_id: DEMO_ACCOUNT, title: "eu-data", jurisdiction: "eu" });
    expect(eu.jurisdiction).toBe("eu");
    for (const n of [...made, eu]) await cf.kv.namespaces.delete(n.id, { account_id: DEMO_ACCOUNT });
    const gone = await cf.kv.namespaces.get(made[0].id, { account_id: DEMO_ACCOUNT }).catch((e) => e);
    expect(gone).toBeInstanceOf(Cloudflare.NotFoundError);
    expect(edge.namespaces.size).toBe(0);
  });

  it("R2 buckets and D1 databases through the SDK's r2.buckets and d1.database (issue 61)", async () => {
    const b = await cf.r2.buckets.create({
      account_id: DEMO_ACCOUNT,
      name: "bakery-photos",
      locationHint: "weur",
      storageClass: "Standard",
    });
    expect(b).toMatchObject({ name: "bakery-photos", storage_class: "Standard" });
    expect(b.location?.toLowerCase()).toBe("weur");
    expect((await cf.r2.buckets.list({ account_id: DEMO_ACCOUNT })).buckets?.map((x) => x.name)).toEqual(["bakery-photos"]);
    expect((await cf.r2.buckets.edit("bakery-photos", { account_id: DEMO_ACCOUNT, storage_class: "InfrequentAccess" })).storage_class).toBe(
      "InfrequentAccess",
    );
    expect((await cf.r2.buckets.get("bakery-photos", { account_id: DEMO_ACCOUNT })).storage_class).toBe("InfrequentAccess");
    const again = await cf.r2.buckets.create({ account_id: DEMO_ACCOUNT, name: "bakery-photos" }).catch((e) => e);
    expect(again.status).toBe(409);
    expect(again.errors[0].code).toBe(10073);
    const eu = await cf.r2.buckets.create({ account_id: DEMO_ACCOUNT, name: "bakery-photos", "cf-r2-jurisdiction": "eu" });
    expect(eu.jurisdiction).toBe("eu");
    await cf.r2.buckets.delete("bakery-photos", { account_id: DEMO_ACCOUNT });
    await cf.r2.buckets.delete("bakery-photos", { account_id: DEMO_ACCOUNT, "cf-r2-jurisdiction": "eu" });
    expect(edge.buckets.size).toBe(0);

    const d = await cf.d1.database.create({ account_id: DEMO_ACCOUNT, name: "bakery-orders", primary_location_hint: "weur" });
    expect(d).toMatchObject({ name: "bakery-orders", version: "production" });
    const listed = [];
    for await (const x of cf.d1.database.list({ account_id: DEMO_ACCOUNT, name: "bakery-orders" })) listed.push(x.uuid);
    expect(listed).toEqual([d.uuid]);
    await cf.d1.database.query(d.uuid!, { account_id: DEMO_ACCOUNT, sql: "create table orders (id integer, item text)" });
    await cf.d1.database.query(d.uuid!, { account_id: DEMO_ACCOUNT, sql: "insert into orders values (?, ?)", params: ["7", "two ryes"] });
    const rows = [];
    for await (const page of cf.d1.database.query(d.uuid!, { account_id: DEMO_ACCOUNT, sql: "select item from orders" })) rows.push(page);
    expect(JSON.stringify(rows)).toContain("two ryes");
    expect((await cf.d1.database.get(d.uuid!, { account_id: DEMO_ACCOUNT })).num_tables).toBe(1);
    const dup = await cf.d1.database.create({ account_id: DEMO_ACCOUNT, name: "bakery-orders" }).catch((e) => e);
    expect(dup.errors[0].code).toBe(7502);
    await cf.d1.database.delete(d.uuid!, { account_id: DEMO_ACCOUNT });
    expect((await cf.d1.database.get(d.uuid!, { account_id: DEMO_ACCOUNT }).catch((e) => e)).errors[0].code).toBe(7404);
  });
});
