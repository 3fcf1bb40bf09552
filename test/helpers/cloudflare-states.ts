/**
 * One zone as the other tools hold it (issue 49): DNS records, a redirect rule, a page rule, two settings, a Worker and
 * its route — made on the edge emulator the way the service's Terraform provider makes them (its API bodies, by REST),
 * and written as that provider's v5 state, its v4 state, and a pulumi-cloudflare v6 stack export (shapes from the
 * providers' schemas and state upgraders: docs/migrating-in.md). `pulumi-ops migrate` reads each; the tests hold its
 * program to zero writes against the zone made here.
 */
export const SCRIPT = "export default {\n  async fetch(request, env) {\n    return new Response(`hello from ${env.GREETING}`);\n  },\n};\n";

/** The zone's records: [Terraform name, type, name, content or data, extra]. */
export const RECORDS: [string, string, string, string | Record<string, unknown>, Record<string, unknown>][] = [
  ["apex", "A", "example.com", "203.0.113.10", { proxied: true }],
  ["www", "CNAME", "www.example.com", "example.com", { proxied: true }],
  ["mail", "MX", "example.com", "mx1.mail.example.net", { priority: 10, ttl: 3600 }],
  ["spf", "TXT", "example.com", '"v=spf1 include:_spf.mail.example.net ~all"', { ttl: 3600, comment: "mail sender policy" }],
  ["caa", "CAA", "example.com", { flags: 0, tag: "issue", value: "letsencrypt.org" }, { ttl: 3600 }],
  ["api", "A", "api.example.com", "203.0.113.20", { ttl: 300 }],
];
export const RULE = {
  ref: "old-blog",
  description: "old blog to news",
  expression: '(http.request.uri.path eq "/blog")',
  action: "redirect",
  action_parameters: { from_value: { status_code: 301, target_url: { value: "https://example.com/news" }, preserve_query_string: true } },
};
export const PAGE_RULE = { target: "example.com/static/*", actions: { cache_level: "cache_everything", browser_cache_ttl: 7200 } };
export const SETTINGS = { ssl: "full", min_tls_version: "1.2" };
export const ROUTE = "example.com/app/*";

