/**
 * `ops.pages.PageRole`: a person's access to a page, as the service grants it today: tasks given through the page's
 * business (`/{page}/assigned_users`). A role is a name for a set of tasks; `tasks` may be given instead.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import type { Example } from "../../doc-example";

export const token = "pages:PageRole";
export const ROLES = ["ADMIN", "EDITOR", "MODERATOR", "ADVERTISER", "ANALYST"] as const;
/**
 * The page tasks the service grants, as the official Business SDK lists them (`Page.Tasks`): the six the roles are
 * made of first, then the others (jobs, leads, Profile Plus, mailboxes, ...). A task the service answers that is not
 * here is kept and compared as it is, never refused on read.
 */
export const TASKS = [
  "MANAGE",
  "CREATE_CONTENT",
  "MODERATE",
  "MESSAGING",
  "ADVERTISE",
  "ANALYZE",
  "CASHIER_ROLE",
  "GLOBAL_STRUCTURE_MANAGEMENT",
  "MANAGE_JOBS",
  "MANAGE_LEADS",
  "MODERATE_COMMUNITY",
  "PAGES_MESSAGING",
  "PAGES_MESSAGING_SUBSCRIPTIONS",
  "PROFILE_PLUS_ADVERTISE",
  "PROFILE_PLUS_ANALYZE",
  "PROFILE_PLUS_CREATE_CONTENT",
  "PROFILE_PLUS_FACEBOOK_ACCESS",
  "PROFILE_PLUS_FULL_CONTROL",
  "PROFILE_PLUS_GLOBAL_STRUCTURE_MANAGEMENT",
  "PROFILE_PLUS_MANAGE",
  "PROFILE_PLUS_MANAGE_LEADS",
  "PROFILE_PLUS_MESSAGING",
  "PROFILE_PLUS_MODERATE",
  "PROFILE_PLUS_MODERATE_DELEGATE_COMMUNITY",
  "PROFILE_PLUS_REVENUE",
  "READ_PAGE_MAILBOXES",
  "VIEW_MONETIZATION_INSIGHTS",
] as const;
/** The tasks each role stands for (each holds those of the roles below it). */
export const ROLE_TASKS: Record<(typeof ROLES)[number], string[]> = {
  ADMIN: ["MANAGE", "CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
  EDITOR: ["CREATE_CONTENT", "MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
  MODERATOR: ["MODERATE", "MESSAGING", "ADVERTISE", "ANALYZE"],
  ADVERTISER: ["ADVERTISE", "ANALYZE"],
  ANALYST: ["ANALYZE"],
};
export const GraphId = (what: string) => z.string().regex(/^\d{1,32}$/, `${what} must be a numeric id`);

/** Tasks in one order, so that two spellings of a set compare equal. */
export const canonicalTasks = (tasks: readonly string[]) => {
  // Known tasks in the list's order, then any other the service answers (in text order): a set compares as a set.
  const rank = (t: string) => (TASKS.indexOf(t as never) < 0 ? TASKS.length : TASKS.indexOf(t as never));
  return [...new Set(tasks)].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
};
/** The role whose tasks are exactly these, if one is. */
export const roleOf = (tasks: readonly string[]) =>
  ROLES.find((r) => canonicalTasks(ROLE_TASKS[r]).join() === canonicalTasks(tasks).join());

export const PageRoleInputs = z
  .object({
    pageId: GraphId("pageId").describe("The page. Changing it replaces the access.").meta({ replaceOnChanges: true }),
    user: GraphId("user").describe("The person: a business user's id. Changing it replaces the access.").meta({ replaceOnChanges: true }),
    role: z
      .enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` })
      .optional()
      .describe(
        "A role, granted as its tasks (ADMIN: MANAGE, CREATE_CONTENT, MODERATE, MESSAGING, ADVERTISE, ANALYZE; EDITOR: those but MANAGE; MODERATOR: MODERATE, MESSAGING, ADVERTISE, ANALYZE; ADVERTISER: ADVERTISE, ANALYZE; ANALYST: ANALYZE). A change is an update in place.",
      ),
    tasks: z
      .array(z.enum(TASKS, { error: `tasks takes ${TASKS.join(", ")}` }))
      .min(1, "tasks needs at least one task")
      .transform(canonicalTasks)
      .optional()
      .describe(
        "The tasks to grant, instead of a role: any of the service's page tasks (the Business SDK's `Page.Tasks`: the six of the roles, and MANAGE_LEADS, MANAGE_JOBS, PROFILE_PLUS_..., READ_PAGE_MAILBOXES, ...), compared as a set. A change is an update in place.",
      ),
    business: GraphId("business").optional().describe("The business the page's access is granted through; unset, the page's own business."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over the access the person already has on the page (it is then changed to the program's; destroy gives the person back the tasks they had). Without it, a person who already has access is refused at preview: the access is someone else's grant.",
      ),
  })
  .superRefine((r, ctx) => {
    if (!r.role && !r.tasks) ruleFailure(ctx, "role", "give role or tasks: the access to grant", ["tasks"]);
    if (r.role && r.tasks) ruleFailure(ctx, "tasks", "give role or tasks, not both: a role stands for its tasks", ["role"]);
  });
export type PageRoleInputs = z.output<typeof PageRoleInputs>;

export const PageRoleOutputs = z.object({
  pageId: z.string(),
  user: z.string(),
  role: z.string().optional().describe("The role whose tasks the person has, when their tasks are exactly a role's."),
  tasks: z.array(z.string()).optional().describe("The tasks the person has on the page, as the service lists them."),
  business: z.string().optional().describe("The business the access is granted through."),
  userName: z.string().optional().describe("The person's name, as the page reports it."),
  adopt: z.boolean().optional().describe("Whether the access was taken over (`adopt`)."),
  previousTasks: z
    .array(z.string())
    .optional()
    .describe("The tasks the person had before this resource took the access over: destroy gives them back."),
});
export type PageRoleOutputs = z.infer<typeof PageRoleOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A person's access to a page, granted as the service grants it today: tasks given through the page's business
  (\`/{page}/assigned_users\`). A \`role\` (\`ADMIN\`, \`EDITOR\`, \`MODERATOR\`, \`ADVERTISER\`, \`ANALYST\`) stands
  for its tasks; \`tasks\` (\`MANAGE\`, \`CREATE_CONTENT\`, \`MODERATE\`, \`MESSAGING\`, \`ADVERTISE\`, \`ANALYZE\`)
  may be given instead. A change is an update in place; destroy removes the access. Needs a page token of someone with
  the MANAGE task, and pages_manage_metadata.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: { name: "helper", args: { pageId: "200000000000001", user: "300000000000003", role: "MODERATOR" } },
};
