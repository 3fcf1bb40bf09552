/**
 * The drift matrix (issue 57): for every resource type, every input field is a row. A field the service holds is
 * changed out of band on the emulator (as the dashboard, the Business Suite, another tool or a person would), and
 * then, as the engine calls them: read (refresh) reports it (its inputs differ from the program's, so the next diff
 * has a change), update puts the program's value back, and a read after it finds nothing to report. A field the
 * service does not hold says why (`why`). A field of the schema without a row fails the matrix, as a new field
 * must say how its drift is found.
 */
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { forgetRuleListings } from "../../provider/edge/rule-listing";
import { call } from "../../provider/door";
import { registry } from "../../provider/registry";
import { DEMO_TOKEN, PAGE_ID } from "../../emulators";
import { checked, freshFor, useMatrixServices } from "../helpers/matrix-services";
import { CREATE_INPUTS } from "../helpers/type-cases";

type Bag = Record<string, any>;
const services = useMatrixServices();
const zone = () => [...services.edge.zones.values()].find((z) => z.name === "example.com")!;

/** A field changed out of band: `change` does it to the object `made` (id and outputs); `inputs` replace the type's. */
interface Drift {
  inputs?: Bag;
  change: (made: { id: string; outs: Bag }) => void | Promise<void>;
}
/** Why a field has no drift to find: not held by the service, the object's identity, or the program's alone. */
type Row = Drift | { why: string };

const PROGRAM = (what: string) => ({ why: `the program's own (${what}): the service holds nothing of it` });
const IDENTITY = (what: string) => ({ why: `names the object (${what}): another value is another object, which the diff replaces` });
const ADOPT = PROGRAM("whether the create takes over what exists");
const ZONE = { zoneId: IDENTITY("its zone"), zoneName: IDENTITY("its zone") };

