/** `ops.edge.ZoneSetting`: one setting of a zone, restored to the value found before on destroy. */
import { z } from "zod";
import { ruleFailure } from "../../check";
import { zoneInputs, zoneRule } from "../zone-ref";
import { warn } from "../../log";
import { ALLOWED_VALUES, DEPRECATED, LIST_SETTINGS, nearestSetting, NUMBER_SETTINGS, OBJECT_SETTINGS, SETTING_IDS } from "./known";
import type { Example } from "../../doc-example";

export const token = "edge:ZoneSetting";

const warned = new Set<string>();
/** A deprecation said once per run, however often the setting is checked. */
function warnOnce(line: string): void {
  if (!warned.has(line)) warn(line);
  warned.add(line);
}

export const ZoneSettingInputs = z
  .object({
    ...zoneInputs,
    settingId: z
      .string()
      .regex(/^[a-z0-9_]{1,64}$/, "settingId must be a setting id such as ssl, always_use_https or security_level")
      .describe("The setting's id, e.g. `ssl`, `always_use_https`, `security_level`. Changing it replaces the resource.")
      .meta({ replaceOnChanges: true }),
    value: z
      .union([z.string().min(1).max(256), z.number(), z.boolean(), z.array(z.string()), z.record(z.string(), z.unknown())], {
        error: 'value must be text such as "on", a number, a list or an object, as the setting takes',
      })
      .describe(
        'The value to set, of the setting\'s own type: text for most (`"on"`, `"strict"`), a number for `browser_cache_ttl` and other times and sizes, an object for `security_header`, a list for `ciphers`.',
      ),
  })
  .superRefine((s, ctx) => {
    zoneRule(s, ctx);
    const id = s.settingId;
    if (!(SETTING_IDS as readonly string[]).includes(id)) {
      const near = nearestSetting(id);
      ruleFailure(
        ctx,
        "settingId",
        `${id} is not a zone setting the service has${near ? `: did you mean ${near}?` : " (see the zone settings of the service's API reference)"}`,
      );
      return;
    }
    if (DEPRECATED[id]) warnOnce(`edge: zone setting ${id} is deprecated by the service: ${DEPRECATED[id]}; remove its ZoneSetting`);
    const kind = NUMBER_SETTINGS.has(id) ? "number" : OBJECT_SETTINGS.has(id) ? "object" : LIST_SETTINGS.has(id) ? "list" : "text";
    const given =
      typeof s.value === "number"
        ? "number"
        : Array.isArray(s.value)
          ? "list"
          : typeof s.value === "object"
            ? "object"
            : typeof s.value === "string"
              ? "text"
              : "boolean";
    if (kind !== given) {
      const example = {
        number: "a number such as 14400",
        object: "an object such as { strict_transport_security: { enabled: true, max_age: 31536000 } }",
        list: 'a list such as ["ECDHE-ECDSA-AES128-GCM-SHA256"]',
        text: 'text such as "on"',
      }[kind];
      ruleFailure(ctx, "value", `${id} takes ${example}; got ${given === "text" ? `"${s.value}"` : given}`, ["settingId"]);
      return;
    }
    const allowed = ALLOWED_VALUES[id];
    if (allowed && (typeof s.value === "string" || typeof s.value === "number") && !allowed.includes(s.value)) {
      const shown = allowed.map((v) => (typeof v === "string" ? v : String(v))).join(", ");
      ruleFailure(
        ctx,
        "value",
        `${id} must be one of ${shown}${typeof s.value === "number" ? " (seconds or megabytes, as the setting counts)" : ""}; got ${JSON.stringify(s.value)}`,
        ["settingId"],
      );
    }
  });
export type ZoneSettingInputs = z.output<typeof ZoneSettingInputs>;

export const ZoneSettingOutputs = z.object({
  zoneId: z.string(),
  zoneName: z.string(),
  settingId: z.string(),
  value: z.unknown().describe("The value the service has, of the setting's own type."),
  initialValue: z.unknown().describe("The value found before this resource first changed it; destroy restores it."),
  editable: z.boolean().describe("Whether the zone's plan lets the setting be changed."),
  modifiedOn: z.string().optional().describe("When the setting last changed (RFC 3339)."),
});
export type ZoneSettingOutputs = z.infer<typeof ZoneSettingOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  One setting of a zone. Settings cannot be deleted: create remembers the value it found (\`initialValue\`) and
  destroy puts it back; refresh reports a value changed out of band.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = { step: { name: "https", args: { zoneName: "example.com", settingId: "always_use_https", value: "on" } } };
