import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-PageRule";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { pageRuleOutputNames, type PageRuleArgs, type PageRuleOutputs as Out } from "./types";

export type { PageRuleArgs };

/**
 * A page rule: a URL pattern and the actions for matching requests. `priority` is the rank you ask for; the service
 * renumbers ranks to close gaps, reported as `effectivePriority`, so sparse ranks never churn.
 *
 *     new ops.edge.PageRule("static", {
 *       zoneName: "example.com",
 *       targets: ["example.com/static/*"],
 *       actions: [{ id: "cache_level", value: "cache_everything" }],
 *       priority: 1,
 *     });
 */
export class PageRule extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly targets: pulumi.Output<Out["targets"]>;
  declare readonly actions: pulumi.Output<Out["actions"]>;
  declare readonly priority: pulumi.Output<Out["priority"]>;
  declare readonly effectivePriority: pulumi.Output<Out["effectivePriority"]>;
  declare readonly status: pulumi.Output<Out["status"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly createdOn: pulumi.Output<Out["createdOn"]>;
  declare readonly modifiedOn: pulumi.Output<Out["modifiedOn"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: PageRuleArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.PageRule", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(pageRuleOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "PageRule",
    );
  }

  /** Reads an existing object without managing it. `id` is the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): PageRule {
    return new PageRule(name, { ...state } as PageRuleArgs, { ...opts, id });
  }
}