const edgeApi = async (method: string, p: string, body: unknown) => {
  const res = await fetch(`${services.edge.url}/client/v4/zones/${zone().id}/${p}`, {
    method,
    headers: { authorization: `Bearer ${DEMO_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
};
const record = (id: string) => zone().records.get(id.split("/").pop()!)! as Bag;
const phaseRule = (phase: string, ruleId: string) =>
  services.edge.rulesets.entrypoint(zone().id, phase)!.rules.find((r) => r.id === ruleId)! as Bag;
const pageRule = (id: string) => services.edge.pageRulesOf!(zone().id).find((r: any) => r.id === id.split("/").pop()) as Bag;

const FIREWALL = "http_request_firewall_custom";
const rateLimitRule = (outs: Bag) => phaseRule("http_ratelimit", outs.ruleId);

const ROWS: Record<string, Record<string, Row>> = {
  "edge:DnsRecord": {
    ...ZONE,
    type: IDENTITY("a record's type"),
    name: IDENTITY("a record's name"),
    content: { change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { content: "203.0.113.99" }) },
    ttl: { change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { ttl: 600 }) },
    proxied: { change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { proxied: true }) },
    comment: {
      inputs: { ...CREATE_INPUTS["edge:DnsRecord"], comment: "front door" },
      change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { comment: "edited by hand" }),
    },
    priority: {
      inputs: { zoneName: "example.com", type: "MX", name: "mail-drift", content: "mx1.example.net", priority: 10, ttl: 300 },
      change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { priority: 20 }),
    },
    data: {
      inputs: {
        zoneName: "example.com",
        type: "CAA",
        name: "caa-drift",
        data: { flags: 0, tag: "issue", value: "letsencrypt.org" },
        ttl: 300,
      },
      change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { data: { flags: 0, tag: "issue", value: "pki.example.net" } }),
    },
    tags: {
      why: "kept only where the zone's plan takes tags (paid plans): dns-record-tags.test.ts changes them by hand on a paid zone and finds it",
    },
    settings: {
      inputs: {
        ...CREATE_INPUTS["edge:DnsRecord"],
        type: "CNAME",
        name: "flat-drift",
        content: "target.example.net",
        settings: { flattenCname: true },
      },
      change: ({ id }) => edgeApi("PATCH", `dns_records/${record(id).id}`, { settings: { flatten_cname: false } }),
    },
    adopt: ADOPT,
  },
  "edge:DnsRecordSet": {
    ...ZONE,
    records: {
      change: ({ outs }) =>
        edgeApi("PATCH", `dns_records/${Object.values(outs.ids as Record<string, string>)[0]}`, { content: "203.0.113.98" }),
    },
    adopt: ADOPT,
    authoritative: PROGRAM("whether its run deletes what it does not declare"),
    ignore: PROGRAM("what an authoritative set leaves alone"),
    maxChangePercent: PROGRAM("a guard on one run's size"),
    allowLargeChange: PROGRAM("a one-run switch"),
  },
  "edge:ZoneSetting": {
    ...ZONE,
    settingId: IDENTITY("the setting"),
    value: { change: () => edgeApi("PATCH", "settings/security_level", { value: "low" }) },
  },
  "edge:PageRule": {
    ...ZONE,
    targets: {
      change: ({ id }) =>
        void (pageRule(id).targets = [{ target: "url", constraint: { operator: "matches", value: "example.com/moved/*" } }]),
    },
    actions: { change: ({ id }) => void (pageRule(id).actions = [{ id: "cache_level", value: "bypass" }]) },
    priority: {
      why: "the rank asked for among the zone's rules: the service renumbers to close gaps (effectivePriority reads what it holds)",
    },
    status: { change: ({ id }) => void (pageRule(id).status = "disabled") },
    adopt: ADOPT,
  },
  "edge:FirewallRule": {
    ...ZONE,
    expression: {
      inputs: { zoneName: "example.com", expression: 'http.request.uri.path eq "/lost"', action: "block" },
      change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).expression = 'http.request.uri.path eq "/found"'),
    },
    filter: { change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).expression = 'http.request.uri.path eq "/found"') },
    action: { change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).action = "managed_challenge") },
    actionParameters: {
      inputs: {
        zoneName: "example.com",
        filter: { expression: 'http.request.uri.path eq "/lost"' },
        action: "skip",
        actionParameters: { ruleset: "current" },
      },
      change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).action_parameters = { phases: ["http_ratelimit"] }),
    },
    description: { change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).description = "edited by hand") },
    paused: { change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).enabled = false) },
    enabled: {
      inputs: { ...CREATE_INPUTS["edge:FirewallRule"], enabled: true },
      change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).enabled = false),
    },
    ref: IDENTITY("the rule's ref in its ruleset"),
    position: {
      why: "where the rule goes when made or moved: the ruleset's order is not compared (rules-order.test.ts holds the order the program asks)",
    },
    response: {
      inputs: { ...CREATE_INPUTS["edge:FirewallRule"], response: { statusCode: 403, contentType: "text/plain", content: "No." } },
      change: ({ outs }) =>
        void (phaseRule(FIREWALL, outs.ruleId).action_parameters = {
          response: { status_code: 429, content_type: "text/plain", content: "Later." },
        }),
    },
    logging: {
      inputs: {
        zoneName: "example.com",
        filter: { expression: 'http.request.uri.path eq "/lost"' },
        action: "skip",
        actionParameters: { ruleset: "current" },
        logging: { enabled: false },
      },
      change: ({ outs }) => void (phaseRule(FIREWALL, outs.ruleId).logging = { enabled: true }),
    },
    adopt: ADOPT,
  },
  "edge:RulesetRule": {
    ...ZONE,
    phase: IDENTITY("its ruleset"),
    expression: {
      change: ({ outs }) =>
        void (phaseRule("http_request_cache_settings", outs.ruleId).expression = 'http.request.uri.path wildcard "/found/*"'),
    },
    action: { change: ({ outs }) => void (phaseRule("http_request_cache_settings", outs.ruleId).action = "set_config") },
    actionParameters: {
      change: ({ outs }) => void (phaseRule("http_request_cache_settings", outs.ruleId).action_parameters = { cache: false }),
    },
    ratelimit: { why: "a rate limiting rule's counting (http_ratelimit phase): held as RateLimit's fields, which its rows change" },
    description: { change: ({ outs }) => void (phaseRule("http_request_cache_settings", outs.ruleId).description = "edited by hand") },
    enabled: { change: ({ outs }) => void (phaseRule("http_request_cache_settings", outs.ruleId).enabled = false) },
    ref: IDENTITY("the rule's ref in its ruleset"),
    position: { why: "where the rule goes when made or moved: the ruleset's order is not compared (rules-order.test.ts)" },
    logging: {
      inputs: { ...CREATE_INPUTS["edge:RulesetRule"], logging: { enabled: true } },
      change: ({ outs }) => void (phaseRule("http_request_cache_settings", outs.ruleId).logging = { enabled: false }),
    },
    adopt: ADOPT,
  },
  "edge:RateLimit": {
    ...ZONE,
    threshold: { change: ({ outs }) => void (rateLimitRule(outs).ratelimit!.requests_per_period = 20) },
    period: { why: "a Free zone takes 10 s alone: the only other value a hand could set is refused by the service" },
    action: { change: ({ outs }) => void (rateLimitRule(outs).action = "managed_challenge") },
    match: { change: ({ outs }) => void (rateLimitRule(outs).expression = '(http.request.uri.path wildcard "/found*")') },
    description: { change: ({ outs }) => void (rateLimitRule(outs).description = "edited by hand") },
    disabled: { change: ({ outs }) => void (rateLimitRule(outs).enabled = false) },
    ref: IDENTITY("the rule's ref in its ruleset"),
    adopt: ADOPT,
    position: { why: "where the rule goes when made or moved: the ruleset's order is not compared (rules-order.test.ts)" },
    characteristics: {
      why: "what the rule counts by: a Free zone takes the data center and the client's IP alone (cf.colo.id and ip.src), so no other value can stand there",
    },
    countingExpression: {
      why: "not on a Free zone (the service refuses ratelimit.counting_expression there), the emulator's zones' plan; edge-rulesets.test.ts keeps one set out of band on a paid zone",
    },
    requestsToOrigin: { why: "as countingExpression: a paid plan's" },
    logging: {
      inputs: { ...CREATE_INPUTS["edge:RateLimit"], logging: { enabled: true } },
      change: ({ outs }) => void (rateLimitRule(outs).logging = { enabled: false }),
    },
    scorePerPeriod: { why: "Enterprise only: refused on every zone the emulator's plans hold but enterprise" },
    scoreResponseHeaderName: { why: "Enterprise only, with scorePerPeriod" },
  },
  "edge:WorkerScript": {
    accountId: IDENTITY("its account"),
    name: IDENTITY("the script's name"),
    content: { change: () => services.edge.editScript("lost", "export default { fetch() { return new Response('edited') } }") },
    source: { why: "a file of the program whose text is `content`: the content row finds its drift" },
    format: {
      why: "module or service worker: how the text is uploaded, read back as the content's form; a hand upload in the other form is a content change",
    },
    compatibilityDate: { change: () => void (services.edge.scripts.get("lost")!.compatibility_date = "2024-01-01") },
    compatibilityFlags: { change: () => void (services.edge.scripts.get("lost")!.compatibility_flags = ["nodejs_compat"]) },
    vars: {
      inputs: { ...CREATE_INPUTS["edge:WorkerScript"], vars: { GREETING: "hello" } },
      change: () => void (services.edge.scripts.get("lost")!.bindings.find((b) => b.name === "GREETING")!.text = "edited"),
    },
    secrets: { why: "a secret's text is never read back by the service: only that it is there" },
    bindings: {
      inputs: { ...CREATE_INPUTS["edge:WorkerScript"], bindings: [{ name: "EVENTS", type: "analytics_engine", dataset: "lost" }] },
      // Pointed at another dataset in the dashboard.
      change: () => void (services.edge.scripts.get("lost")!.bindings.find((b) => b.name === "EVENTS")!.dataset = "edited"),
    },
    migrations: {
      why: "a step applied stays applied (the service has no undo): a tag another tool moved is found by refresh, and the preview says to add the steps applied elsewhere (worker-durable-objects.test.ts)",
    },
    workersDev: {
      inputs: { ...CREATE_INPUTS["edge:WorkerScript"], workersDev: false },
      change: () => void (services.edge.scripts.get("lost")!.subdomain.enabled = true),
    },
    previewUrls: {
      inputs: { ...CREATE_INPUTS["edge:WorkerScript"], workersDev: true, previewUrls: false },
      change: () => void (services.edge.scripts.get("lost")!.subdomain.previews_enabled = true),
    },
    adopt: ADOPT,
    contentHash: PROGRAM("set by the provider: the hash of the content"),
    sourceText: PROGRAM("set by the provider: the published text a restoring preview shows"),
  },
  "edge:WorkerRoute": {
    ...ZONE,
    pattern: IDENTITY("the route's pattern"),
    script: { change: () => void ([...services.edge.workerRoutes.get(zone().id)!.values()][0].script = "lost-other") },
    adopt: ADOPT,
  },
  "edge:WorkerDomain": {
    ...ZONE,
    accountId: IDENTITY("its account"),
    hostname: IDENTITY("the host name"),
    script: { change: () => void ([...services.edge.domains.values()][0].service = "lost-other") },
    environment: {
      inputs: { ...CREATE_INPUTS["edge:WorkerDomain"], environment: "production" },
      change: () => void ([...services.edge.domains.values()][0].environment = "staging"),
    },
    adopt: ADOPT,
  },
  "edge:KvNamespace": {
    accountId: IDENTITY("its account"),
    title: { change: () => void ([...services.edge.namespaces.values()][0].title = "renamed-by-hand") },
    jurisdiction: {
      why: "set only when the namespace is made: the service has no way to change it (API reference, Create a Namespace), and another is another namespace, which the diff replaces",
    },
    adopt: ADOPT,
  },
  "edge:R2Bucket": {
    accountId: IDENTITY("its account"),
    name: IDENTITY("the bucket's name"),
    jurisdiction: IDENTITY("where its data is stored (another is another bucket)"),
    locationHint: { why: "where the service placed it first: it has no way to move a bucket, and another hint is another bucket" },
    storageClass: { change: () => void ([...services.edge.buckets.values()][0].storage_class = "InfrequentAccess") },
    adopt: ADOPT,
  },
  "edge:D1Database": {
    accountId: IDENTITY("its account"),
    name: IDENTITY("the database's name (the service has no rename)"),
    primaryLocationHint: { why: "set only when the database is made: the service has no way to move it" },
    adopt: ADOPT,
  },
  "pages:PagePost": {
    pageId: IDENTITY("its page"),
    message: { change: ({ id }) => void (services.pages.posts.get(id)!.message = "Edited in the Business Suite") },
    link: { why: "a shared link cannot be changed on a post (the service's update takes the message): another link is another post" },
    published: {
      why: "whether the post is out: the service moves a scheduled post to published itself (state says it); a post cannot be unpublished",
    },
    scheduledPublishTime: {
      inputs: { pageId: PAGE_ID, message: "Launch", published: false, scheduledPublishTime: Math.floor(Date.now() / 1000) + 3 * 3600 },
      change: ({ id }) => void (services.pages.posts.get(id)!.scheduledAt! += 3600_000),
    },
    photo: { why: "a photo cannot be swapped on a post: another photo is another post" },
    photos: { why: "attached photos cannot be swapped on a post: others are another post" },
  },
  "pages:PageRole": {
    pageId: IDENTITY("its page"),
    user: IDENTITY("the person"),
    role: { change: () => void services.pages.pages.get(PAGE_ID)!.assigned.set("300000000000003", ["ANALYZE"]) },
    tasks: {
      inputs: { pageId: PAGE_ID, user: "300000000000003", tasks: ["ANALYZE", "ADVERTISE"] },
      change: () => void services.pages.pages.get(PAGE_ID)!.assigned.set("300000000000003", ["ANALYZE"]),
    },
    business: {
      why: "the business the page belongs to, read from the page: a page moved to another business is found by the read (outputs), not set by the program",
    },
    adopt: ADOPT,
  },
  "pages:PageProfile": {
    pageId: IDENTITY("its page"),
    about: { change: () => void (services.pages.pages.get(PAGE_ID)!.about = "Edited in the Business Suite") },
    description: {
      inputs: { pageId: PAGE_ID, description: "Sourdough every morning." },
      change: () => void (services.pages.pages.get(PAGE_ID)!.profile.description = "Edited by hand"),
    },
    website: {
      inputs: { pageId: PAGE_ID, website: "https://bakery.example" },
      change: () => void (services.pages.pages.get(PAGE_ID)!.profile.website = "https://other.example"),
    },
    phone: {
      inputs: { pageId: PAGE_ID, phone: "+1 555 0100" },
      change: () => void (services.pages.pages.get(PAGE_ID)!.profile.phone = "+1 555 0199"),
    },
    emails: {
      inputs: { pageId: PAGE_ID, emails: ["hello@bakery.example"] },
      change: () => void (services.pages.pages.get(PAGE_ID)!.profile.emails = ["someone@else.example"]),
    },
    hours: {
      inputs: { pageId: PAGE_ID, hours: { mon_1_open: "07:00", mon_1_close: "18:00" } },
      change: () => void (services.pages.pages.get(PAGE_ID)!.profile.hours = { mon_1_open: "09:00", mon_1_close: "18:00" }),
    },
  },
  "pages:PageSubscription": {
    pageId: IDENTITY("its page"),
    subscribedFields: {
      change: () => void services.pages.pages.get(PAGE_ID)!.apps.forEach((_f, app, apps) => apps.set(app, ["feed", "mention"])),
    },
    adopt: ADOPT,
  },
  "posts:Post": Object.fromEntries([
    ...[
      "mediaType",
      "text",
      "imageUrl",
      "videoUrl",
      "altText",
      "children",
      "replyControl",
      "topicTag",
      "linkAttachment",
      "quotePostId",
      "pollAttachment",
      "replyTo",
      "textAttachment",
      "textSpoilers",
      "spoilerMedia",
    ].map((k) => [
      k,
      {
        why: "a published post cannot be edited on the service: every field is the post (a change replaces it; a post deleted by hand is found by refresh, social-promises.test.ts)",
      },
    ]),
    ["allowRepublish", PROGRAM("whether a change may replace a published post")],
  ]),
  "runner:RunnerModel": {
    name: IDENTITY("the model's name"),
    from: {
      why: "what the model is made from: a model made again by hand from another base has another digest, which the system row's read reports the same way",
    },
    system: {
      change: async () =>
        void (await fetch(`${services.runner.url}/api/create`, {
          method: "POST",
          body: JSON.stringify({ model: "lost", from: "qwen2.5:0.5b", system: "Be long-winded.", stream: false }),
        })),
    },
    template: {
      inputs: { name: "lost", from: "qwen2.5:0.5b", template: "{{ .Prompt }}" },
      change: async () =>
        void (await fetch(`${services.runner.url}/api/create`, {
          method: "POST",
          body: JSON.stringify({ model: "lost", from: "qwen2.5:0.5b", template: "Q: {{ .Prompt }}", stream: false }),
        })),
    },
    parameters: {
      inputs: { name: "lost", from: "qwen2.5:0.5b", parameters: { temperature: 0.2 } },
      change: async () =>
        void (await fetch(`${services.runner.url}/api/create`, {
          method: "POST",
          body: JSON.stringify({ model: "lost", from: "qwen2.5:0.5b", parameters: { temperature: 0.9 }, stream: false }),
        })),
    },
    license: {
      inputs: { name: "lost", from: "qwen2.5:0.5b", license: ["MIT"] },
      change: async () =>
        void (await fetch(`${services.runner.url}/api/create`, {
          method: "POST",
          body: JSON.stringify({ model: "lost", from: "qwen2.5:0.5b", license: "Proprietary", stream: false }),
        })),
    },
    messages: {
      inputs: { name: "lost", from: "qwen2.5:0.5b", messages: [{ role: "user", content: "hi" }] },
      change: async () =>
        void (await fetch(`${services.runner.url}/api/create`, {
          method: "POST",
          body: JSON.stringify({ model: "lost", from: "qwen2.5:0.5b", messages: [{ role: "user", content: "bye" }], stream: false }),
        })),
    },
    adapter: {
      why: "a LoRA file uploaded as a blob: the runner shows no adapter, so a model made again by hand is found by its digest (the system row)",
    },
    expectedDigest: {
      why: "the weights pinned: a pulled model whose tag moved is found at preview against the registry (runner-today.test.ts)",
    },
    draft: { why: "a draft model file uploaded as blobs: the runner shows none, so a model made again is found by its digest" },
    quantize: { why: "how the weights were quantized when made: quantizationLevel reads it; another one is other weights (digest)" },
    draftQuantize: { why: "as quantize, for the draft" },
    requires: {
      why: "the oldest runner the model asks for: shown by the runner and read as the other fields are (definitions are compared whole by digest)",
    },
    renderer: { why: "the chat renderer: shown only by runners from 0.12, and compared by digest" },
    parser: { why: "as renderer" },
    definitionFile: PROGRAM("a file of the program, whose fields are the others"),
    definitionHash: PROGRAM("set by the provider: the hash of the definition"),
    adopt: ADOPT,
  },
  "skills:Skill": {
    slug: IDENTITY("the skill's slug"),
    ...Object.fromEntries(
      Object.entries({
        category: ["ops", "sales"],
        tags: [["oven"], ["sales"]],
        agents: [["baker"], ["clerk"]],
        toolsRequired: [["thermometer"], ["scale"]],
        version: ["1.0.0", "2.0.0"],
        license: ["MIT", "Proprietary"],
        compatibility: ["any oven", "gas ovens"],
        metadata: [{ author: "ops" }, { author: "someone" }],
        allowedTools: [["Read"], ["Bash"]],
      }).map(([k, [mine, theirs]]) => [
        k,
        {
          inputs: { ...CREATE_INPUTS["skills:Skill"], [k]: mine },
          change: () =>
            void ((services.skills.skills.get("oven-care") as Bag)[k] =
              k === "metadata" ? { ...(services.skills.skills.get("oven-care") as Bag).metadata, ...(theirs as Bag) } : theirs),
        } satisfies Drift,
      ]),
    ),
    description: { change: () => void (services.skills.skills.get("oven-care")!.description = "Edited in the registry.") },
    instruction: {
      inputs: {
        slug: "oven-care",
        name: "oven-care",
        description: "How to care for the oven.",
        instruction: "# Oven care\n\nClean it daily.",
        followGuide: false,
      },
      change: () => void (services.skills.skills.get("oven-care")!.instruction = "# Oven care\n\nNever clean it."),
    },
    name: { why: "the document's name, the registry's name of the slug: another is refused by the registry (it must be the slug)" },
    source: { change: () => void (services.skills.skills.get("oven-care")!.instruction += "\nEdited in the registry.") },
    contentHash: PROGRAM("set by the provider: the hash of the document"),
    sourceText: PROGRAM("set by the provider: the published text a restoring preview shows"),
    adopt: ADOPT,
    publishTo: PROGRAM("where the skill is published: a new place is a replacement"),
    filesHash: PROGRAM("set by the provider: the hash of a Claude skill's folder"),
    followGuide: PROGRAM("whether the document's style notes are shown"),
  },
  "skills:GeneratedSkill": {
    slug: IDENTITY("the skill's slug"),
    ...Object.fromEntries(
      ["category", "tags", "agents", "toolsRequired", "version", "license", "compatibility", "metadata", "allowedTools"].map((k) => [
        k,
        { why: "the registry's metadata, read and compared by the code Skill's rows hold (skill/handler.ts readSkill)" },
      ]),
    ),
    sources: { change: () => void (services.skills.skills.get("oven-runbook")!.instruction += "\nEdited in the registry.") },
    model: PROGRAM("the runner's model that generates it: the registry keeps no trace of it"),
    adopt: ADOPT,
    topic: PROGRAM("part of the prompt"),
    prompt: PROGRAM("part of the prompt"),
    maxAttempts: PROGRAM("how often to generate again"),
    sourcesHash: PROGRAM("set by the provider"),
    promptHash: PROGRAM("set by the provider"),
    publishTo: PROGRAM("set by the provider from ops:skillsKind: where it is published"),
  },
  "control:RemoteCommand": Object.fromEntries(
    ["create", "update", "delete", "interpreter", "environment", "triggers", "secret"].map((k) => [
      k,
      { why: "a command's run leaves no object the endpoint can show (pulumi-command's Command reads nothing either)" },
    ]),
  ),
  "control:RemoteFile": {
    path: IDENTITY("the file's path"),
    content: { change: ({ id }) => void services.control.machine.files.set(id, "edited on the host\n") },
    source: {
      inputs: { path: "/tmp/drift-source.conf", source: path.resolve(__dirname, "../fixtures/claude-skill/oven-care/SKILL.md") },
      change: ({ id }) => void services.control.machine.files.set(id, "edited on the host\n"),
    },
    mode: { change: ({ id }) => void services.control.machine.modes.set(id, "666") },
    owner: {
      inputs: { ...CREATE_INPUTS["control:RemoteFile"], owner: "ops:staff" },
      change: ({ id }) => void services.control.machine.owners.set(id, "ops:admin"),
    },
    keep: PROGRAM("whether destroy leaves the file"),
    adopt: ADOPT,
    secret: PROGRAM("whether the content is kept secret"),
    contentHash: PROGRAM("set by the provider"),
    size: PROGRAM("set by the provider"),
  },
  "control:RemoteDesktopSession": Object.fromEntries(
    ["host", "port", "username", "password", "helperUrl", "helperToken", "waitSeconds", "triggers"].map((k) => [
      k,
      { why: "the procedure that opens a session: what it leaves (the session) is read as state, connected or not (remote-host.test.ts)" },
    ]),
  ),
};

/** The fields of a type's inputs, as its schema lists them. */
function fieldsOf(type: string): string[] {
  let s: any = registry[type].inputs;
  for (let i = 0; i < 6 && s && !s.shape; i++) s = s.def?.in ?? s.def?.innerType ?? s.def?.schema;
  return Object.keys(s?.shape ?? {});
}

describe("the drift matrix: every field the service holds, changed out of band, is found by refresh and put back by up", () => {
  it("has a row for every field of every resource type but the retired ones", () => {
    for (const type of Object.keys(registry).filter((t) => !registry[t].retired)) {
      expect(Object.keys(ROWS[type] ?? {}).sort(), `${type}: a row per input field (a change to find, or why there is none)`).toEqual(
        fieldsOf(type).sort(),
      );
    }
  });

  for (const [type, rows] of Object.entries(ROWS)) {
    for (const [field, row] of Object.entries(rows)) {
      if ("why" in row) {
        it.skip(`${type}.${field}: ${row.why}`, () => {});
        continue;
      }
      it(`${type}.${field}`, async () => {
        await freshFor(services, type);
        const inputs = await checked(type, row.inputs ?? CREATE_INPUTS[type]);
        const made = await call(type, "create", [inputs]);
        await row.change(made);
        forgetRuleListings(); // each refresh and up is a provider process of its own, with no listing of the last
        const read = await call(type, "read", [made.id, made.outs]);
        expect(read.props, "the object is still there").toBeDefined();
        const diff = await call(type, "diff", [read.id ?? made.id, read.props, inputs]);
        expect(
          diff.changes,
          `refresh reports the change (the next diff has one): ${JSON.stringify(read.inputs ?? read.props).slice(0, 300)}`,
        ).toBe(true);
        if (diff.replaces?.length) return; // put back by a replacement (the service cannot change it in place)
        const up = await call(type, "update", [read.id ?? made.id, read.props, inputs]);
        forgetRuleListings();
        const again = await call(type, "read", [read.id ?? made.id, up.outs]);
        expect(
          (await call(type, "diff", [read.id ?? made.id, again.props, inputs])).changes,
          `up put the program's value back: ${JSON.stringify(again.props).slice(0, 300)}`,
        ).toBe(false);
      });
    }
  }
});
