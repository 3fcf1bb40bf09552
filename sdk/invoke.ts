/**
 * The SDK's functions run in the program's process (the dynamic door has no invoke): through the same table,
 * argument checks and result shapes as the provider plugin's invokes (provider/door.ts), with the stack's config.
 */
import type * as pulumi from "@pulumi/pulumi";
import { invoke } from "../provider/door";
import { ValidationError } from "../provider/http/errors";
import { withStackConfig } from "./config";

/**
 * One function call: bad arguments throw one error naming each. `opts` is accepted as generated SDKs accept it;
 * on this door a function reads with the stack's own settings, or those of `args.account`.
 */
export function invokeInProgram<R>(token: string, args: object, _opts?: pulumi.InvokeOptions): Promise<R> {
  return withStackConfig(async () => {
    const r = await invoke(token, args);
    if (r.failures?.length) {
      throw new ValidationError({ service: token.split(":")[0], message: `${token.split(":")[1]}: ${r.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}` });
    }
    return r.outputs as R;
  })();
}
