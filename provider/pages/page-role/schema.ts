/** `ops.pages.PageRole`: a user's role on a page. Managing roles needs a page token of an admin of the page. */
import { z } from "zod";

export const token = "pages:PageRole";
export const ROLES = ["ADMIN", "EDITOR", "MODERATOR", "ADVERTISER", "ANALYST"] as const;
export const GraphId = (what: string) => z.string().regex(/^\d{1,32}$/, `${what} must be a numeric id`);

export const PageRoleInputs = z.object({
  pageId: GraphId("pageId").describe("The page. Changing it replaces the role.").meta({ replaceOnChanges: true }),
  user: GraphId("user").describe("The user's id. Changing it replaces the role.").meta({ replaceOnChanges: true }),
  role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` }).describe("The role; a change is an update in place."),
});
export type PageRoleInputs = z.output<typeof PageRoleInputs>;

export const PageRoleOutputs = z.object({
  pageId: z.string(),
  user: z.string(),
  role: z.string(),
  userName: z.string().optional().describe("The user's name, as the page reports it."),
});
