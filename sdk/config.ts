import * as pulumi from "@pulumi/pulumi";
import { accountProblem, useStackConfig, withAccount } from "../provider/config";
import { ConfigError } from "../provider/http/errors";

/**
 * In a program, stack config is available without configure(); outside one, the environment is used. An
 * `account` argument chooses a named account of `ops:accounts`, as the resources' `account` input does.
 */
export function withStackConfig<A extends [unknown?, ...unknown[]], R>(f: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return (...args) => {
    useStackConfig({ get: (key) => pulumi.runtime.getConfig(key) });
    const first = args[0];
    if (!first || typeof first !== "object" || !("account" in first)) return f(...args);
    const { account, ...own } = first as { account?: string };
    const problem = accountProblem(account);
    if (problem) return Promise.reject(new ConfigError(problem));
    return withAccount(account, () => f(...([own, ...args.slice(1)] as unknown as A)));
  };
}
