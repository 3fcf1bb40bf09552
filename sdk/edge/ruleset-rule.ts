import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-RulesetRule";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { rulesetRuleOutputNames, type RulesetRuleArgs, type RulesetRuleOutputs as Out } from "./types";

export type { RulesetRuleArgs };

/**
 * One rule of a zone's entry point ruleset in any phase the service documents: cache rules
 * (`http_request_cache_settings`), redirect rules (`http_request_dynamic_redirect`), transform rules, origin rules,
 * configuration rules, custom and rate limiting rules. The resource owns its one rule: the phase's other rules (the
 * dashboard's, another stack's) are never touched; an update keeps what the program does not declare; `position`
 * puts it among them.
 *
 *     new ops.edge.RulesetRule("cacheStatic", {
 *       zoneName: "example.com",
 *       phase: "http_request_cache_settings",
 *       expression: "http.request.uri.path wildcard \"/static/*\"",
 *       action: "set_cache_settings",
 *       actionParameters: { cache: true },
 *     });
 */
export class RulesetRule extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly phase: pulumi.Output<Out["phase"]>;
  declare readonly expression: pulumi.Output<Out["expression"]>;
  declare readonly action: pulumi.Output<Out["action"]>;
  declare readonly actionParameters: pulumi.Output<Out["actionParameters"]>;
  declare readonly ratelimit: pulumi.Output<Out["ratelimit"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly enabled: pulumi.Output<Out["enabled"]>;
  declare readonly ref: pulumi.Output<Out["ref"]>;
  declare readonly ruleId: pulumi.Output<Out["ruleId"]>;
  declare readonly rulesetId: pulumi.Output<Out["rulesetId"]>;
  declare readonly position: pulumi.Output<Out["position"]>;
  declare readonly logging: pulumi.Output<Out["logging"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: RulesetRuleArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.RulesetRule", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(rulesetRuleOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "RulesetRule",
    );
  }

  /** Reads an existing object without managing it. `id` is `<zoneId>/<phase>/<ruleId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): RulesetRule {
    return new RulesetRule(name, { ...state } as RulesetRuleArgs, { ...opts, id });
  }
}
