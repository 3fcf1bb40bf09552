/**
 * What a resource's TypeScript class does in the program's process beyond registering its inputs, where it does more
 * (a record set carries its records as one text; a command's secret makes its outputs secret). A resource folder's
 * `program.ts` exports it as `program`; the generated class (scripts/gen-sdk-classes.ts) calls it. Every other
 * part of a class is generated from the schema: its outputs, its secret inputs, its sets, `get` and the import
 * option's refusal.
 */
import * as pulumi from "@pulumi/pulumi";

export interface ProgramSide {
  /** The inputs and options the engine is given in place of the program's (for each class, before `super`). */
  register?(
    args: Record<string, any>,
    opts: pulumi.CustomResourceOptions | undefined,
  ): { args: Record<string, any>; opts: pulumi.CustomResourceOptions | undefined };
  /** Called once the resource is constructed: outputs read back another way, or noted for a function. */
  constructed?(resource: pulumi.CustomResource, opts: pulumi.CustomResourceOptions | undefined): void;
}

/** Whether a value holds no Output or promise at any depth: it can be checked in the program, before the engine. */
export function settled(v: unknown): boolean {
  if (v === null || typeof v !== "object") return true;
  if (pulumi.Output.isInstance(v) || typeof (v as { then?: unknown }).then === "function") return false;
  return Object.values(v).every(settled);
}
