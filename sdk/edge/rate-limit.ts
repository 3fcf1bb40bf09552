import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-RateLimit";
import { outputSlots, refuseImport } from "../types";
import { rateLimitOutputNames, type RateLimitArgs, type RateLimitOutputs as Out } from "./types";

export type { RateLimitArgs };

/**
 * A rate-limit rule, updated with PUT (the API has no PATCH).
 *
 *     new ops.edge.RateLimit("login", { zoneName: "example.com", threshold: 10, period: 60,
 *       action: { mode: "ban", timeout: 600 }, match: { request: { url: "example.com/login*" } } });
 */
export class RateLimit extends pulumi.dynamic.Resource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly threshold: pulumi.Output<Out["threshold"]>;
  declare readonly period: pulumi.Output<Out["period"]>;
  declare readonly action: pulumi.Output<Out["action"]>;
  declare readonly match: pulumi.Output<Out["match"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly disabled: pulumi.Output<Out["disabled"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: RateLimitArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.RateLimit", name, opts, true);
    super(provider, name, { ...outputSlots(rateLimitOutputNames), ...args }, opts, "edge", "RateLimit");
  }

  /** Reads an existing object without managing it. `id` is the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`. */
  static get(name: string, id: pulumi.Input<string>, state?: { account?: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions): RateLimit {
    return new RateLimit(name, { ...state } as RateLimitArgs, { ...opts, id });
  }
}
