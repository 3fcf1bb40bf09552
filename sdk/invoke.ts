/**
 * The SDK's functions run in the program's process (the dynamic door has no invoke): through the same table,
 * argument checks and result shapes as the provider plugin's invokes (provider/door.ts), with the stack's config.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as door from "../provider/door";
import type * as errors from "../provider/http/errors";

/**
 * The provider's modules (its schemas, clients, zod and yaml: about 200 files) load on a program's first function
 * call, not when the program imports pulumi-ops: a program that declares resources only never needs them, and
 * every preview starts the program.
 */
function provider(): {
  invoke: typeof door.invoke;
  ValidationError: typeof errors.ValidationError;
  withStackConfig: typeof import("./config").withStackConfig;
} {
  return {
    invoke: require("../provider/door").invoke,
    ValidationError: require("../provider/http/errors").ValidationError,
    withStackConfig: require("./config").withStackConfig,
  };
}

/**
 * A function's arguments with what the program supplies when they are left out: `getUnmanagedRecords`' managedIds
 * are the ids of the sets and records the program declared before the call, as an output (unknown in a preview
 * where one of them changes, so the result is unknown there rather than wrong).
 */
export function programDefaults<A extends object>(token: string, args: A): A {
  if (token !== "edge:getUnmanagedRecords" || (args as { managedIds?: unknown }).managedIds !== undefined) return args;
  const { programRecordIdsOutput } = require("../provider/edge/program-records") as typeof import("../provider/edge/program-records");
  return { ...args, managedIds: programRecordIdsOutput() };
}

/**
 * One function call: bad arguments throw one error naming each. `opts` is accepted as generated SDKs accept it;
 * on this door a function reads with the stack's own settings, or those of `args.account`.
 */
export function invokeInProgram<R>(token: string, args: object, _opts?: pulumi.InvokeOptions): Promise<R> {
  const { invoke, ValidationError, withStackConfig } = provider();
  return withStackConfig(async () => {
    try {
      // Without managedIds, the program's own records are left out: the ids known so far of the sets and records it
      // declared (the Output form waits for them; see programDefaults).
      if (token === "edge:getUnmanagedRecords" && (args as { managedIds?: unknown }).managedIds === undefined) {
        const { programRecordIds } = require("../provider/edge/program-records") as typeof import("../provider/edge/program-records");
        args = { ...args, managedIds: await programRecordIds() };
      }
      const r = await invoke(token, args);
      if (r.failures?.length) {
        throw new ValidationError({
          service: token.split(":")[0],
          message: `${token.split(":")[1]}: ${r.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
        });
      }
      return r.outputs as R;
    } catch (e) {
      // The engine prints a RunError as its message alone, as it prints a resource's failure: one line with the
      // fix, no stack frames into the package's files. The stack is the message too: the runtime also inspects the
      // error in colour, and Node's inspect loops until the heap is spent (20-30 s and a gigabyte before it gives up)
      // on the frame `node_modules/@pulumi/output.ts` that @pulumi/pulumi's source maps give an apply
      // (https://github.com/nodejs/node/issues/64011; Node 22.23 and 20.20 still loop).
      const { RunError } = require("@pulumi/pulumi") as typeof pulumi;
      const message = e instanceof Error ? e.message : String(e);
      const failure = new RunError(message.startsWith(`${token.split(":")[0]}: `) ? message : `${token}: ${message}`);
      failure.stack = failure.message;
      throw failure;
    }
  })();
}
