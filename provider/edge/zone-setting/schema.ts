/** `ops.edge.ZoneSetting`: one setting of a zone, restored to the value found before on destroy. */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { zoneInputs, zoneRule } from "../zone-ref";

export const token = "edge:ZoneSetting";

/** Allowed values of the settings the provider knows; other ids are passed through to the API to judge. */
export const KNOWN_VALUES: Record<string, readonly string[]> = {
  always_use_https: ["on", "off"],
  automatic_https_rewrites: ["on", "off"],
  brotli: ["on", "off"],
  cache_level: ["basic", "simplified", "aggressive"],
  development_mode: ["on", "off"],
  http3: ["on", "off"],
  ipv6: ["on", "off"],
  min_tls_version: ["1.0", "1.1", "1.2", "1.3"],
  security_level: ["off", "essentially_off", "low", "medium", "high", "under_attack"],
  ssl: ["off", "flexible", "full", "strict"],
  tls_1_3: ["on", "off", "zrt"],
  websockets: ["on", "off"],
};

export const ZoneSettingInputs = z
  .object({
    ...zoneInputs,
    settingId: z
      .string()
      .regex(/^[a-z0-9_]{1,64}$/, "settingId must be a setting id such as ssl, always_use_https or security_level")
      .describe("The setting's id, e.g. `ssl`, `always_use_https`, `security_level`. Changing it replaces the resource.")
      .meta({ replaceOnChanges: true }),
    value: z.string({ error: "value must be a string such as \"on\"" }).min(1).max(64).describe("The value to set."),
  })
  .superRefine((s, ctx) => {
    zoneRule(s, ctx);
    const allowed = KNOWN_VALUES[s.settingId];
    if (allowed && !allowed.includes(s.value)) {
      ruleFailure(ctx, "value", `${s.settingId} must be one of ${allowed.join(", ")}; got "${s.value}"`, ["settingId"]);
    }
  });
export type ZoneSettingInputs = z.output<typeof ZoneSettingInputs>;

export const ZoneSettingOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  settingId: z.string(),
  value: z.string(),
  initialValue: z.string().describe("The value found before this resource first changed it; destroy restores it."),
  editable: z.boolean(),
  modifiedOn: z.string().optional(),
});
export type ZoneSettingOutputs = z.infer<typeof ZoneSettingOutputs>;
