/**
 * What a page resource's preview asks first (Handler.preview): a page the token cannot manage fails up deriving its
 * token (the client keeps it for the run); a page token issued without the permission the change needs, or a user
 * whose role on the page does not allow it, is refused at up (#200) — so both fail the preview instead.
 */
import { isUnknown } from "../check";
import { AuthError } from "../http/errors";
import { allKnown, type PreviewContext } from "../preview";
import { pages } from "./client";

export interface PageNeeds {
  /** The permission a page token needs (debug_token's scopes tell it, where the app's secret is set). */
  permission: string;
  /** The page task a user's role must hold (a role holds the tasks of the roles below it). */
  task?: { task: string; what: string; roles: string };
}

export async function previewPageAccess(ctx: PreviewContext, need: PageNeeds): Promise<void> {
  const pageId = ctx.inputs.pageId;
  if (!ctx.reads || typeof pageId !== "string" || isUnknown(pageId)) return;
  const info = pages().tokenInfo;
  if (info?.type === "PAGE" && info.scopes && !info.scopes.includes(need.permission)) {
    throw new AuthError({
      service: "pages",
      message: `Insufficient privileges: the page token in ops:pagesAccessToken was issued without ${need.permission}, which ${ctx.type.split(":")[1]} needs (it has ${info.scopes.join(", ") || "no permission"})`,
      remedy: `Issue the page token again from a user token granted ${need.permission}, or set ops:pagesAccessToken to such a user token (the provider derives each page's token from it)`,
    });
  }
  const tasks = await pages().pageTasks(pageId);
  if (tasks && need.task && !tasks.includes(need.task.task)) {
    throw new AuthError({
      service: "pages",
      message: `Insufficient privileges: the configured user's role on page ${pageId} allows ${tasks.join(", ") || "nothing"}; ${need.task.what} needs ${need.task.task} (${need.task.roles})`,
      remedy: `Give the user the ${need.task.roles} on the page, or set ops:pagesAccessToken to a token of a user who has it`,
    });
  }
}

/**
 * Access or a subscription someone else set up (not this stack's): taken only with `adopt`, said at preview; else
 * refused. Asked once every input it depends on is known.
 */
export async function previewPageTakeover(ctx: PreviewContext, takeover: (inputs: Record<string, any>) => Promise<void>): Promise<void> {
  if (!ctx.reads || ctx.ownedByStack() || typeof ctx.inputs.pageId !== "string" || !allKnown(ctx.inputs)) return;
  await takeover(ctx.inputs);
}
