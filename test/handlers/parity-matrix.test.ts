/**
 * Preview and up agree: every resource type against every failure class `up` can meet (docs/reliability.md's matrix
 * is generated from MATRIX below and checked here). A cell is one of:
 * - `preview`: a read (or no request at all) decides it, so the preview fails — with the message and fix `up` gives,
 *   nothing written — and `up` fails the same way (the engine checks again at up);
 * - `up`: no read can decide it; the preview passes and `up` fails with a clear message (`why` says why no read);
 * - `none`: not a failure of this type (`why` says what the service does); preview and up both pass.
 * Each run is a fresh command (the checks asked once per run are forgotten), as the engine starts the provider anew.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { call, checkForEngine } from "../../provider/door";
import { forgetPreviewChecks } from "../../provider/preflight";
import { registry } from "../../provider/registry";
import {
  ControlEmulator,
  DEMO_ACCOUNT,
  DEMO_TOKEN,
  PAGES_USER_TOKEN,
  POSTS_USER_TOKEN,
  READ_PERMISSIONS,
  SKILLS_PUBLISH_TOKEN,
} from "../../emulators";
import { startEveryService, type EveryService } from "../helpers/every-service";
import { CREATE_INPUTS, seedScripts } from "../helpers/type-cases";

type Bag = Record<string, unknown>;
type Cell = { at: "preview"; says: RegExp } | { at: "up"; says: RegExp; why: string } | { at: "none"; why: string };
const CLASSES = [
  "no credentials",
  "bad token",
  "token lacks a permission",
  "unknown parent",
  "name taken on the service",
  "conflict in the program",
  "value the service refuses",
  "unreachable endpoint",
] as const;
type Class = (typeof CLASSES)[number];

/** A pull-request job's token: every Read permission, no Edit (the emulator's READ_PERMISSIONS). */
const READ_ONLY_TOKEN = "edge-every-read-token-0123456789";
const MODERATOR_USER_TOKEN = "moderator-user-token-0123456789";
const CONTROL_TOKEN = "control-token-0123";
const CREDENTIALS: Record<string, string[]> = {
  edge: ["EDGE_API_TOKEN"],
  pages: ["PAGES_ACCESS_TOKEN"],
  posts: ["POSTS_ACCESS_TOKEN"],
  skills: ["SKILLS_TOKEN"],
  control: ["CONTROL_TOKEN"],
  runner: [],
};
const ENDPOINT: Record<string, string> = {
  edge: "EDGE_BASE_URL",
  pages: "PAGES_BASE_URL",
  posts: "POSTS_BASE_URL",
  skills: "SKILLS_URL",
  control: "CONTROL_URL",
  runner: "RUNNER_HOST",
};
const service = (type: string) => type.split(":")[0];

