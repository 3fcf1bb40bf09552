/**
 * `ops.edge.ZoneSetting`. A setting cannot be deleted, so create remembers the value it found (`initialValue`)
 * before changing it, and delete puts that value back. id: `<zoneId>/<settingId>`.
 */
import { checkWith, isUnknown, withoutProvider } from "../../check";
import { changedKeys, type Bag, type Handler } from "../../handler";
import { ValidationError } from "../../http/errors";
import type * as wire from "../wire";
import { edge, resolveZone, type ZoneRef, zoneKnownAtPreview } from "../zones";
import { programZoneInputs, zoneChanged, zoneOutputs } from "../zone-ref";
import { valueKey } from "./known";
import { ZoneSettingInputs, type ZoneSettingOutputs } from "./schema";
import type { PreviewContext } from "../../preview";

/** Values compared as the service holds them, of any type (0.3.0 kept them as text: "3600" stands for 3600). */
const sameValue = (a: unknown, b: unknown) =>
  valueKey(a) === valueKey(b) || (typeof a !== typeof b && String(a) === String(b) && typeof (a ?? b) !== "object");

function outputs(wanted: { zoneId?: string }, zone: ZoneRef, s: wire.ZoneSetting, initialValue: unknown): ZoneSettingOutputs {
  return {
    ...zoneOutputs(wanted, zone),
    settingId: s.id,
    value: s.value,
    initialValue,
    editable: s.editable ?? true,
    ...(s.modified_on ? { modifiedOn: s.modified_on } : {}),
  };
}

function parseId(id: string): [string, string] {
  const [zoneId, settingId] = id.split("/");
  return [zoneId, settingId];
}

/**
 * At preview (reads only, one listing of the zone's settings a run): a setting the zone's listing does not name is
 * refused as the service refuses it (1006), and one it lists as not editable as well (1057), so that a program of
 * many settings (a migrated settings override) fails at preview instead of part-way through its up.
 */
async function previewSetting({ inputs, account, once }: PreviewContext): Promise<void> {
  if (isUnknown(inputs.settingId) || isUnknown(inputs.zoneName) || isUnknown(inputs.zoneId) || typeof inputs.settingId !== "string") return;
  const zone = await resolveZone(inputs);
  const listed = await once(`${account ?? ""} zone settings ${zone.id}`, () => edge().listSettings(zone.id));
  const setting = listed.find((x) => x.id === inputs.settingId);
  if (!setting) {
    throw new ValidationError({
      service: "edge",
      code: 1006,
      message: `zone ${zone.name} has no setting ${inputs.settingId} (its settings listing names ${listed.length} others)`,
      remedy: "Remove this ZoneSetting, or use the setting's successor the service names (docs/reference/edge.md)",
    });
  }
  if (setting.editable === false && !sameValue(setting.value, inputs.value)) {
    throw new ValidationError({
      service: "edge",
      code: 1057,
      message: `zone setting ${inputs.settingId} is not editable on ${zone.name} (it is ${JSON.stringify(setting.value)})`,
      remedy: "Remove this ZoneSetting: the zone's plan does not allow changing it",
    });
  }
}

export const zoneSetting: Handler<ZoneSettingInputs, ZoneSettingOutputs> = {
  // A setting the zone does not list, or cannot change: up would fail on it part-way (1006, 1057).
  preview: async (ctx) => {
    if (ctx.reads) await previewSetting(ctx);
  },
  knownAtPreview: zoneKnownAtPreview,
  async check(_olds, news) {
    return checkWith(ZoneSettingInputs, news);
  },

  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces: string[] = [];
    if (zoneChanged(wanted, olds as ZoneSettingOutputs)) replaces.push(wanted.zoneId ? "zoneId" : "zoneName");
    if (wanted.settingId !== olds.settingId) replaces.push("settingId");
    const changed = changedKeys(["value"], olds, wanted, (_k, a, b) => sameValue(a, b));
    return { changes: replaces.length + changed.length > 0, replaces };
  },

  async create(raw) {
    const s = raw as ZoneSettingInputs;
    const zone = await resolveZone(s);
    const found = await edge().getSetting(zone.id, s.settingId);
    if (found.editable === false) {
      throw new ValidationError({
        service: "edge",
        code: 1057,
        message: `zone setting ${s.settingId} is not editable on ${zone.name}`,
        remedy: "Remove this ZoneSetting: the plan does not allow changing it",
      });
    }
    const set = sameValue(found.value, s.value) ? found : await edge().patchSetting(zone.id, s.settingId, s.value);
    return { id: `${zone.id}/${s.settingId}`, outs: outputs(s, zone, set, found.value) };
  },

  async read(id, props) {
    const [zoneId, settingId] = parseId(id);
    const zone = props.zoneName ? { id: zoneId, name: props.zoneName as string } : await resolveZone({ zoneId });
    const s = await edge().getSetting(zone.id, settingId);
    // A lookup with get() has no initial value of its own: what is there now is what destroy would keep.
    const outs = outputs(props, zone, s, props.initialValue ?? s.value);
    if (sameValue(outs.value, props.value)) return { id, props: { ...outs, value: props.value } };
    const { initialValue: _i, editable: _e, modifiedOn: _m, ...inputs } = outs;
    return { id, props: outs, inputs: programZoneInputs(inputs) };
  },

  async update(id, olds, news) {
    const s = withoutProvider(news) as ZoneSettingInputs;
    const [zoneId] = parseId(id);
    const zone = { id: zoneId, name: olds.zoneName as string };
    const set = await edge().patchSetting(zone.id, s.settingId, s.value);
    return { outs: outputs(s, zone, set, olds.initialValue) };
  },

  async delete(id, props: Bag) {
    const [zoneId, settingId] = parseId(id);
    const now = await edge().getSetting(zoneId, settingId);
    if (!sameValue(now.value, props.initialValue)) await edge().patchSetting(zoneId, settingId, props.initialValue);
  },
};
