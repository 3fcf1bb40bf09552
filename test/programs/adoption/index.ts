import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();

// Two records of each type at one name, as a zone holds them: two MX, a round-robin A pair, two TXT, two CAA.
// Every one says `adopt: true`, as `pulumi-ops import` writes them: each must take its own record, or make it.
export const recordIds: pulumi.Output<string>[] = [];
if (config.getBoolean("records") !== false) {
  const zoneName = "example.org";
  const records: [string, ops.edge.DnsRecordArgs][] = [
    ["mx1", { zoneName, type: "MX", name: "@", content: "mx1.example.net", priority: 10, adopt: true }],
    ["mx2", { zoneName, type: "MX", name: "@", content: "mx2.example.net", priority: 20, adopt: true }],
    ["www-a", { zoneName, type: "A", name: "www", content: "203.0.113.1", adopt: true }],
    ["www-b", { zoneName, type: "A", name: "www", content: "203.0.113.2", adopt: true }],
    ["spf", { zoneName, type: "TXT", name: "@", content: "v=spf1 include:example.net -all", adopt: true }],
    ["verify", { zoneName, type: "TXT", name: "@", content: "site-verification=abc123", adopt: true }],
    ["caa-issue", { zoneName, type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "letsencrypt.org" }, adopt: true }],
    [
      "caa-iodef",
      { zoneName, type: "CAA", name: "@", data: { flags: 0, tag: "iodef", value: "mailto:security@example.org" }, adopt: true },
    ],
  ];
  for (const [name, args] of records) recordIds.push(new ops.edge.DnsRecord(name, args).id);
}

const skill = config.get("skill");
if (skill) {
  new ops.skills.Skill("host-care", {
    slug: skill,
    name: skill,
    description: "Checks that the host answers, and what to do when it does not.",
    instruction: "# Host care\n\nPing the host; if it does not answer, look at the edge network's status first.",
    followGuide: false,
    adopt: config.getBoolean("adopt") ?? false,
  });
}

const model = config.get("model");
if (model) new ops.runner.RunnerModel("helper", { name: model, adopt: config.getBoolean("adopt") ?? false });

// A record of a paid zone (its tags carry the owner's label) and an edge script (its tags too), for two stacks.
const edgeOwner = config.get("edgeOwner");
if (edgeOwner) {
  const adopt = config.getBoolean("adopt") ?? false;
  new ops.edge.DnsRecord("mail", { zoneName: "example.com", type: "MX", name: "@", content: "mx.example.net", priority: 10, adopt });
  new ops.edge.WorkerScript("site", {
    name: edgeOwner,
    content: 'export default {\n  fetch() {\n    return new Response("hello");\n  },\n};\n',
    adopt,
  });
}

// A forwarding page rule made in the dashboard, taken over (issue 57): the program writes {status_code, url}, the
// service answers {url, status_code}.
if (config.getBoolean("pageRule")) {
  new ops.edge.PageRule("old-shop", {
    zoneName: "example.org",
    targets: ["example.org/shop/*"],
    actions: [{ id: "forwarding_url", value: { status_code: 301, url: "https://shop.example.net/$1" } }],
    adopt: true,
  });
}
