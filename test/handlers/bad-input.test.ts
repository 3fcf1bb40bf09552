/**
 * Bad input, for every resource: at least ten invalid inputs each (wrong types, ranges, formats, missing
 * companions, unknown enum values, oversize text, hostile strings: path separators, control characters, very long
 * values). Each is refused by `check` — what `pulumi preview` runs — with a failure on the named property whose
 * reason is the provider's own sentence saying what to do, not a bare type error. While every case runs, all six
 * emulators are up and the provider is pointed at them: they must log no request at all.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../provider/door";
import { registry } from "../../provider/registry";
import { generateSchema } from "../../scripts/gen-schema";
import {
  ControlEmulator,
  DEMO_ACCOUNT,
  DEMO_TOKEN,
  EdgeEmulator,
  type Emulator,
  PAGES_USER_TOKEN,
  PagesEmulator,
  POSTS_USER_TOKEN,
  PostsEmulator,
  RunnerEmulator,
  SkillsEmulator,
} from "../../emulators";
import { printTally, tally } from "../helpers/reliability";

const EX = path.resolve(__dirname, "../../examples/ai-host");
const SKILL_MD = path.join(EX, "skills/oven-care/SKILL.md");
const long = (n: number) => "x".repeat(n);
const counted = tally();

type Case = [what: string, change: Record<string, unknown>, property: string];

/** A valid input per resource, then the cases: each changes the valid input (undefined removes a key). */
const TABLE: Record<string, { valid: Record<string, unknown>; cases: Case[] }> = {
  "edge:DnsRecord": {
    valid: { zoneName: "example.com", type: "A", name: "www", content: "203.0.113.10", ttl: 300 },
    cases: [
      ["unknown type", { type: "AA" }, "type"],
      ["ttl below 30", { ttl: 29 }, "ttl"],
      ["a tag given twice", { tags: ["env:prod", "ENV:prod"] }, "tags"],
      ["a tag with no name", { tags: [":prod"] }, "tags.0"],
      ["ttl as text", { ttl: "300" }, "ttl"],
      ["ttl fraction", { ttl: 300.5 }, "ttl"],
      ["A content not an address", { content: "999.1.1.1" }, "content"],
      ["MX without its priority", { type: "MX", content: "mail.example.net" }, "priority"],
      ["priority on an A record", { priority: 10 }, "priority"],
      ["proxied TXT", { type: "TXT", content: "hello", proxied: true }, "proxied"],
      ["proxied private address", { content: "10.0.0.1", proxied: true }, "proxied"],
      ["name with path separators", { name: "../etc/passwd" }, "name"],
      ["very long name", { name: `${"a".repeat(63)}.`.repeat(5) }, "name"],
      ["comment with a control character", { comment: "ring\u0007" }, "comment"],
      ["comment too long for any plan", { comment: long(501) }, "comment"],
      ["both zoneId and zoneName", { zoneId: "0".repeat(32) }, "zoneName"],
      ["zoneId not an id", { zoneName: undefined, zoneId: "../zones" }, "zoneId"],
      ["content missing", { content: undefined }, "content"],
      ["a misspelt property", { proxed: true }, "proxed"],
    ],
  },
  "edge:DnsRecordSet": {
    valid: { zoneName: "example.com", records: { www: { type: "A", name: "www", content: "203.0.113.10", ttl: 300 } } },
    cases: [
      ["a record's unknown type", { records: { www: { type: "AA", name: "www", content: "203.0.113.10" } } }, "records.www.type"],
      ["a record's ttl below 30", { records: { www: { type: "A", name: "www", content: "203.0.113.10", ttl: 20 } } }, "records.www.ttl"],
      ["a record's content not an address", { records: { www: { type: "A", name: "www", content: "999.1.1.1" } } }, "records.www.content"],
      [
        "an MX record without its priority",
        { records: { mx: { type: "MX", name: "@", content: "mail.example.net" } } },
        "records.mx.priority",
      ],
      ["a proxied TXT record", { records: { t: { type: "TXT", name: "t", content: "hello", proxied: true } } }, "records.t.proxied"],
      [
        "a record's name with path separators",
        { records: { www: { type: "A", name: "../etc/passwd", content: "203.0.113.10" } } },
        "records.www.name",
      ],
      [
        "a record's misspelt property",
        { records: { www: { type: "A", name: "www", content: "203.0.113.10", proxed: true } } },
        "records.www.proxed",
      ],
      ["a key with a space", { records: { "w w": { type: "A", name: "www", content: "203.0.113.10" } } }, "records.w w"],
      [
        "two keys for one record",
        { records: { a: { type: "A", name: "www", content: "203.0.113.10" }, b: { type: "A", name: "WWW", content: "203.0.113.10" } } },
        "records.b",
      ],
      ["records missing", { records: undefined }, "records"],
      ["records a list", { records: [{ type: "A", name: "www", content: "203.0.113.10" }] }, "records"],
      ["both zoneId and zoneName", { zoneId: "0".repeat(32) }, "zoneName"],
      ["a misspelt property", { record: {} }, "record"],
      ["ignore without authoritative", { ignore: ["_acme-challenge*"] }, "ignore"],
      ["an ignore pattern with a bad type list", { authoritative: true, ignore: ["www TXT;MX"] }, "ignore.0"],
      ["maxChangePercent over 100", { maxChangePercent: 150 }, "maxChangePercent"],
    ],
  },
  "edge:ZoneSetting": {
    valid: { zoneName: "example.com", settingId: "ssl", value: "full" },
    cases: [
      ["unknown value of a known setting", { value: "bogus" }, "value"],
      ["value with a newline", { settingId: "always_use_https", value: "on\n" }, "value"],
      ["value empty", { value: "" }, "value"],
      ["value as a number", { value: 1 }, "value"],
      ["value very long", { value: long(100) }, "value"],
      ["settingId with capitals and punctuation", { settingId: "SSL!" }, "settingId"],
      ["settingId with path separators", { settingId: "../settings" }, "settingId"],
      ["settingId missing", { settingId: undefined }, "settingId"],
      ["zoneName not a domain", { zoneName: "not a domain" }, "zoneName"],
      ["zoneId with a path", { zoneName: undefined, zoneId: "123/../zones" }, "zoneId"],
      ["no zone at all", { zoneName: undefined }, "zoneId"],
    ],
  },
  "edge:PageRule": {
    valid: { zoneName: "example.com", targets: ["example.com/static/*"], actions: [{ id: "cache_level", value: "cache_everything" }] },
    cases: [
      ["no target", { targets: [] }, "targets"],
      ["a misspelt property of an action", { actions: [{ id: "cache_level", valeu: "cache_everything" }] }, "actions.0.valeu"],
      ["two targets", { targets: ["example.com/a*", "example.com/b*"] }, "targets"],
      ["target outside the zone", { targets: ["other.org/*"] }, "targets"],
      ["target with a control character", { targets: ["example.com/\u0000*"] }, "targets"],
      ["no action", { actions: [] }, "actions"],
      ["unknown action", { actions: [{ id: "make_fast" }] }, "actions.0.value"],
      ["unknown cache level", { actions: [{ id: "cache_level", value: "everything" }] }, "actions.0.value"],
      ["flag with a value", { actions: [{ id: "always_use_https", value: "on" }] }, "actions.0.value"],
      ["forwarding without a url", { actions: [{ id: "forwarding_url", value: { status_code: 301 } }] }, "actions.0.value"],
      ["edge cache ttl out of range", { actions: [{ id: "edge_cache_ttl", value: 0 }] }, "actions.0.value"],
      ["priority zero", { priority: 0 }, "priority"],
      ["status unknown", { status: "paused" }, "status"],
    ],
  },
  "edge:RulesetRule": {
    valid: {
      zoneName: "example.com",
      phase: "http_request_dynamic_redirect",
      expression: 'http.request.uri.path eq "/old"',
      action: "redirect",
      actionParameters: { from_value: { target_url: { value: "https://example.com/new" }, status_code: 301 } },
    },
    cases: [
      ["an unknown phase", { phase: "http_request_everything" }, "phase"],
      ["an action the phase does not take", { action: "block" }, "action"],
      ["a redirect without a target", { actionParameters: { from_value: { status_code: 301 } } }, "actionParameters"],
      [
        "a redirect status that is not one",
        { actionParameters: { from_value: { target_url: { value: "https://example.com/" }, status_code: 200 } } },
        "actionParameters",
      ],
      ["unbalanced quote", { expression: 'http.request.uri.path eq "/old' }, "expression"],
      ["a rate limit object outside http_ratelimit", { ratelimit: { period: 10 } }, "ratelimit"],
      ["description too long", { description: long(501) }, "description"],
      ["a position with two places", { position: { before: "a", index: 1 } }, "position"],
      ["a ref with a space", { ref: "my rule" }, "ref"],
      ["enabled as text", { enabled: "yes" }, "enabled"],
    ],
  },
  "edge:FirewallRule": {
    valid: { zoneName: "example.com", filter: { expression: 'http.request.uri.path eq "/admin"' }, action: "block" },
    cases: [
      ["unknown action", { action: "drop" }, "action"],
      ["a misspelt nested property", { filter: { expresion: 'http.request.uri.path eq "/admin"' } }, "filter.expresion"],
      ["unbalanced quote", { filter: { expression: 'http.request.uri.path eq "/admin' } }, "filter.expression"],
      ["unbalanced brace", { filter: { expression: "ip.src in {198.51.100.0/24" } }, "filter.expression"],
      ["invalid address", { filter: { expression: "ip.src eq 300.1.1.1" } }, "filter.expression"],
      ["invalid CIDR", { filter: { expression: "ip.src in {198.51.100.0/33}" } }, "filter.expression"],
      ["unknown field", { filter: { expression: 'http.nonsense eq "x"' } }, "filter.expression"],
      ["empty expression", { filter: { expression: "" } }, "filter.expression"],
      ["description too long", { description: long(501) }, "description"],
      ["description with a control character", { description: "a\u001bb" }, "description"],
      ["paused as text", { paused: "yes" }, "paused"],
      ["zoneName with path separators", { zoneName: "../example.com" }, "zoneName"],
    ],
  },
  "edge:RateLimit": {
    valid: {
      zoneName: "example.com",
      threshold: 10,
      period: 60,
      action: { mode: "ban", timeout: 600 },
      match: { request: { url: "example.com/login*" } },
    },
    cases: [
      ["threshold zero", { threshold: 0 }, "threshold"],
      ["a misspelt nested property", { action: { mode: "ban", timout: 600 } }, "action.timout"],
      ["threshold fraction", { threshold: 2.5 }, "threshold"],
      ["period too short", { period: 5 }, "period"],
      ["period too long", { period: 100_000 }, "period"],
      ["unknown mode", { action: { mode: "smite" } }, "action.mode"],
      ["timeout too long", { action: { mode: "ban", timeout: 90_000 } }, "action.timeout"],
      ["ban without a timeout", { action: { mode: "ban" } }, "action.timeout"],
      ["a period the rulesets engine does not offer", { period: 25 }, "period"],
      ["url outside the zone", { match: { request: { url: "other.org/*" } } }, "match"],
      ["unknown method", { match: { request: { url: "example.com/login*", methods: ["FETCH"] } } }, "match.request.methods.0"],
      ["description with a control character", { description: "a\u0000" }, "description"],
    ],
  },
  "edge:WorkerRoute": {
    valid: { zoneName: "example.com", pattern: "example.com/api/*", script: "api" },
    cases: [
      ["pattern empty", { pattern: "" }, "pattern"],
      ["pattern with a query string", { pattern: "example.com/api?x=1" }, "pattern"],
      ["pattern with an infix wildcard", { pattern: "example.com/*.jpg" }, "pattern"],
      ["pattern with a wildcard inside the host", { pattern: "api.*.example.com/*" }, "pattern"],
      ["pattern outside the zone", { pattern: "example.org/*" }, "pattern"],
      ["pattern with a space", { pattern: "example.com/a b" }, "pattern"],
      ["pattern without a host", { pattern: "/api/*" }, "pattern"],
      ["script with capitals", { script: "Api" }, "script"],
      ["script with a path", { script: "../api" }, "script"],
      ["both zoneId and zoneName", { zoneId: "abc" }, "zoneName"],
      ["neither zoneId nor zoneName", { zoneName: undefined }, "zoneId"],
      ["adopt not a boolean", { adopt: "yes" }, "adopt"],
    ],
  },
  "edge:WorkerDomain": {
    valid: { zoneName: "example.com", hostname: "api.example.com", script: "api" },
    cases: [
      ["hostname empty", { hostname: "" }, "hostname"],
      ["hostname a wildcard", { hostname: "*.example.com" }, "hostname"],
      ["hostname outside the zone", { hostname: "api.example.org" }, "hostname"],
      ["hostname with a path", { hostname: "example.com/api" }, "hostname"],
      ["hostname with a space", { hostname: "api example.com" }, "hostname"],
      ["script missing", { script: undefined }, "script"],
      ["script with capitals", { script: "Api" }, "script"],
      ["environment empty", { environment: "" }, "environment"],
      ["both zoneId and zoneName", { zoneId: "abc" }, "zoneName"],
      ["neither zoneId nor zoneName", { zoneName: undefined }, "zoneId"],
      ["accountId not an id", { accountId: "acct-1" }, "accountId"],
    ],
  },
  "edge:KvNamespace": {
    valid: { title: "bakery-sessions" },
    cases: [
      ["title empty", { title: "" }, "title"],
      ["title missing", { title: undefined }, "title"],
      ["title a number", { title: 42 }, "title"],
      ["title very long", { title: long(513) }, "title"],
      ["jurisdiction unknown", { jurisdiction: "asia" }, "jurisdiction"],
      ["jurisdiction upper case", { jurisdiction: "EU" }, "jurisdiction"],
      ["jurisdiction a list", { jurisdiction: ["eu"] }, "jurisdiction"],
      ["accountId not an id", { accountId: "acct-1" }, "accountId"],
      ["accountId upper case", { accountId: "0A1B2C3D4E5F60718293A4B5C6D7E8F9" }, "accountId"],
      ["adopt not a boolean", { adopt: "yes" }, "adopt"],
    ],
  },
  "edge:R2Bucket": {
    valid: { name: "bakery-photos" },
    cases: [
      ["name too short", { name: "ab" }, "name"],
      ["name with capitals", { name: "Photos" }, "name"],
      ["name with an underscore", { name: "bakery_photos" }, "name"],
      ["name ending with a hyphen", { name: "photos-" }, "name"],
      ["name very long", { name: long(64) }, "name"],
      ["jurisdiction unknown", { jurisdiction: "asia" }, "jurisdiction"],
      ["location hint unknown", { locationHint: "mars" }, "locationHint"],
      ["location hint upper case", { locationHint: "WEUR" }, "locationHint"],
      ["storage class unknown", { storageClass: "Glacier" }, "storageClass"],
      ["accountId not an id", { accountId: "acct-1" }, "accountId"],
    ],
  },
  "edge:D1Database": {
    valid: { name: "bakery-orders" },
    cases: [
      ["name empty", { name: "" }, "name"],
      ["name a number", { name: 42 }, "name"],
      ["name a list", { name: ["orders"] }, "name"],
      ["location hint a number", { primaryLocationHint: 1 }, "primaryLocationHint"],
      ["accountId upper case", { accountId: "0A1B2C3D4E5F60718293A4B5C6D7E8F9" }, "accountId"],
      ["name missing", { name: undefined }, "name"],
      ["location hint unknown", { primaryLocationHint: "mars" }, "primaryLocationHint"],
      ["location hint upper case", { primaryLocationHint: "WEUR" }, "primaryLocationHint"],
      ["accountId not an id", { accountId: "acct-1" }, "accountId"],
      ["adopt not a boolean", { adopt: "yes" }, "adopt"],
    ],
  },
  "edge:WorkerScript": {
    valid: { accountId: DEMO_ACCOUNT, name: "edge-headers", content: "export default { fetch() { return new Response('ok') } }" },
    cases: [
      ["name with capitals", { name: "Edge" }, "name"],
      ["name with path separators", { name: "../../etc" }, "name"],
      ["name very long", { name: long(64) }, "name"],
      ["name empty", { name: "" }, "name"],
      ["content empty", { content: "" }, "content"],
      ["both content and source", { source: "edge.js" }, "source"],
      ["neither content nor source", { content: undefined }, "content"],
      ["source file missing", { content: undefined, source: "does/not/exist.js" }, "source"],
      ["content over 10 MiB", { content: long(10 * 1024 * 1024 + 1) }, "content"],
      ["accountId not an id", { accountId: "acct-1" }, "accountId"],
      ["a variable named like no identifier", { vars: { "1BAD": "x" } }, "vars.1BAD"],
      ["a secret both a variable and a secret", { vars: { K: "1" }, secrets: { K: "2" } }, "secrets"],
      ["preview URLs without workers.dev", { workersDev: false, previewUrls: true }, "previewUrls"],
      ["a binding of an unknown type", { bindings: [{ name: "X", type: "hyperdrive" }] }, "bindings.0.type"],
      ["a KV binding without its namespace", { bindings: [{ name: "KV", type: "kv_namespace" }] }, "bindings.0.namespaceId"],
      [
        "a binding named like a variable",
        { vars: { DB: "x" }, bindings: [{ name: "DB", type: "d1", databaseId: "u" }] },
        "bindings[0].name",
      ],
      ["accountId with path separators", { accountId: "../accounts" }, "accountId"],
    ],
  },
  "pages:PagePost": {
    valid: { pageId: "200000000000001", message: "Hello", published: false },
    cases: [
      ["pageId not numeric", { pageId: "bakery" }, "pageId"],
      ["pageId with path separators", { pageId: "../me/feed" }, "pageId"],
      ["nothing to post", { message: undefined }, "message"],
      ["message over 63206 characters", { message: long(63207) }, "message"],
      ["link not http(s)", { link: "javascript:alert(1)" }, "link"],
      ["schedule not a time", { scheduledPublishTime: "tomorrow" }, "scheduledPublishTime"],
      ["schedule in the past", { scheduledPublishTime: "2020-01-01T00:00:00Z" }, "scheduledPublishTime"],
      ["schedule in milliseconds", { scheduledPublishTime: Date.now() + 86_400_000 }, "scheduledPublishTime"],
      [
        "schedule on a published post",
        { published: true, scheduledPublishTime: new Date(Date.now() + 86_400_000).toISOString() },
        "published",
      ],
      [
        "photo and photos",
        { photo: { url: "https://media.example/a.jpg" }, photos: ["https://media.example/b.jpg", "https://media.example/c.jpg"] },
        "photos",
      ],
      ["photo with both url and file", { photo: { url: "https://media.example/a.jpg", file: "a.jpg" } }, "photo"],
      ["photo file missing", { photo: { file: "no-such-photo.jpg" } }, "photo"],
      ["one photo in photos", { photos: ["https://media.example/a.jpg"] }, "photos"],
      ["published as text", { published: "no" }, "published"],
      ["message only whitespace", { message: " \n\t" }, "message"],
      ["a misspelt property", { mesage: "Hello" }, "mesage"],
    ],
  },
  "pages:PageRole": {
    valid: { pageId: "200000000000001", user: "300000000000003", role: "EDITOR" },
    cases: [
      ["unknown role", { role: "OWNER" }, "role"],
      ["role in lower case", { role: "editor" }, "role"],
      ["role missing", { role: undefined }, "role"],
      ["user not numeric", { user: "bob" }, "user"],
      ["user with path separators", { user: "../../me" }, "user"],
      ["user very long", { user: "1".repeat(40) }, "user"],
      ["user as a number", { user: 300000000000003 }, "user"],
      ["pageId empty", { pageId: "" }, "pageId"],
      ["pageId with a newline", { pageId: "200000000000001\n" }, "pageId"],
      ["pageId missing", { pageId: undefined }, "pageId"],
    ],
  },
  "pages:PageSubscription": {
    valid: { pageId: "200000000000001", subscribedFields: ["feed"] },
    cases: [
      ["no field", { subscribedFields: [] }, "subscribedFields"],
      ["unknown field", { subscribedFields: ["likes"] }, "subscribedFields.0"],
      ["field in capitals", { subscribedFields: ["FEED"] }, "subscribedFields.0"],
      ["field with a control character", { subscribedFields: ["feed\u0000"] }, "subscribedFields.0"],
      ["fields as one string", { subscribedFields: "feed,messages" }, "subscribedFields"],
      ["fields missing", { subscribedFields: undefined }, "subscribedFields"],
      ["pageId not numeric", { pageId: "bakery" }, "pageId"],
      ["pageId with path separators", { pageId: "1/../2" }, "pageId"],
      ["pageId very long", { pageId: "2".repeat(100) }, "pageId"],
      ["pageId as a number", { pageId: 200000000000001 }, "pageId"],
    ],
  },
  "posts:Post": {
    valid: { mediaType: "TEXT", text: "Fresh bread at 7." },
    cases: [
      ["unknown media type", { mediaType: "GIF" }, "mediaType"],
      ["TEXT without text", { text: undefined }, "text"],
      ["text over 500 characters", { text: long(501) }, "text"],
      ["text of 501 emoji", { text: "🍞".repeat(501) }, "text"],
      ["IMAGE without imageUrl", { mediaType: "IMAGE" }, "imageUrl"],
      ["VIDEO without videoUrl", { mediaType: "VIDEO" }, "videoUrl"],
      ["imageUrl on a TEXT post", { imageUrl: "https://media.example/a.jpg" }, "imageUrl"],
      [
        "videoUrl on an IMAGE post",
        { mediaType: "IMAGE", imageUrl: "https://media.example/a.jpg", videoUrl: "https://media.example/v.mp4" },
        "videoUrl",
      ],
      ["imageUrl a local path", { mediaType: "IMAGE", imageUrl: "/etc/passwd" }, "imageUrl"],
      ["imageUrl file: scheme", { mediaType: "IMAGE", imageUrl: "file:///etc/passwd" }, "imageUrl"],
      ["text as a number", { text: 42 }, "text"],
      ["text only whitespace", { text: "   \n " }, "text"],
      ["a misspelt property", { txt: "Fresh bread" }, "txt"],
    ],
  },
  "runner:RunnerModel": {
    valid: { name: "baker", from: "qwen2.5:0.5b", system: "Be brief.", parameters: { temperature: 0.2 } },
    cases: [
      ["inline integer parameter with a fraction", { parameters: { top_k: 2.5 } }, "parameters.top_k"],
      ["inline number parameter as text", { parameters: { temperature: "0.2" } }, "parameters.temperature"],
      ["inline stop as a number", { parameters: { stop: 5 } }, "parameters.stop"],
      ["model name starting with a dot", { name: ".hidden" }, "name"],
      ["model name part over 80 characters", { name: "m".repeat(81) }, "name"],
      ["namespace with a dot", { name: "my.team/model" }, "name"],
      ["name with spaces", { name: "my model" }, "name"],
      ["name with path separators", { name: "../../models" }, "name"],
      ["name with two tags", { name: "a:b:c" }, "name"],
      ["from with spaces", { from: "qwen 2.5" }, "from"],
      ["system without from", { from: undefined }, "from"],
      ["parameter name with a space", { parameters: { "warm th": 1 } }, "parameters.warm th"],
      ["draft that is not a file here", { draft: "no-such-draft.gguf" }, "draft"],
      ["quantize that names nothing", { quantize: "q4 K M" }, "quantize"],
      ["numeric parameter as text", { parameters: { temperature: "hot" } }, "parameters.temperature"],
      ["system prompt over 10,000 characters", { system: long(10_001) }, "system"],
      ["definition file and inline fields", { definitionFile: path.join(EX, "baker.model") }, "definitionFile"],
      [
        "definition file missing",
        { from: undefined, system: undefined, parameters: undefined, definitionFile: "no-such.model" },
        "definitionFile",
      ],
      ["name missing", { name: undefined }, "name"],
    ],
  },
  "skills:Skill": {
    valid: { slug: "oven-care", source: SKILL_MD, category: "ops" },
    cases: [
      ["slug with capitals", { slug: "Oven-Care" }, "slug"],
      ["slug with path separators", { slug: "../oven" }, "slug"],
      ["slug with a double hyphen", { slug: "oven--care" }, "slug"],
      ["slug very long", { slug: `a${"-b".repeat(40)}` }, "slug"],
      ["unknown category", { category: "baking" }, "category"],
      ["tag with a control character", { tags: ["oven\u0007"] }, "tags.0"],
      ["both instruction and source", { instruction: "# Oven care" }, "instruction"],
      ["neither instruction nor source", { source: undefined }, "source"],
      ["source missing", { source: "no/such/SKILL.md" }, "source"],
      [
        "inline skill with a bad name",
        { source: undefined, name: "Oven Care", description: "Use when the oven needs care.", instruction: "# x" },
        "name",
      ],
      [
        "inline skill without workflows",
        {
          source: undefined,
          name: "oven-care",
          description: "Use when the oven needs care.",
          instruction: "# Oven care\n\nJust be careful.",
        },
        "instruction",
      ],
      ["version very long", { version: long(33) }, "version"],
    ],
  },
  "skills:GeneratedSkill": {
    valid: {
      slug: "oven-runbook",
      sources: [path.join(EX, "sources/deck-oven-handbook.md"), path.join(EX, "sources/bake-schedule.md")],
      model: "baker",
      category: "ops",
    },
    cases: [
      ["no source", { sources: [] }, "sources"],
      ["source missing", { sources: ["no/such/file.md"] }, "sources"],
      ["sources too short", { sources: [SKILL_MD] }, "sources"],
      ["source empty path", { sources: [""] }, "sources.0"],
      ["model missing", { model: undefined }, "model"],
      ["model empty", { model: "" }, "model"],
      ["maxAttempts zero", { maxAttempts: 0 }, "maxAttempts"],
      ["maxAttempts eleven", { maxAttempts: 11 }, "maxAttempts"],
      ["topic very long", { topic: long(201) }, "topic"],
      ["prompt very long", { prompt: long(4001) }, "prompt"],
      ["slug with path separators", { slug: "runbooks/../oven" }, "slug"],
    ],
  },
  "control:RemoteDesktopSession": {
    valid: { host: "kiosk.local", username: "ops", password: "kiosk-password-1" },
    cases: [
      ["host missing", { host: undefined }, "host"],
      ["host with a path", { host: "kiosk.local/../etc" }, "host"],
      ["host with a space", { host: "kiosk local" }, "host"],
      ["port not a VNC port", { port: 22 }, "port"],
      ["port as text", { port: "3283" }, "port"],
      ["username empty", { username: "" }, "username"],
      ["username with a quote", { username: 'ops" & do shell script "rm' }, "username"],
      ["username with a control character", { username: "ops\u0007" }, "username"],
      ["password empty", { password: "" }, "password"],
      ["helperUrl not a URL", { helperUrl: "helper.local:8200" }, "helperUrl"],
      ["helperUrl not http(s)", { helperUrl: "file:///etc/passwd" }, "helperUrl"],
      ["waitSeconds zero", { waitSeconds: 0 }, "waitSeconds"],
      ["waitSeconds an hour", { waitSeconds: 3600 }, "waitSeconds"],
      ["a misspelt property", { hostname: "kiosk.local" }, "hostname"],
    ],
  },
  "pages:PageProfile": {
    valid: { pageId: "200000000000001", about: "Bread since 1921" },
    cases: [
      ["pageId missing", { pageId: undefined }, "pageId"],
      ["pageId not numeric", { pageId: "bakery" }, "pageId"],
      ["about as a number", { about: 1921 }, "about"],
      ["website without a domain", { website: "bakery" }, "website"],
      ["website with a space", { website: "https://bakery .example" }, "website"],
      ["phone as a number", { phone: 5550100 }, "phone"],
      ["emails not addresses", { emails: ["bakery"] }, "emails.0"],
      ["emails as text", { emails: "hello@bakery.example" }, "emails"],
      ["hours with an unknown day", { hours: { funday_1_open: "07:00" } }, "hours.funday_1_open"],
      ["hours with a third span", { hours: { mon_3_open: "07:00" } }, "hours.mon_3_open"],
      ["hours with a time past midnight", { hours: { mon_1_close: "24:30" } }, "hours.mon_1_close"],
      ["a misspelt property", { abuot: "x" }, "abuot"],
    ],
  },
  "control:RemoteFile": {
    valid: { path: "/etc/motd", content: "Deployed\n", mode: "644" },
    cases: [
      ["path missing", { path: undefined }, "path"],
      ["path relative", { path: "etc/motd" }, "path"],
      ["path a folder", { path: "/etc/" }, "path"],
      ["path with a line break", { path: "/etc/motd\nrm -rf /" }, "path"],
      ["both content and source", { source: "/etc/hosts" }, "source"],
      ["neither content nor source", { content: undefined }, "content"],
      ["source that cannot be read", { content: undefined, source: "/no/such/file" }, "source"],
      ["content over 256 KiB", { content: long(262_145) }, "content"],
      ["mode symbolic", { mode: "rw-r--r--" }, "mode"],
      ["mode with a digit past 7", { mode: "0648" }, "mode"],
      ["owner with a space", { owner: "ops staff" }, "owner"],
      ["keep as text", { keep: "yes" }, "keep"],
      ["a misspelt property", { contents: "x" }, "contents"],
    ],
  },
  "control:RemoteCommand": {
    valid: { create: "echo hello", delete: "echo bye" },
    cases: [
      ["create empty", { create: "" }, "create"],
      ["create only whitespace", { create: "  \n\t " }, "create"],
      [
        "environment with the applescript interpreter",
        { interpreter: "applescript", create: 'return "ok"', delete: undefined, environment: { NAME: "x" } },
        "environment",
      ],
      ["a misspelt property", { triggerz: ["1"] }, "triggerz"],
      ["create missing", { create: undefined }, "create"],
      ["create over 100,000 characters", { create: long(100_001) }, "create"],
      ["update empty", { update: "" }, "update"],
      ["delete empty", { delete: "" }, "delete"],
      ["unknown interpreter", { interpreter: "powershell" }, "interpreter"],
      ["environment name with a space", { environment: { "MY VAR": "1" } }, "environment.MY VAR"],
      ["environment name with a path separator", { environment: { "../PATH": "1" } }, "environment.../PATH"],
      ["environment value with NUL", { environment: { NAME: "a\u0000b" } }, "environment.NAME"],
      ["triggers not a list", { triggers: "release-1" }, "triggers"],
      ["secret as text", { secret: "yes" }, "secret"],
    ],
  },
};

