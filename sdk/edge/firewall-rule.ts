import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-FirewallRule";
import { outputSlots, refuseImport } from "../types";
import { firewallRuleOutputNames, type FirewallRuleArgs, type FirewallRuleOutputs as Out } from "./types";

export type { FirewallRuleArgs };

/**
 * A firewall rule. The expression is checked at preview for what can be proven wrong (unbalanced quotes or braces,
 * invalid addresses in `ip.src in {...}`, unknown fields).
 *
 *     new ops.edge.FirewallRule("bad-net", { zoneName: "example.com", filter: { expression: "ip.src in {198.51.100.0/24}" }, action: "block" });
 */
export class FirewallRule extends pulumi.dynamic.Resource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly filter: pulumi.Output<Out["filter"]>;
  declare readonly filterId: pulumi.Output<Out["filterId"]>;
  declare readonly action: pulumi.Output<Out["action"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly paused: pulumi.Output<Out["paused"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: FirewallRuleArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.FirewallRule", name, opts, true);
    super(provider, name, { ...outputSlots(firewallRuleOutputNames), ...args }, opts, "edge", "FirewallRule");
  }

  /** Reads an existing object without managing it. `id` is the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`. */
  static get(name: string, id: pulumi.Input<string>, state?: { account?: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions): FirewallRule {
    return new FirewallRule(name, { ...state } as FirewallRuleArgs, { ...opts, id });
  }
}
