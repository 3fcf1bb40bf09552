/**
 * Every input below is another resource's output, unknown when `pulumi preview --save-plan` runs: the plan holds
 * what `check` said then, and `pulumi up --plan` must apply without a violation. The TypeScript classes (dynamic
 * door) with `door: dynamic`, the schema's tokens (the plugin, as other languages reach it) with `door: plugin`.
 */
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const door = config.get("door") ?? "dynamic";
const pageId = config.require("pageId");
const zoneName = "example.com";

/** A resource of the ops package by its token, as a generated SDK's classes are underneath. */
class Ops extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs) {
    super(token, name, props);
  }
}

const inputs = (host: pulumi.Output<string>) => ({
  "edge:DnsRecord": { zoneName, type: "CNAME", name: `blog-${door}`, content: host },
  "edge:PageRule": {
    zoneName,
    targets: [pulumi.interpolate`${host}/blog-${door}/*`],
    actions: [{ id: "cache_level", value: "cache_everything" }],
  },
  "edge:FirewallRule": {
    zoneName,
    expression: pulumi.interpolate`http.host eq "${host}" and http.request.uri.path eq "/${door}"`,
    action: "block",
  },
  "pages:PagePost": { pageId, message: pulumi.interpolate`Read our new blog at https://${host}/blog (${door})` },
  "posts:Post": { mediaType: "TEXT", text: pulumi.interpolate`New on ${host} (${door})` },
  "control:RemoteCommand": { create: pulumi.interpolate`echo ${host} >> /tmp/plans-${door}` },
});

if (door === "plugin") {
  const base = new Ops("ops:edge:DnsRecord", "base", {
    zoneName,
    type: "A",
    name: "plan-base-plugin",
    content: "203.0.113.50",
    hostname: undefined,
  });
  const host = (base as unknown as { hostname: pulumi.Output<string> }).hostname;
  for (const [token, props] of Object.entries(inputs(host))) new Ops(`ops:${token}`, token.split(":")[1].toLowerCase(), props);
} else {
  const base = new ops.edge.DnsRecord("base", { zoneName, type: "A", name: "plan-base-dynamic", content: "203.0.113.51" });
  const i = inputs(base.hostname);
  new ops.edge.DnsRecord("dnsrecord", i["edge:DnsRecord"] as ops.edge.DnsRecordArgs);
  new ops.edge.PageRule("pagerule", i["edge:PageRule"] as ops.edge.PageRuleArgs);
  new ops.edge.FirewallRule("firewallrule", i["edge:FirewallRule"] as ops.edge.FirewallRuleArgs);
  new ops.pages.PagePost("pagepost", i["pages:PagePost"]);
  new ops.posts.Post("post", i["posts:Post"] as ops.posts.PostArgs);
  new ops.control.RemoteCommand("remotecommand", i["control:RemoteCommand"]);
}

// A Worker bound to a KV namespace, and a reply to a post (issue 61): the namespace's id and the post's id are
// unknown at preview.
const SCRIPT = "export default { async fetch(request, env) { return new Response(await env.KV.get('x')); } };";
if (door === "plugin") {
  const kv = new Ops("ops:edge:KvNamespace", "kv", { title: "plans-plugin", namespaceId: undefined });
  const kvId = (kv as unknown as { namespaceId: pulumi.Output<string> }).namespaceId;
  new Ops("ops:edge:WorkerScript", "script", {
    name: "plans-plugin",
    content: SCRIPT,
    bindings: [{ name: "KV", type: "kv_namespace", namespaceId: kvId }],
  });
  const first = new Ops("ops:posts:Post", "first", { mediaType: "TEXT", text: "A thread (plugin)", postId: undefined });
  new Ops("ops:posts:Post", "reply", {
    mediaType: "TEXT",
    text: "and its reply (plugin)",
    replyTo: (first as unknown as { postId: pulumi.Output<string> }).postId,
  });
} else {
  const kv = new ops.edge.KvNamespace("kv", { title: "plans-dynamic" });
  new ops.edge.WorkerScript("script", {
    name: "plans-dynamic",
    content: SCRIPT,
    bindings: [{ name: "KV", type: "kv_namespace", namespaceId: kv.namespaceId }],
  });
  new ops.posts.Thread("thread", { posts: ["A thread (dynamic)", "and its reply (dynamic)"] });
}

// A zone setting whose value the service refuses (browser_cache_ttl takes 0, 30, 60, ...): the preview must fail.
const ttl = config.getNumber("browserCacheTtl");
if (ttl !== undefined) new ops.edge.ZoneSetting("browser-cache", { zoneName, settingId: "browser_cache_ttl", value: ttl });