let emulators: Emulator[] = [];

beforeAll(async () => {
  emulators = await Promise.all(
    [new EdgeEmulator(), new PagesEmulator(), new PostsEmulator(), new RunnerEmulator(), new SkillsEmulator(), new ControlEmulator()].map(
      (e) => e.start(),
    ),
  );
  const [edge, pages, posts, runner, skills, control] = emulators;
  Object.assign(process.env, {
    EDGE_BASE_URL: edge.url,
    EDGE_API_TOKEN: DEMO_TOKEN,
    EDGE_ACCOUNT_ID: DEMO_ACCOUNT,
    PAGES_BASE_URL: pages.url,
    PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN,
    POSTS_BASE_URL: posts.url,
    POSTS_ACCESS_TOKEN: POSTS_USER_TOKEN,
    RUNNER_HOST: runner.url.replace("http://", ""),
    SKILLS_URL: skills.url,
    CONTROL_URL: control.url,
  });
});

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.stop()));
  printTally("bad input at check", counted);
});

describe("bad input is refused at check, naming the property and the fix, with no request sent", () => {
  it("covers every resource with at least ten cases (the retired ones: refused whatever the input, below)", () => {
    expect(Object.keys(TABLE).sort()).toEqual(
      Object.keys(registry)
        .filter((t) => !registry[t].retired)
        .sort(),
    );
    for (const [type, t] of Object.entries(TABLE)) expect(t.cases.length, type).toBeGreaterThanOrEqual(10);
  });

  for (const [type, { valid, cases }] of Object.entries(TABLE)) {
    describe(type, () => {
      it("accepts the valid input the cases start from", async () => {
        expect((await call(type, "check", [{}, valid])).failures).toEqual([]);
      });
      it.each(cases)("%s", async (_what, change, property) => {
        const inputs = Object.fromEntries(Object.entries({ ...valid, ...change }).filter(([, v]) => v !== undefined));
        const { failures } = await call(type, "check", [{}, inputs]);
        counted.badInputs++;
        expect(failures.map((f: { property: string }) => f.property)).toContain(property);
        const reason: string = failures.find((f: { property: string }) => f.property === property).reason;
        // The provider's own sentence, not a bare type error from the validator.
        expect(reason).not.toMatch(/^(Invalid input|Invalid option|Expected |Too (big|small)|Unrecognized)/);
        expect(reason.length).toBeGreaterThan(12);
        const sent = emulators.reduce((n, e) => n + e.log.length, 0);
        counted.badInputRequests += sent;
        expect(sent).toBe(0);
      });
      // Every typed input given a value of another type: refused, naming the property, the type wanted and the
      // type given (a boolean given as "yes" was once read as false). Generated from the schema, so a new input
      // is covered as it is added.
      const props = (generateSchema() as { resources: Record<string, { inputProperties: Record<string, { type?: string }> }> }).resources[
        `ops:${type}`
      ].inputProperties;
      // (`pulumi.json#/Any` is a union of types, such as a time as seconds or text: no value of "another type".)
      const typed = Object.entries(props).filter(
        ([, p]) => p.type || ((p as { $ref?: string }).$ref ?? "pulumi.json#/Any") !== "pulumi.json#/Any",
      );
      const wrong: Record<string, [unknown, string]> = {
        boolean: ["yes", "text"],
        number: ["300", "text"],
        integer: ["300", "text"],
        string: [42, "a number"],
        array: ["x", "text"],
        object: ["x", "text"],
      };
      it.each(typed.map(([name, p]) => [name, p.type ?? "object"] as const))(
        "%s (%s) given a value of another type",
        async (name, kind) => {
          const [value, given] = wrong[kind];
          const { failures } = await call(type, "check", [{}, { ...valid, [name]: value }]);
          counted.badInputs++;
          const failure = failures.find((f: { property: string }) => f.property === name);
          expect(failure, JSON.stringify(failures)).toBeDefined();
          expect(failure.reason).toMatch(new RegExp(`^${name} must be .+, not ${given}$`));
          expect(emulators.reduce((n, e) => n + e.log.length, 0)).toBe(0);
        },
      );
    });
  }
});

