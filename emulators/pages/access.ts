/** Who may call a page's endpoints, as the Graph API decides it: the request's token, a page token, its scopes and the person's tasks. */
import type { Request } from "../kit";
import { graphError, type ok } from "../graph";
import type { PagesEmulator, Token } from "./server";

/** How the routes of a topic are added: a method, a path under the API version, and its handler. */
export type PageRoute = (method: string, path: string, h: (req: Request) => ReturnType<typeof ok> | Promise<ReturnType<typeof ok>>) => void;

export function tokenOf(req: Request): Token {
  return (req as Request & { token: Token }).token;
}

/** Page calls need a page token of that page carrying `scope`, and for writes a person who may do `task` there. */
export function needPage(emu: PagesEmulator, req: Request, pageId: string, scope?: string, task?: string) {
  const t = tokenOf(req);
  const page =
    emu.pages.get(pageId) ??
    graphError(
      400,
      100,
      `Unsupported get request. Object with ID '${pageId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`,
      "GraphMethodException",
      33,
    );
  if (t.kind !== "page") graphError(400, 190, "(#190) This method must be called with a Page Access Token");
  if (t.pageId !== pageId) graphError(403, 200, "(#200) Insufficient privileges: the token belongs to another page");
  if (scope && !t.scopes.includes(scope)) graphError(403, 200, `(#200) Insufficient privileges: requires the ${scope} permission`);
  if (task && !emu.tasksOf(page, t.userId ?? "")?.includes(task))
    graphError(403, 200, `(#200) Insufficient privileges: requires the ${task} task on the page`);
  return page;
}
