/**
 * No pulumi-ops import: resources are registered by their schema tokens (`ops:edge:DnsRecord`), exactly what a
 * YAML program or an SDK generated from schema.json sends, so the engine serves them with the resource plugin
 * `pulumi-resource-ops` found on PATH. Output-only properties are listed as undefined, as generated SDKs do.
 */
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();

/** A resource of the ops package by its token, as a generated SDK's classes are underneath. */
class Ops extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs) {
    super(token, name, props);
  }
}

const record = new Ops("ops:edge:DnsRecord", "www", {
  zoneName: "example.com",
  type: "A",
  name: "www",
  content: "203.0.113.10",
  ttl: config.getNumber("ttl") ?? 300,
  hostname: undefined,
  zoneId: undefined,
});

// Known at preview on this door too: the record's hostname follows from its name and zone.
export const wwwHost = (record as unknown as { hostname: pulumi.Output<string> }).hostname;

// A secret input: every output derived from it (here `text`) must come back secret through the plugin.
new Ops("ops:posts:Post", "note", {
  mediaType: "TEXT",
  text: pulumi.secret("a text kept secret through the plugin"),
  permalink: undefined,
  postId: undefined,
});

new Ops("ops:skills:Skill", "oven-care", {
  slug: "oven-care",
  source: "../../../examples/ai-host/skills/oven-care/SKILL.md",
  category: "ops",
  version: config.get("skillVersion") ?? "1.0.0",
  lines: undefined,
});

// A record made out of band, taken over when the config names it: the adoption is reported under this resource.
const adopt = config.get("adoptName");
if (adopt)
  new Ops("ops:edge:DnsRecord", "adopted", {
    zoneName: "example.com",
    type: "A",
    name: adopt,
    content: "203.0.113.99",
    ttl: 300,
    adopt: true,
  });

export const hostname = (record as unknown as { hostname: pulumi.Output<string> }).hostname;