// What each class's cells say, shared by the types of a service.
const NO_CRED: Record<string, Cell> = {
  edge: { at: "preview", says: /no credentials.*ops:edgeApiToken.*EDGE_API_TOKEN/ },
  pages: { at: "preview", says: /no access token.*ops:pagesAccessToken.*PAGES_ACCESS_TOKEN/ },
  posts: { at: "preview", says: /no access token.*ops:postsAccessToken.*POSTS_ACCESS_TOKEN/ },
  skills: {
    at: "up",
    says: /publishing needs a valid bearer token.*ops:skillsToken \(SKILLS_TOKEN\)/,
    why: "the registry's reads are anonymous (the skills registry's API (docs/emulators.md, its Skills registry section) shows no read that needs or checks a token); only a publish tells whether one is needed",
  },
  control: { at: "preview", says: /ops:controlToken|CONTROL_TOKEN/ },
  runner: { at: "none", why: "the runner takes no credential (Ollama's API (github.com/ollama/ollama, docs/api.md))" },
};
const BAD_TOKEN: Record<string, Cell> = {
  edge: { at: "preview", says: /token is not valid.*ops:edgeApiToken/ },
  pages: { at: "preview", says: /Invalid OAuth access token.*check ops:pagesAccessToken/ },
  posts: { at: "preview", says: /Invalid OAuth access token.*check ops:postsAccessToken/ },
  skills: NO_CRED.skills,
  control: { at: "preview", says: /ops:controlToken|CONTROL_TOKEN/ },
  runner: NO_CRED.runner,
};
const PERMISSION: Record<string, Cell> = {
  edge: {
    at: "up",
    says: /lacks the permission .* Edit.*Give the token/,
    why: "the service shows no read of a token's permissions (the token verification says only `active`); the refused write names the permission",
  },
  pages: { at: "preview", says: /Insufficient privileges/ },
  posts: {
    at: "none",
    why: "a Threads token's permissions cannot be read with the token alone; a call refused for one (threads_content_publish, threads_delete, ...) names it",
  },
  skills: { at: "none", why: "the registry has one publishing token, with no permissions to lack" },
  control: {
    at: "none",
    why: "the control token reaches every tool (the Model Context Protocol (modelcontextprotocol.io) names no permissions)",
  },
  runner: NO_CRED.runner,
};
const NO_PARENT: Cell = { at: "none", why: "the resource names no parent object (it belongs to the token's user, registry or host)" };
const ZONE_UNKNOWN: Cell = { at: "preview", says: /no zone named "nope\.example" is visible to this token/ };
const PAGE_UNKNOWN: Cell = { at: "preview", says: /has no role on page 200000000000999/ };
const NO_KEY: Cell = { at: "none", why: "the service keeps one object per resource (no natural key to meet)" };
const THING: Cell = { at: "preview", says: /two resources of the program stand for .* with different inputs.*Keep one resource for it/ };
const SKILL_TAKEN: Cell = {
  at: "preview",
  says: /the registry already holds a skill "[a-z-]+" \(published by hand or by another stack\).*adopt: true/,
};
const RULES: Cell = { at: "none", why: "the service holds any number of equal rules; `adopt: true` takes one over" };
const REFUSED: Cell = { at: "preview", says: /./ }; // the property's own message, the same at preview and up
const UNREACHABLE: Cell = {
  at: "preview",
  says: /127\.0\.0\.1:9.*(Nothing listens at|Check that the service is reachable|Start it, or point ops:runnerHost)/,
};

/** The variant of a type's inputs each class uses: a parent that does not exist, another object's values, a refused value. */
interface TypeCase {
  unknown?: Bag;
  /** Another resource's inputs: made first outside the program ("taken"), or checked first in the same run ("conflict"). */
  other: Bag;
  refused: Bag;
  cells: Partial<Record<Class, Cell>>;
}

