import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import provider from "../../provider/providers/edge-RateLimit";
import { RateLimitOutputs, type RateLimitInputs } from "../../provider/edge/rate-limit/schema";
import { outputSlots, type InputsOf } from "../types";


export type RateLimitArgs = InputsOf<z.input<typeof RateLimitInputs>>;
type Out = RateLimitOutputs;

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

  constructor(name: string, args: RateLimitArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(RateLimitOutputs), ...args }, opts, "edge", "RateLimit");
  }

  /** Reads an existing object without managing it. `id` is the rule's `.id` (its zone is found among the token's zones), or `<zoneId>/<ruleId>`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): RateLimit {
    return new RateLimit(name, {} as RateLimitArgs, { ...opts, id });
  }
}
