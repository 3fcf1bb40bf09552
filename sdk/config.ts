import * as pulumi from "@pulumi/pulumi";
import { useStackConfig } from "../provider/config";

/** In a program, stack config is available without configure(); outside one, the environment is used. */
export function withStackConfig<A extends unknown[], R>(f: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => {
    useStackConfig({ get: (key) => pulumi.runtime.getConfig(key) });
    return f(...args);
  };
}
