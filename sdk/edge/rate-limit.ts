import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-RateLimit";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { rateLimitOutputNames, type RateLimitArgs, type RateLimitOutputs as Out } from "./types";

export type { RateLimitArgs };

/**
 * A rate limiting rule of the zone's `http_ratelimit` entry point ruleset (the service's rulesets engine), counted per
 * data centre and client address. The zone's plan decides the periods, timeouts and fields it may use; a preview
 * refuses what the plan does not allow. A stack of 0.3.0 (a legacy rate limit id in state) moves with one update that
 * finds the rule the service converted it into and writes nothing when it is as the program says. On a Free zone
 * (a Pro or Business zone may count longer, ban longer, and match the host and the method):
 *
 *     new ops.edge.RateLimit("login", {
 *       zoneName: "example.com",
 *       threshold: 10,
 *       period: 10,
 *       action: { mode: "ban", timeout: 10 },
 *       match: { request: { url: "*\/login*" } },
 *     });
 */
export class RateLimit extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly threshold: pulumi.Output<Out["threshold"]>;
  declare readonly period: pulumi.Output<Out["period"]>;
  declare readonly action: pulumi.Output<Out["action"]>;
  declare readonly match: pulumi.Output<Out["match"]>;
  declare readonly description: pulumi.Output<Out["description"]>;
  declare readonly disabled: pulumi.Output<Out["disabled"]>;
  declare readonly ref: pulumi.Output<Out["ref"]>;
  declare readonly expression: pulumi.Output<Out["expression"]>;
  declare readonly ruleId: pulumi.Output<Out["ruleId"]>;
  declare readonly rulesetId: pulumi.Output<Out["rulesetId"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly position: pulumi.Output<Out["position"]>;
  declare readonly characteristics: pulumi.Output<Out["characteristics"]>;
  declare readonly countingExpression: pulumi.Output<Out["countingExpression"]>;
  declare readonly requestsToOrigin: pulumi.Output<Out["requestsToOrigin"]>;
  declare readonly logging: pulumi.Output<Out["logging"]>;
  declare readonly scorePerPeriod: pulumi.Output<Out["scorePerPeriod"]>;
  declare readonly scoreResponseHeaderName: pulumi.Output<Out["scoreResponseHeaderName"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: RateLimitArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.RateLimit", name, opts, true);
    super(
      provider,
      name,
      { ...outputSlots(rateLimitOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "RateLimit",
    );
  }

  /** Reads an existing object without managing it. `id` is the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): RateLimit {
    return new RateLimit(name, { ...state } as RateLimitArgs, { ...opts, id });
  }
}
