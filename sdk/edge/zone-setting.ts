import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-ZoneSetting";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { zoneSettingOutputNames, type ZoneSettingArgs, type ZoneSettingOutputs as Out } from "./types";

export type { ZoneSettingArgs };

/**
 * One setting of a zone. Settings cannot be deleted: create remembers the value it found (`initialValue`) and
 * destroy puts it back; refresh reports a value changed out of band.
 *
 *     new ops.edge.ZoneSetting("https", { zoneName: "example.com", settingId: "always_use_https", value: "on" });
 */
export class ZoneSetting extends CheckedResource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly settingId: pulumi.Output<Out["settingId"]>;
  declare readonly value: pulumi.Output<Out["value"]>;
  /** The value found before this resource first changed it; destroy restores it. */
  declare readonly initialValue: pulumi.Output<Out["initialValue"]>;
  declare readonly editable: pulumi.Output<Out["editable"]>;
  declare readonly modifiedOn: pulumi.Output<Out["modifiedOn"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: ZoneSettingArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("edge.ZoneSetting", name, opts, false);
    super(
      provider,
      name,
      { ...outputSlots(zoneSettingOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "edge",
      "ZoneSetting",
    );
  }

  /** Reads a setting without managing it. `id` is `<zoneId>/<settingId>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): ZoneSetting {
    return new ZoneSetting(name, { ...state } as ZoneSettingArgs, { ...opts, id });
  }
}