/** Makes the zone's objects by REST, as the Terraform provider's creates send them. */
export async function seedZone(url: string, token: string, zoneId: string, accountId: string): Promise<void> {
  const api = async (method: string, path: string, body: unknown, type = "application/json") => {
    const res = await fetch(`${url}/client/v4${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(type ? { "content-type": type } : {}) },
      body: body instanceof FormData ? body : JSON.stringify(body),
    });
    const answer = (await res.json()) as { success: boolean; errors: unknown };
    if (!answer.success) throw new Error(`${method} ${path}: ${JSON.stringify(answer.errors)}`);
  };
  for (const [, type, name, value, extra] of RECORDS) {
    await api("POST", `/zones/${zoneId}/dns_records`, {
      type,
      name,
      ...(typeof value === "string" ? { content: value } : { data: value }),
      ttl: 1,
      ...extra,
    });
  }
  await api("PUT", `/zones/${zoneId}/rulesets/phases/http_request_dynamic_redirect/entrypoint`, { rules: [RULE] });
  await api("POST", `/zones/${zoneId}/pagerules`, {
    targets: [{ target: "url", constraint: { operator: "matches", value: PAGE_RULE.target } }],
    actions: Object.entries(PAGE_RULE.actions).map(([id, value]) => ({ id, value })),
    priority: 1,
    status: "active",
  });
  for (const [id, value] of Object.entries(SETTINGS)) await api("PATCH", `/zones/${zoneId}/settings/${id}`, { value });
  const form = new FormData();
  form.append(
    "metadata",
    new Blob(
      [
        JSON.stringify({
          main_module: "worker.js",
          compatibility_date: "2026-10-01",
          bindings: [{ type: "plain_text", name: "GREETING", text: "the edge" }],
        }),
      ],
      { type: "application/json" },
    ),
    "metadata.json",
  );
  form.append("worker.js", new Blob([SCRIPT], { type: "application/javascript+module" }), "worker.js");
  await api("PUT", `/accounts/${accountId}/workers/scripts/site`, form, "");
  await api("POST", `/zones/${zoneId}/workers/routes`, { pattern: ROUTE, script: "site" });
}

const id = (n: number) => n.toString(16).padStart(32, "0");
const tfResource = (type: string, name: string, attributes: Record<string, unknown>, schemaVersion = 0) => ({
  mode: "managed",
  type,
  name,
  provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
  instances: [{ schema_version: schemaVersion, attributes, sensitive_attributes: [] }],
});
const tfState = (resources: unknown[]) => ({
  version: 4,
  terraform_version: "1.14.2",
  serial: 12,
  lineage: "5a1f0c2e-8d0b-4c53-9f43-2f6a1d3c9b11",
  outputs: {},
  resources,
  check_results: null,
});

/** The v5 provider's state: full names, `data` an object, a dynamic setting value as `{value, type}`, bindings listed. */
export function terraformV5(zoneId: string, accountId: string) {
  return tfState([
    {
      mode: "data",
      type: "cloudflare_zone",
      name: "main",
      provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
      instances: [{ schema_version: 0, attributes: { zone_id: zoneId, name: "example.com" } }],
    },
    ...RECORDS.map(([tf, type, name, value, extra], i) =>
      tfResource(
        "cloudflare_dns_record",
        tf,
        {
          id: id(i + 1),
          zone_id: zoneId,
          name,
          type,
          content: typeof value === "string" ? value : `0 issue "letsencrypt.org"`,
          data: typeof value === "string" ? null : { flags: { value: 0, type: "number" }, tag: "issue", value: "letsencrypt.org" },
          ttl: extra.proxied ? 1 : (extra.ttl ?? 1),
          proxied: extra.proxied ?? false,
          priority: extra.priority ?? null,
          comment: extra.comment ?? null,
          tags: [],
          settings: { ipv4_only: false, ipv6_only: false, flatten_cname: false },
          meta: "{}",
          proxiable: type !== "MX" && type !== "TXT" && type !== "CAA",
          created_on: "2026-09-01T10:00:00Z",
          modified_on: "2026-09-01T10:00:00Z",
        },
        500,
      ),
    ),
    tfResource(
      "cloudflare_ruleset",
      "redirects",
      {
        id: id(100),
        zone_id: zoneId,
        account_id: null,
        kind: "zone",
        name: "default",
        phase: "http_request_dynamic_redirect",
        description: "",
        rules: [{ id: id(101), ...RULE, enabled: true, logging: null, ratelimit: null, exposed_credential_check: null }],
        version: "1",
        last_updated: "2026-09-01T10:00:00Z",
      },
      500,
    ),
    tfResource(
      "cloudflare_page_rule",
      "static",
      {
        id: id(200),
        zone_id: zoneId,
        target: PAGE_RULE.target,
        priority: 1,
        status: "active",
        actions: { ...PAGE_RULE.actions, forwarding_url: null, always_use_https: null, cache_key_fields: null, cache_ttl_by_status: null },
      },
      500,
    ),
    ...Object.entries(SETTINGS).map(([setting, value]) =>
      tfResource(
        "cloudflare_zone_setting",
        setting,
        {
          id: setting,
          zone_id: zoneId,
          setting_id: setting,
          value: { value, type: "string" },
          editable: true,
          enabled: null,
          modified_on: "2026-09-01T10:00:00Z",
        },
        500,
      ),
    ),
    tfResource(
      "cloudflare_workers_script",
      "site",
      {
        id: "site",
        account_id: accountId,
        script_name: "site",
        content: SCRIPT,
        main_module: "worker.js",
        body_part: null,
        compatibility_date: "2026-10-01",
        compatibility_flags: [],
        bindings: [{ type: "plain_text", name: "GREETING", text: "the edge" }],
        placement: null,
      },
      500,
    ),
    tfResource("cloudflare_workers_route", "app", { id: id(300), zone_id: zoneId, pattern: ROUTE, script: "site" }, 500),
    tfResource("cloudflare_zone_dnssec", "main", { id: zoneId, zone_id: zoneId, status: "active" }),
  ]);
}

/** The v4 provider's state: names as written with `hostname`, one-item blocks as lists, unset fields as zero values. */
export function terraformV4(zoneId: string, accountId: string) {
  const relative = (n: string) => (n === "example.com" ? "@" : n.replace(/\.example\.com$/, ""));
  return tfState([
    ...RECORDS.map(([tf, type, name, value, extra], i) =>
      tfResource(
        "cloudflare_record",
        tf,
        {
          id: id(i + 1),
          zone_id: zoneId,
          name: relative(name),
          hostname: name,
          type,
          value: "",
          content: typeof value === "string" ? value : "",
          data:
            typeof value === "string"
              ? []
              : [
                  {
                    flags: "0",
                    tag: "issue",
                    content: "letsencrypt.org",
                    value: "",
                    algorithm: 0,
                    port: 0,
                    priority: 0,
                    weight: 0,
                    target: "",
                  },
                ],
          ttl: extra.proxied ? 1 : (extra.ttl ?? 1),
          proxied: extra.proxied ?? false,
          priority: extra.priority ?? 0,
          comment: extra.comment ?? "",
          tags: [],
          allow_overwrite: false,
          metadata: {},
          proxiable: true,
        },
        3,
      ),
    ),
    tfResource(
      "cloudflare_ruleset",
      "redirects",
      {
        id: id(100),
        zone_id: zoneId,
        account_id: null,
        kind: "zone",
        name: "default",
        phase: "http_request_dynamic_redirect",
        description: "",
        rules: [
          {
            id: id(101),
            ref: RULE.ref,
            description: RULE.description,
            expression: RULE.expression,
            action: RULE.action,
            enabled: true,
            action_parameters: [
              {
                from_value: [
                  { status_code: 301, target_url: [{ value: "https://example.com/news", expression: null }], preserve_query_string: true },
                ],
                headers: [],
                rules: null,
              },
            ],
            logging: [],
            ratelimit: [],
          },
        ],
      },
      1,
    ),
    tfResource("cloudflare_page_rule", "static", {
      id: id(200),
      zone_id: zoneId,
      target: PAGE_RULE.target,
      priority: 1,
      status: "active",
      actions: [
        {
          cache_level: "cache_everything",
          browser_cache_ttl: "7200",
          always_use_https: false,
          disable_apps: false,
          edge_cache_ttl: 0,
          forwarding_url: [],
          minify: [],
          ssl: "",
          cache_key_fields: [],
        },
      ],
    }),
    tfResource(
      "cloudflare_zone_settings_override",
      "main",
      {
        id: zoneId,
        zone_id: zoneId,
        settings: [
          {
            ssl: "full",
            min_tls_version: "1.2",
            always_use_https: "",
            brotli: "",
            browser_cache_ttl: 0,
            minify: [],
            security_header: [],
            zero_rtt: "",
          },
        ],
        initial_settings: [{ ssl: "flexible", min_tls_version: "1.0" }],
        zone_status: "active",
        zone_type: "full",
      },
      2,
    ),
    tfResource("cloudflare_worker_script", "site", {
      id: "site",
      account_id: accountId,
      name: "site",
      content: SCRIPT,
      module: true,
      compatibility_date: "2026-10-01",
      compatibility_flags: [],
      plain_text_binding: [{ name: "GREETING", text: "the edge" }],
      secret_text_binding: [],
      kv_namespace_binding: [],
    }),
    tfResource("cloudflare_worker_route", "app", { id: id(300), zone_id: zoneId, pattern: ROUTE, script_name: "site" }),
  ]);
}

/** A pulumi-cloudflare v6 stack export (`pulumi stack export --show-secrets`): camelCase, one secret in plaintext. */
export function pulumiCloudflareV6(zoneId: string, accountId: string) {
  const SIG = "4dabf18193072939515e22adb298388d";
  const secret = (v: unknown) => ({ [SIG]: "1b47061264138c4ac30d75fd1eb44270", plaintext: JSON.stringify(v) });
  const res = (token: string, name: string, resourceId: string, outputs: Record<string, unknown>) => ({
    urn: `urn:pulumi:prod::edge::${token}::${name}`,
    custom: true,
    id: resourceId,
    type: token,
    inputs: {},
    outputs: { ...outputs, __meta: '{"schema_version":"500"}' },
    provider: `urn:pulumi:prod::edge::pulumi:providers:cloudflare::default_6_13_0::${id(999)}`,
  });
  return {
    version: 3,
    deployment: {
      manifest: { time: "2026-11-20T10:00:00Z", magic: "x", version: "v3.259.0" },
      resources: [
        { urn: "urn:pulumi:prod::edge::pulumi:pulumi:Stack::edge-prod", custom: false, type: "pulumi:pulumi:Stack", outputs: {} },
        {
          urn: `urn:pulumi:prod::edge::pulumi:providers:cloudflare::default_6_13_0`,
          custom: true,
          id: id(999),
          type: "pulumi:providers:cloudflare",
          inputs: { apiToken: secret("t0ken") },
          outputs: {},
        },
        ...RECORDS.map(([tf, type, name, value, extra], i) =>
          res("cloudflare:index/dnsRecord:DnsRecord", tf, id(i + 1), {
            id: id(i + 1),
            zoneId,
            name,
            type,
            content: typeof value === "string" ? value : `0 issue "letsencrypt.org"`,
            ...(typeof value === "string" ? {} : { data: { flags: 0, tag: "issue", value: "letsencrypt.org" } }),
            ttl: extra.proxied ? 1 : (extra.ttl ?? 1),
            proxied: extra.proxied ?? false,
            ...(extra.priority ? { priority: extra.priority } : {}),
            ...(extra.comment ? { comment: extra.comment } : {}),
            tags: [],
            settings: { ipv4Only: false, ipv6Only: false, flattenCname: false },
          }),
        ),
        res("cloudflare:index/ruleset:Ruleset", "redirects", id(100), {
          id: id(100),
          zoneId,
          kind: "zone",
          name: "default",
          phase: "http_request_dynamic_redirect",
          rules: [
            {
              id: id(101),
              ref: RULE.ref,
              description: RULE.description,
              expression: RULE.expression,
              action: RULE.action,
              enabled: true,
              actionParameters: {
                fromValue: { statusCode: 301, targetUrl: { value: "https://example.com/news" }, preserveQueryString: true },
              },
            },
          ],
        }),
        res("cloudflare:index/pageRule:PageRule", "static", id(200), {
          id: id(200),
          zoneId,
          target: PAGE_RULE.target,
          priority: 1,
          status: "active",
          actions: { cacheLevel: "cache_everything", browserCacheTtl: 7200 },
        }),
        ...Object.entries(SETTINGS).map(([setting, value]) =>
          res("cloudflare:index/zoneSetting:ZoneSetting", setting, setting, {
            id: setting,
            zoneId,
            settingId: setting,
            value,
            editable: true,
          }),
        ),
        res("cloudflare:index/workersScript:WorkersScript", "site", "site", {
          id: "site",
          accountId,
          scriptName: "site",
          content: SCRIPT,
          mainModule: "worker.js",
          compatibilityDate: "2026-10-01",
          bindings: [
            { type: "plain_text", name: "GREETING", text: "the edge" },
            { type: "secret_text", name: "API_KEY", text: secret("s3cret") },
          ],
        }),
        res("cloudflare:index/workersRoute:WorkersRoute", "app", id(300), { id: id(300), zoneId, pattern: ROUTE, script: "site" }),
        res("aws:s3/bucket:Bucket", "logs", "logs-bucket", { bucket: "logs-bucket" }),
      ],
    },
  };
}

/** The zone's records as an octoDNS zone file (zones/example.com.yaml), with an ignored record and the apex NS. */
export const OCTODNS_ZONE = `---
'':
  - type: A
    value: 203.0.113.10
    octodns:
      cloudflare:
        proxied: true
  - type: CAA
    ttl: 3600
    value:
      flags: 0
      tag: issue
      value: letsencrypt.org
  - type: MX
    ttl: 3600
    values:
      - exchange: mx1.mail.example.net.
        preference: 10
  - type: NS
    values:
      - ns1.dns.example.net.
      - ns2.dns.example.net.
  - type: TXT
    ttl: 3600
    value: v=spf1 include:_spf.mail.example.net ~all
_acme-challenge:
  type: TXT
  value: left-to-the-acme-client
  octodns:
    ignored: true
api:
  type: A
  ttl: 300
  value: 203.0.113.20
www:
  type: CNAME
  value: example.com.
  octodns:
    cloudflare:
      proxied: true
`;

/**
 * A v4 `cloudflare_zone_settings_override` as the v4 provider leaves it after its apply (issue 57): every setting it
 * read into `settings` (28 here, as a Free zone answers them), and `initial_settings`, what the zone had before the
 * first apply. The old program set three: ssl, min_tls_version and always_use_https. `binary_ast` is one the v4
 * provider still read and the service no longer lists.
 */
export function terraformV4SettingsOverride(zoneId: string, zoneName = "example.com") {
  const initial = {
    always_online: "off",
    always_use_https: "off",
    automatic_https_rewrites: "on",
    binary_ast: "off",
    brotli: "on",
    browser_cache_ttl: 14400,
    browser_check: "on",
    cache_level: "aggressive",
    challenge_ttl: 1800,
    cname_flattening: "flatten_at_root",
    development_mode: "off",
    early_hints: "off",
    email_obfuscation: "on",
    hotlink_protection: "off",
    http3: "on",
    ip_geolocation: "on",
    ipv6: "on",
    max_upload: 100,
    min_tls_version: "1.0",
    opportunistic_encryption: "on",
    opportunistic_onion: "on",
    pseudo_ipv4: "off",
    rocket_loader: "off",
    security_level: "medium",
    server_side_exclude: "on",
    ssl: "flexible",
    tls_1_3: "on",
    websockets: "on",
  };
  const settings = { ...initial, ssl: "full", min_tls_version: "1.2", always_use_https: "on", binary_ast: "on" };
  const zone = {
    mode: "data",
    type: "cloudflare_zone",
    name: "main",
    provider: 'provider["registry.terraform.io/cloudflare/cloudflare"]',
    instances: [{ schema_version: 0, attributes: { id: zoneId, zone_id: zoneId, name: zoneName } }],
  };
  return tfState([
    zone,
    tfResource(
      "cloudflare_zone_settings_override",
      "main",
      {
        id: zoneId,
        zone_id: zoneId,
        settings: [settings],
        initial_settings: [initial],
        initial_settings_read_at: "2026-03-01T10:00:00Z",
        readonly_settings: ["http2"],
        zone_status: "active",
        zone_type: "full",
      },
      2,
    ),
  ]);
}
