/**
 * A RemoteCommand that fails (exit 3) after printing a secret: its command built with `pulumi.interpolate` from a
 * secret config value (`mode: interpolate`), or written in the program with `secret: true` (`mode: flag`); through
 * the TypeScript class (`door: dynamic`) or by its schema token, as other languages reach it (`door: plugin`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const door = config.get("door") ?? "dynamic";
const flag = config.get("mode") === "flag";
const create = flag ? "echo using hunter2-flag-secret; exit 3" : pulumi.interpolate`echo using ${config.requireSecret("pw")}; exit 3`;

/** A resource of the ops package by its token, as a generated SDK's classes are underneath. */
class Ops extends pulumi.CustomResource {
  constructor(token: string, name: string, props: pulumi.Inputs) {
    super(token, name, props);
  }
}

if (door === "plugin")
  new Ops("ops:control:RemoteCommand", "leaky", { create, secret: flag, stdout: undefined, stderr: undefined, exitCode: undefined });
else new ops.control.RemoteCommand("leaky", { create, secret: flag });
