/**
 * The account an account-scoped edge resource (a script, a custom domain, Workers' storage) belongs to: its own
 * `accountId` input, else the stack's ops:edgeAccountId (EDGE_ACCOUNT_ID).
 */
import { z } from "zod";
import { ruleFailure } from "../check";
import { EDGE_SETTINGS, read } from "../config";

/** The `accountId` input of a resource called `what` (a new account is a new object, which the diff replaces). */
export const accountIdInput = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-f]{32}$/, "accountId must be the account's 32-character hexadecimal id")
    .optional()
    .describe(`The account; defaults to ops:edgeAccountId (EDGE_ACCOUNT_ID). Changing it replaces the ${what}.`)
    .meta({ replaceOnChanges: true });

/** The account the inputs name, else the stack's; a failure naming both ways when neither is set. */
export function accountOf(r: { accountId?: string }, ctx: z.RefinementCtx): string {
  const accountId = r.accountId ?? read(EDGE_SETTINGS.accountId);
  if (!accountId) ruleFailure(ctx, "accountId", "set accountId, or the account for the stack with ops:edgeAccountId (or EDGE_ACCOUNT_ID)");
  return accountId ?? "";
}