const T: Record<string, TypeCase> = {
  "edge:DnsRecord": {
    unknown: { zoneName: "nope.example" },
    other: { type: "CNAME", content: "target.example.net" },
    refused: { ttl: 30 },
    cells: {
      "unknown parent": ZONE_UNKNOWN,
      "name taken on the service": { at: "preview", says: /already exists in zone example\.com.*adopt: true/ },
      "conflict in the program": { at: "preview", says: /a name with a CNAME holds nothing else/ },
    },
  },
  "edge:DnsRecordSet": {
    unknown: { zoneName: "nope.example" },
    other: { records: { "CNAME:lost-set": { type: "CNAME", name: "lost-set", content: "target.example.net", ttl: 300 } } },
    refused: { records: { "lost-a": { type: "A", name: "lost-set", content: "203.0.113.11", ttl: 30 } } },
    cells: {
      "unknown parent": ZONE_UNKNOWN,
      "name taken on the service": {
        at: "preview",
        says: /already exists in zone example\.com.*adopt: true|a name with a CNAME holds nothing else/,
      },
      "conflict in the program": { at: "preview", says: /a name with a CNAME holds nothing else/ },
    },
  },
  "edge:FirewallRule": {
    unknown: { zoneName: "nope.example" },
    other: { action: "challenge" },
    refused: { action: "explode" },
    cells: { "unknown parent": ZONE_UNKNOWN, "name taken on the service": RULES, "conflict in the program": RULES },
  },
  "edge:RulesetRule": {
    unknown: { zoneName: "nope.example" },
    other: { actionParameters: { cache: false } },
    refused: { action: "explode" },
    cells: { "unknown parent": ZONE_UNKNOWN, "name taken on the service": RULES, "conflict in the program": RULES },
  },
  "edge:PageRule": {
    unknown: { zoneName: "nope.example", targets: ["nope.example/lost/*"] },
    other: { actions: [{ id: "cache_level", value: "bypass" }] },
    refused: { actions: [{ id: "cache_level", value: "sometimes" }] },
    cells: { "unknown parent": ZONE_UNKNOWN, "name taken on the service": RULES, "conflict in the program": RULES },
  },
  "edge:RateLimit": {
    unknown: { zoneName: "nope.example" },
    other: { threshold: 20 },
    refused: { threshold: 0 },
    cells: { "unknown parent": ZONE_UNKNOWN, "name taken on the service": RULES, "conflict in the program": RULES },
  },
  "edge:WorkerScript": {
    unknown: { accountId: "ffffffffffffffffffffffffffffffff" },
    other: { content: "export default { fetch() { return new Response('other') } }" },
    refused: { name: "Bad Name!" },
    cells: {
      "unknown parent": { at: "preview", says: /ffffffffffffffffffffffffffffffff.*(permission|account)/i },
      "name taken on the service": { at: "preview", says: /an edge script named lost already exists in account \w+ .*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "edge:WorkerRoute": {
    unknown: { zoneName: "nope.example", pattern: "nope.example/lost/*" },
    other: { script: "lost-other" },
    refused: { pattern: "example.com/*.jpg" },
    cells: {
      "unknown parent": ZONE_UNKNOWN,
      "name taken on the service": {
        at: "preview",
        says: /the pattern example\.com\/lost\/\* of zone example\.com is routed already, to the script lost-other.*adopt: true/,
      },
      "conflict in the program": THING,
    },
  },
  "edge:WorkerDomain": {
    unknown: { zoneName: "nope.example", hostname: "lost.nope.example" },
    other: { script: "lost-other" },
    refused: { hostname: "*.example.com" },
    cells: {
      "unknown parent": ZONE_UNKNOWN,
      "name taken on the service": {
        at: "preview",
        says: /lost\.example\.com is a custom domain already, served by the script lost-other.*adopt: true/,
      },
      "conflict in the program": THING,
    },
  },
  "edge:KvNamespace": {
    other: { jurisdiction: "eu" },
    refused: { title: "" },
    cells: {
      "unknown parent": NO_PARENT,
      "name taken on the service": { at: "preview", says: /KV namespace titled "lost-namespace" already \(id [0-9a-f]+\).*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "edge:R2Bucket": {
    other: { storageClass: "InfrequentAccess" },
    refused: { name: "AB" },
    cells: {
      "unknown parent": NO_PARENT,
      "name taken on the service": { at: "preview", says: /R2 bucket named lost-bucket already.*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "edge:D1Database": {
    other: { primaryLocationHint: "weur" },
    refused: { name: "" },
    cells: {
      "unknown parent": NO_PARENT,
      "name taken on the service": { at: "preview", says: /D1 database named lost-database already \(id [0-9a-f-]+\).*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "edge:ZoneSetting": {
    unknown: { zoneName: "nope.example" },
    other: { value: "low" },
    refused: { value: "extreme" },
    cells: {
      "unknown parent": ZONE_UNKNOWN,
      "name taken on the service": {
        at: "none",
        why: "every setting of a zone exists: a ZoneSetting takes it over by design, writing only a value that differs",
      },
      "conflict in the program": THING,
    },
  },
  "pages:PagePost": {
    unknown: { pageId: "200000000000999" },
    other: { message: "Other news" },
    refused: { message: "" },
    cells: { "unknown parent": PAGE_UNKNOWN, "name taken on the service": NO_KEY, "conflict in the program": NO_KEY },
  },
  "pages:PageRole": {
    unknown: { pageId: "200000000000999" },
    other: { role: "MODERATOR" },
    refused: { role: "OWNER" },
    cells: {
      "unknown parent": PAGE_UNKNOWN,
      "name taken on the service": { at: "preview", says: /already has access to page .*granted by someone else.*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "pages:PageSubscription": {
    unknown: { pageId: "200000000000999" },
    other: { subscribedFields: ["messages"] },
    refused: { subscribedFields: ["bogus"] },
    cells: {
      "unknown parent": PAGE_UNKNOWN,
      "name taken on the service": { at: "preview", says: /already subscribed to page .*set up by someone else.*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "pages:PageProfile": {
    unknown: { pageId: "200000000000999" },
    other: { about: "Another about text" },
    refused: { website: "bakery" },
    cells: {
      "token lacks a permission": { at: "preview", says: /changing the page's profile needs MANAGE/ },
      "unknown parent": PAGE_UNKNOWN,
      "name taken on the service": {
        at: "none",
        why: "a page always has a profile: a PageProfile takes it over as it is, as a ZoneSetting takes a setting",
      },
      "conflict in the program": THING,
    },
  },
  "posts:Post": {
    other: { text: "Other news" },
    refused: { text: "x".repeat(501) },
    cells: { "unknown parent": NO_PARENT, "name taken on the service": NO_KEY, "conflict in the program": NO_KEY },
  },
  "runner:RunnerModel": {
    unknown: { from: "nope-model:1b" },
    other: { system: "Other." },
    refused: { name: "Bad Name" },
    cells: {
      "unknown parent": {
        at: "up",
        says: /pull model manifest: file does not exist.*Check the model name/,
        why: "the runner shows no read of its library (Ollama's API (github.com/ollama/ollama, docs/api.md)): pulling is the only way to learn a model exists",
      },
      "name taken on the service": { at: "preview", says: /already has a model lost.*adopt: true/ },
      "conflict in the program": THING,
    },
  },
  "skills:Skill": {
    other: { category: "dev" },
    refused: { slug: "Bad Slug" },
    cells: { "unknown parent": NO_PARENT, "name taken on the service": SKILL_TAKEN, "conflict in the program": THING },
  },
  "skills:GeneratedSkill": {
    unknown: { model: "nope-model:1b" },
    other: { category: "dev" },
    refused: { slug: "Bad Slug" },
    cells: {
      "unknown parent": { at: "preview", says: /the runner has no model nope-model:1b/ },
      "name taken on the service": SKILL_TAKEN,
      "conflict in the program": THING,
    },
  },
  "control:RemoteDesktopSession": {
    unknown: { host: "nowhere.local" },
    other: { waitSeconds: 4 },
    refused: { waitSeconds: -1 },
    cells: {
      "unknown parent": {
        at: "up",
        says: /nowhere\.local/,
        why: "only opening the session tells whether the host answers: the control endpoint offers no read of the network, and a probe would be a command run on the helper",
      },
      "name taken on the service": {
        at: "none",
        why: "a session already open to the host is replaced by the one the program opens: one session is what remains",
      },
      "conflict in the program": THING,
    },
  },
  "control:RemoteFile": {
    other: { content: "written by hand\n" },
    refused: { mode: "rw-r--r--" },
    cells: {
      "unknown parent": { at: "none", why: "a file's folders are made as it is written (mkdir -p), as CopyToRemote makes them" },
      "name taken on the service": {
        at: "up",
        says: /the host already has a file at \/tmp\/lost-file\.conf with another content.*adopt: true/,
        why: "only a command run on the host reads the file there, and a preview runs no command",
      },
      "conflict in the program": THING,
    },
  },
  "control:RemoteCommand": {
    other: { create: "echo other" },
    refused: { create: "" },
    cells: { "unknown parent": NO_PARENT, "name taken on the service": NO_KEY, "conflict in the program": NO_KEY },
  },
};

/** The whole matrix: each type's own cells, and the service-wide ones. */
function cellOf(type: string, cls: Class): Cell {
  const s = service(type);
  const own = T[type].cells[cls];
  if (own) return own;
  if (cls === "no credentials") return NO_CRED[s];
  if (cls === "bad token") return BAD_TOKEN[s];
  if (cls === "token lacks a permission")
    return type === "pages:PageSubscription"
      ? {
          at: "up",
          says: /Insufficient privileges.*pages_manage_metadata/,
          why: "a token's scopes are told only by debug_token, which needs the app's secret (the provider holds none); the refused write names the permission",
        }
      : PERMISSION[s];
  if (cls === "value the service refuses") return REFUSED;
  if (cls === "unreachable endpoint") return UNREACHABLE;
  throw new Error(`no cell for ${type} × ${cls}`);
}

let s: EveryService;
const ENV: Bag = {};
beforeAll(async () => {
  s = await startEveryService();
  // A Business zone: its rate limiting rules may be several (a Free zone's one rule is held at preview: edge-rulesets.test.ts).
  s.edge.options.plans["example.com"] = "business";
  await s.control.stop();
  s.control = await new ControlEmulator({ dialogDelayMs: 300, token: CONTROL_TOKEN }).start();
  Object.assign(ENV, {
    EDGE_BASE_URL: s.edge.url,
    EDGE_API_TOKEN: DEMO_TOKEN,
    EDGE_ACCOUNT_ID: DEMO_ACCOUNT,
    EDGE_TIMEOUT_SECONDS: "2",
    EDGE_MAX_RETRIES: "0",
    PAGES_BASE_URL: s.pages.url,
    PAGES_ACCESS_TOKEN: PAGES_USER_TOKEN,
    PAGES_TIMEOUT_SECONDS: "2",
    PAGES_MAX_RETRIES: "0",
    POSTS_BASE_URL: s.posts.url,
    POSTS_ACCESS_TOKEN: POSTS_USER_TOKEN,
    POSTS_TIMEOUT_SECONDS: "2",
    POSTS_MAX_RETRIES: "0",
    RUNNER_HOST: s.runner.url.replace("http://", ""),
    RUNNER_TIMEOUT_SECONDS: "2",
    RUNNER_MAX_RETRIES: "0",
    SKILLS_URL: s.skills.url,
    SKILLS_TOKEN: SKILLS_PUBLISH_TOKEN,
    SKILLS_TIMEOUT_SECONDS: "2",
    SKILLS_MAX_RETRIES: "0",
    CONTROL_URL: s.control.url,
    CONTROL_TOKEN,
    CONTROL_TIMEOUT_SECONDS: "2",
    CONTROL_MAX_RETRIES: "0",
  });
});
afterAll(async () => {
  await Promise.all(Object.values(s).map((e) => e.stop()));
  for (const k of Object.keys(ENV)) delete process.env[k];
});

/** What a command's check or create ended with: "ok", "created", or the failure's one line. */
async function preview(type: string, inputs: Bag): Promise<string> {
  const r = await checkForEngine(type, {}, inputs).catch((e: Error) => e);
  if (r instanceof Error) return r.message;
  return r.failures.length ? r.failures.map((f) => `${f.property}: ${f.reason}`).join("; ") : "ok";
}
async function up(type: string, inputs: Bag): Promise<string> {
  const r = await checkForEngine(type, {}, inputs).catch((e: Error) => e);
  if (r instanceof Error) return r.message;
  if (r.failures.length) return r.failures.map((f) => `${f.property}: ${f.reason}`).join("; ");
  return call(type, "create", [r.inputs]).then(
    () => "created",
    (e: Error) => e.message,
  );
}
/** What was sent that acts: every request but reads (the control endpoint's POSTs are all to /mcp: its tool calls). */
const writes = () => [
  ...Object.values(s).flatMap((e) => e.log.filter((x: { method: string; path: string }) => x.method !== "GET" && !x.path.endsWith("/mcp"))),
  ...s.control.calls,
];

/** Puts the class's condition in place and gives the inputs the resource is checked with. */
async function arrange(type: string, cls: Class): Promise<Bag> {
  const c = T[type];
  const svc = service(type);
  const inputs = { ...CREATE_INPUTS[type] };
  switch (cls) {
    case "no credentials":
      for (const k of CREDENTIALS[svc]) delete process.env[k];
      return inputs;
    case "bad token":
      for (const k of CREDENTIALS[svc]) process.env[k] = "bad-token-0123456789";
      return inputs;
    case "token lacks a permission":
      if (svc === "edge") process.env.EDGE_API_TOKEN = READ_ONLY_TOKEN;
      if (svc === "pages") process.env.PAGES_ACCESS_TOKEN = MODERATOR_USER_TOKEN;
      return inputs;
    case "unknown parent":
      return { ...inputs, ...c.unknown };
    case "name taken on the service": {
      const made = await up(type, { ...inputs, ...(type.startsWith("edge:Dns") ? {} : c.other) });
      expect(made, `${type}: the object outside the program`).toBe("created");
      forgetPreviewChecks();
      for (const e of Object.values(s)) e.log.splice(0);
      return inputs;
    }
    case "conflict in the program":
      return inputs;
    case "value the service refuses":
      return { ...inputs, ...c.refused };
    case "unreachable endpoint":
      process.env[ENDPOINT[svc]] = svc === "runner" ? "127.0.0.1:9" : "http://127.0.0.1:9";
      return inputs;
  }
}

describe("preview and up agree, for every resource type and failure class", () => {
  it("covers every resource type but the retired ones (refused at check whatever the input)", () =>
    expect(Object.keys(T).sort()).toEqual(
      Object.keys(registry)
        .filter((t) => !registry[t].retired)
        .sort(),
    ));

  it("docs/reliability.md shows this matrix", () => {
    const doc = fs.readFileSync(path.resolve(__dirname, "../../docs/reliability.md"), "utf8");
    expect(doc).toContain(matrixTable());
  });

  for (const type of Object.keys(T)) {
    describe(type, () => {
      beforeEach(async () => {
        for (const e of Object.values(s)) e.reset();
        for (const k of [...Object.values(CREDENTIALS).flat(), ...Object.values(ENDPOINT)]) delete process.env[k];
        Object.assign(process.env, ENV);
        s.edge.options.tokens[READ_ONLY_TOKEN] = READ_PERMISSIONS;
        s.pages.tokens.set(MODERATOR_USER_TOKEN, {
          kind: "user",
          userId: "300000000000002",
          scopes: ["pages_manage_posts", "pages_read_engagement", "pages_show_list", "pages_read_user_content"],
        });
        if (type === "edge:WorkerRoute" || type === "edge:WorkerDomain") seedScripts(s.edge);
        if (type === "skills:GeneratedSkill")
          await fetch(`${s.runner.url}/api/pull`, { method: "POST", body: JSON.stringify({ model: "qwen2.5:0.5b", stream: false }) });
        forgetPreviewChecks();
        for (const e of Object.values(s)) e.log.splice(0);
      });

      it.each(CLASSES.map((c) => [c]))("%s", { timeout: 60_000 }, async (cls) => {
        const cell = cellOf(type, cls);
        const inputs = await arrange(type, cls);
        if (cls === "conflict in the program" && cell.at !== "none")
          expect(await preview(type, { ...inputs, ...T[type].other })).toBe("ok");
        const atPreview = await preview(type, inputs);
        const sent = writes();
        forgetPreviewChecks();
        if (cls === "conflict in the program") await up(type, { ...inputs, ...T[type].other });
        const atUp = await up(type, inputs);
        if (cell.at === "preview") {
          expect(atPreview).not.toBe("ok");
          expect(atPreview).toMatch(cell.says);
          expect(atUp).toBe(atPreview); // the same message and fix: up checks again, and fails there
          expect(sent).toEqual([]);
        } else if (cell.at === "up") {
          expect(atPreview).toBe("ok");
          expect(atUp).toMatch(cell.says);
        } else {
          expect(atPreview).toBe("ok");
          expect(atUp).toBe("created");
        }
      });
    });
  }

  it("a service's read is made once per run, whatever the number of resources", async () => {
    Object.assign(process.env, ENV, { EDGE_API_TOKEN: "bad-token-0123456789" });
    forgetPreviewChecks();
    s.edge.log.splice(0);
    for (let i = 0; i < 3; i++)
      expect(await preview("edge:DnsRecord", { ...CREATE_INPUTS["edge:DnsRecord"], name: `r${i}` })).toMatch(/token is not valid/);
    // One verification: an invalid token is tried at the user endpoint and then at the account's (an account-owned
    // token verifies only there), once for the run.
    expect(s.edge.log.map((e) => e.path.replace(/^\/client\/v4/, ""))).toEqual([
      "/user/tokens/verify",
      expect.stringMatching(/^\/accounts\/\w+\/tokens\/verify$/),
    ]);
  });
});

const MARK: Record<Cell["at"], string> = { preview: "preview", up: "up only", none: "—" };
/** The matrix as docs/reliability.md shows it: a row per type, a column per class. */
function matrixTable(): string {
  const head = `| type | ${CLASSES.join(" | ")} |\n|---|${CLASSES.map(() => "---").join("|")}|`;
  const rows = Object.keys(T).map((type) => `| ${type} | ${CLASSES.map((c) => MARK[cellOf(type, c).at]).join(" | ")} |`);
  const whys = new Map<string, string[]>();
  for (const type of Object.keys(T)) {
    for (const c of CLASSES) {
      const cell = cellOf(type, c);
      if (cell.at === "preview") continue;
      const key = `${c}: ${cell.why}`;
      whys.set(key, [...(whys.get(key) ?? []), type]);
    }
  }
  const notes = [...whys.entries()].map(([k, types]) => {
    const cls = k.slice(0, k.indexOf(": ")) as Class;
    return `- ${cls}, ${MARK[cellOf(types[0], cls).at] === "up only" ? "up only" : "not a failure"} (${types.join(", ")}): ${k.slice(cls.length + 2)}`;
  });
  return [head, ...rows, "", ...notes].join("\n");
}
/** `PRINT_MATRIX=<file>` writes the table for docs/reliability.md. */
if (process.env.PRINT_MATRIX) fs.writeFileSync(process.env.PRINT_MATRIX, `${matrixTable()}\n`);
