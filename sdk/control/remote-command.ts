import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/control-RemoteCommand";
import { outputSlots, ownerSlot, refuseImport, secretsSlot, CheckedResource } from "../types";
import { remoteCommandOutputNames, type RemoteCommandArgs, type RemoteCommandOutputs as Out } from "./types";

export type { RemoteCommandArgs };

/**
 * A command run on a host through the computer-control endpoint (ops:controlUrl): `create` when the resource is
 * created, `update` (or `create` again) when an input changes, `delete` when it is destroyed. A change to
 * `triggers` replaces the resource: the delete command runs, then the create command. A shell command's exit
 * status (`exitCode`) is the one it prints itself, whatever the MCP server says of it; any MCP server works, with
 * sessions or stateless. With `secret: true` the commands and their output stay secret.
 *
 *     new ops.control.RemoteCommand("marker", { create: "touch /tmp/ready", delete: "rm -f /tmp/ready" });
 */
export class RemoteCommand extends CheckedResource {
  declare readonly create: pulumi.Output<Out["create"]>;
  declare readonly update: pulumi.Output<Out["update"]>;
  declare readonly delete: pulumi.Output<Out["delete"]>;
  declare readonly interpreter: pulumi.Output<Out["interpreter"]>;
  declare readonly environment: pulumi.Output<Out["environment"]>;
  declare readonly triggers: pulumi.Output<Out["triggers"]>;
  declare readonly secret: pulumi.Output<Out["secret"]>;
  declare readonly stdout: pulumi.Output<Out["stdout"]>;
  declare readonly stderr: pulumi.Output<Out["stderr"]>;
  declare readonly exitCode: pulumi.Output<Out["exitCode"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: RemoteCommandArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("control.RemoteCommand", name, opts, false);
    const secret = args.secret === true;
    const hide = <T>(v: pulumi.Input<T> | undefined) => (secret && v !== undefined ? pulumi.secret(v) : v);
    // As pulumi-command does: a command or environment holding a secret makes the output secret too. The provider
    // cannot tell (the engine strips secrets before calling it), so `secret` becomes true here and it wraps them.
    const fromSecret = Promise.all(
      [args.create, args.update, args.delete, args.environment, args.triggers].map((v) =>
        v === undefined ? false : pulumi.isSecret(pulumi.output(v)),
      ),
    );
    // A value that is not a boolean ("yes") goes to check as given, which refuses it: never read as false.
    const effective = pulumi
      .output(args.secret)
      .apply(async (s) => (s !== undefined && typeof s !== "boolean" ? s : s === true || (await fromSecret).some(Boolean)));
    super(
      provider,
      name,
      {
        ...outputSlots(remoteCommandOutputNames),
        ...args,
        secret: effective,
        create: hide(args.create),
        update: hide(args.update),
        delete: hide(args.delete),
        environment: hide(args.environment),
        ...ownerSlot(name, opts),
        ...secretsSlot(
          { ...args, create: hide(args.create), update: hide(args.update), delete: hide(args.delete), environment: hide(args.environment) },
          opts,
        ),
      },
      secret ? { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "stdout", "stderr"] } : opts,
      "control",
      "RemoteCommand",
    );
  }
}
