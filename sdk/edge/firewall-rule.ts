import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-FirewallRule";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { firewallRuleOutputNames, type FirewallRuleArgs, type FirewallRuleOutputs as Out } from "./types";

export type { FirewallRuleArgs };

/**
 * A firewall rule: a WAF custom rule of the zone's `http_request_firewall_custom` entry point ruleset (the service's
 * rulesets engine; rules made elsewhere are left alone). The expression is checked at preview for what can be proven
 * wrong (unbalanced quotes or braces, invalid addresses in `ip.src in {...}`, unknown fields). A stack of 0.3.0 (a
 * legacy firewall rule id in state) moves with one update that finds the rule the service converted it into and
 * writes nothing when it is as the program says.
 *
 *     new ops.edge.FirewallRule("badNet", { zoneName: "example.com", expression: "ip.src in {198.51.100.0/24}", action: "block" });
 */
export class FirewallRule extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly expression: pulumi.Output<Out["expression"]>;
  declare readonly filter: pulumi.Output<Out["filter"]>;
  declare readonly action: pulumi.Output<Out["action"]>;
  declare readonly actionParameters: pulumi.Output<Out["actionParameters"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly paused: pulumi.Output<Out["paused"]>;
  declare readonly enabled: pulumi.Output<Out["enabled"]>;
  declare readonly ref: pulumi.Output<Out["ref"]>;
  declare readonly ruleId: pulumi.Output<Out["ruleId"]>;
  declare readonly rulesetId: pulumi.Output<Out["rulesetId"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly position: pulumi.Output<Out["position"]>;
  declare readonly response: pulumi.Output<Out["response"]>;
  declare readonly logging: pulumi.Output<Out["logging"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: FirewallRuleArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.FirewallRule", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(firewallRuleOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "FirewallRule",
    );
  }

  /** Reads an existing object without managing it. `id` is the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): FirewallRule {
    return new FirewallRule(name, { ...state } as FirewallRuleArgs, { ...opts, id });
  }
}