describe("a retired resource is refused at check, whatever its input, with the one line that says what to do instead", () => {
  const retired = Object.keys(registry).filter((t) => registry[t].retired);
  it.each(retired.map((t) => [t]))("%s", async (type) => {
    for (const inputs of [
      {},
      { appId: "400000000000001", callbackUrl: "https://hooks.example/posts", fields: ["mentions"], verifyToken: "verify-token-1" },
    ]) {
      const { failures } = await call(type, "check", [{}, inputs]);
      expect(failures).toEqual([{ property: "", reason: registry[type].retired }]);
    }
    expect(registry["posts:WebhookSubscription"].retired).toMatch(
      /no API for webhook subscriptions.*app dashboard.*replies, delete, mentions or publish/,
    );
    expect(emulators.reduce((n, e) => n + e.log.length, 0)).toBe(0);
  });
});

describe("failures as the engine prints them", () => {
  it("a nested failure is reported with no property (the engine prints the whole top-level value beside one), its path and short value in the reason", async () => {
    const { checkForEngine } = await import("../../provider/door");
    const r = await checkForEngine(
      "edge:FirewallRule",
      {},
      { zoneName: "example.com", filter: { expression: "ip.src in {300.1.1.1}" }, action: "block" },
    );
    expect(r.failures).toEqual([
      { property: "", reason: expect.stringMatching(/^filter\.expression \("ip\.src in \{300\.1\.1\.1\}"\): .*not an IP address/) },
    ]);
  });

  it("never prints a value that may be secret", async () => {
    const { checkForEngine } = await import("../../provider/door");
    const r = await checkForEngine(
      "control:RemoteCommand",
      {},
      { create: "echo hi", environment: { TOKEN: "hunter2\u0000" }, secret: true },
    );
    expect(r.failures).toEqual([{ property: "", reason: expect.stringMatching(/^environment\.TOKEN \(\[secret\]\): /) }]);
    expect(JSON.stringify(r.failures)).not.toContain("hunter2");
  });

  it("one bad record among 2,000 is one short line naming its key, never the map; many bad ones are cut at five with a count", async () => {
    const { checkForEngine } = await import("../../provider/door");
    const records = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`A:h${i}`, { type: "A", name: `h${i}`, content: `203.0.${i >> 8}.${i & 255}`, ttl: 300 }]),
    );
    records["A:h7"].ttl = 90000;
    const one = await checkForEngine("edge:DnsRecordSet", {}, { zoneName: "example.com", records });
    expect(one.failures).toEqual([
      {
        property: "",
        reason: "records.A:h7.ttl (90000): ttl must be 1 (automatic) or from 60 to 86400 seconds (from 30 on Enterprise zones)",
      },
    ]);
    for (const r of Object.values(records).slice(0, 40)) r.ttl = 5;
    const many = await checkForEngine("edge:DnsRecordSet", {}, { zoneName: "example.com", records });
    expect(many.failures).toHaveLength(6);
    expect(many.failures[5].reason).toBe("and 35 more problems (the first 5 are shown)");
    expect(JSON.stringify(many.failures).length).toBeLessThan(1024);
  });
});
