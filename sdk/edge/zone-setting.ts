import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/edge-ZoneSetting";
import type { z } from "zod";
import { ZoneSettingOutputs, type ZoneSettingInputs } from "../../provider/edge/zone-setting/schema";
import { outputSlots, type InputsOf } from "../types";


export type ZoneSettingArgs = InputsOf<z.input<typeof ZoneSettingInputs>>;
type Out = ZoneSettingOutputs;

/**
 * One setting of a zone. Settings cannot be deleted: create remembers the value it found (`initialValue`) and
 * destroy puts it back; refresh reports a value changed out of band.
 *
 *     new ops.edge.ZoneSetting("https", { zoneName: "example.com", settingId: "always_use_https", value: "on" });
 */
export class ZoneSetting extends pulumi.dynamic.Resource {
  declare readonly zoneId: pulumi.Output<Out["zoneId"]>;
  declare readonly zoneName: pulumi.Output<Out["zoneName"]>;
  declare readonly settingId: pulumi.Output<Out["settingId"]>;
  declare readonly value: pulumi.Output<Out["value"]>;
  /** The value found before this resource first changed it; destroy restores it. */
  declare readonly initialValue: pulumi.Output<Out["initialValue"]>;
  declare readonly editable: pulumi.Output<Out["editable"]>;
  declare readonly modifiedOn: pulumi.Output<Out["modifiedOn"]>;

  constructor(name: string, args: ZoneSettingArgs, opts?: pulumi.CustomResourceOptions) {
    super(provider, name, { ...outputSlots(ZoneSettingOutputs), ...args }, opts, "edge", "ZoneSetting");
  }

  /** Reads a setting without managing it. `id` is `<zoneId>/<settingId>`. */
  static get(name: string, id: pulumi.Input<string>, opts?: pulumi.CustomResourceOptions): ZoneSetting {
    return new ZoneSetting(name, {} as ZoneSettingArgs, { ...opts, id });
  }
}
