import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/control-RemoteDesktopSession";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { remoteDesktopSessionOutputNames, type RemoteDesktopSessionArgs, type RemoteDesktopSessionOutputs as Out } from "./types";

export type { RemoteDesktopSessionArgs };

/**
 * A remote-desktop session opened through a helper computer's control tools (the macOS Screen Sharing procedure): `open
 * vnc://<host>`, wait for the login dialog, sign in with `username` and the password (`password`, or the secret
 * config `ops:controlVncPassword`), accept Standard. It runs when the stack is applied, once per apply: `pulumi
 * preview` shows it and sends nothing. A change opens it again; destroy closes it.
 *
 *     new ops.control.RemoteDesktopSession("kiosk", { host: "kiosk.local", username: "ops" });
 */
export class RemoteDesktopSession extends CheckedResource {
  declare readonly host: pulumi.Output<Out["host"]>;
  declare readonly port: pulumi.Output<Out["port"]>;
  declare readonly username: pulumi.Output<Out["username"]>;
  declare readonly helperUrl: pulumi.Output<Out["helperUrl"]>;
  declare readonly waitSeconds: pulumi.Output<Out["waitSeconds"]>;
  declare readonly triggers: pulumi.Output<Out["triggers"]>;
  declare readonly window: pulumi.Output<Out["window"]>;
  declare readonly screen: pulumi.Output<Out["screen"]>;
  declare readonly black: pulumi.Output<Out["black"]>;
  declare readonly pixels: pulumi.Output<Out["pixels"]>;
  declare readonly points: pulumi.Output<Out["points"]>;
  declare readonly password: pulumi.Output<Out["password"]>;
  declare readonly helperToken: pulumi.Output<Out["helperToken"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: RemoteDesktopSessionArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("control.RemoteDesktopSession", name, opts, false);
    const hide = <T>(v: pulumi.Input<T> | undefined) => (v !== undefined ? pulumi.secret(v) : v);
    super(
      provider,
      name,
      {
        ...outputSlots(remoteDesktopSessionOutputNames),
        ...args,
        password: hide(args.password),
        helperToken: hide(args.helperToken),
        ...ownerSlot(name, opts),
        ...secretsSlot({ ...args, password: hide(args.password), helperToken: hide(args.helperToken) }, opts),
      },
      opts,
      "control",
      "RemoteDesktopSession",
    );
  }
}
