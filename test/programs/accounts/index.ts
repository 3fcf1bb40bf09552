/**
 * Records in two edge accounts from one stack, on both doors. The stack's own account is `ops:edgeApiToken` /
 * `ops:edgeBaseUrl`; the second is the named account `eu` of `ops:accounts`. On the plugin door the second is
 * also reached the way other languages do: an explicit provider given its own token.
 */
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const record = (name: string, content: string) => ({ zoneName: "example.com", type: "A" as const, name, content, ttl: 300 });

// The dynamic door: the `account` input chooses the settings.
new ops.edge.DnsRecord("home-dynamic", record("home-dynamic", "203.0.113.1"));
new ops.edge.DnsRecord("eu-dynamic", { ...record("eu-dynamic", "203.0.113.2"), account: "eu" });

// The plugin door, by the schema's tokens as a generated SDK registers them.
class Ops extends pulumi.CustomResource {
  constructor(name: string, props: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super("ops:edge:DnsRecord", name, { ...props, hostname: undefined }, opts);
  }
}
/** The provider resource a generated SDK names `ops.Provider`. */
class Provider extends pulumi.ProviderResource {
  constructor(name: string, props: pulumi.Inputs) {
    super("ops", name, props);
  }
}
const eu = new Provider("eu", { edgeApiToken: config.requireSecret("euToken"), edgeBaseUrl: config.require("euUrl") });
new Ops("home-plugin", record("home-plugin", "203.0.113.3"));
new Ops("eu-plugin", record("eu-plugin", "203.0.113.4"), { provider: eu });
new Ops("eu-plugin-account", { ...record("eu-plugin-account", "203.0.113.5"), account: "eu" });
