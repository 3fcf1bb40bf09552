/**
 * `ops.pages.PageProfile`: what a business changes on its page more often than its managers — the about text, the
 * description, website, phone, emails and opening hours — as the Graph API's Page node keeps them. Only the fields
 * the program gives are managed; the page keeps the rest as they are.
 */
import { z } from "zod";
import { GraphId } from "../page-role/schema";
import type { Example } from "../../doc-example";

export const token = "pages:PageProfile";

/** The profile's fields, by the names the Page node reads and takes. */
export const PROFILE_KEYS = ["about", "description", "website", "phone", "emails", "hours"] as const;

const HOURS_KEY = /^(mon|tue|wed|thu|fri|sat|sun)_[12]_(open|close)$/;

export const PageProfileInputs = z.object({
  pageId: GraphId("pageId").describe("The page. Changing it manages another page's profile.").meta({ replaceOnChanges: true }),
  // Its length is the service's to refuse (the Page reference says 100 characters; tools built on it say 255).
  about: z.string().optional().describe("The short description (the Page reference gives it a limit of 100 characters)."),
  description: z.string().max(50_000).optional().describe("The longer description."),
  website: z
    .string()
    .regex(/^(https?:\/\/)?[^\s/.]+\.\S+$/i, "website must be a web address, like https://bakery.example")
    .optional()
    .describe("The website, as `https://bakery.example`."),
  // Not held to a pattern here: the Page reference documents none, and vanity numbers (+1 555 BREAD) are common.
  phone: z.string().optional().describe("The phone number, as people dial it; the service checks it."),
  emails: z
    .array(z.email({ error: "each of emails must be an email address" }))
    .max(20)
    .optional()
    .describe("The contact emails; the order does not matter."),
  hours: z
    .record(
      z.string().regex(HOURS_KEY, "hours keys are mon_1_open ... sun_2_close: a day, its span (1 or 2), open or close"),
      z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "hours values are times as HH:MM, like 07:30"),
    )
    .optional()
    .describe('The opening hours, as the page keeps them: `mon_1_open: "07:00"`, `mon_1_close: "18:00"`, two spans a day.'),
});

export const PageProfileOutputs = z.object({
  pageId: z.string(),
  about: z.string().optional().describe("The about text, as the page holds it."),
  description: z.string().optional(),
  website: z.string().optional(),
  phone: z.string().optional(),
  emails: z.array(z.string()).optional(),
  hours: z.record(z.string(), z.string()).optional(),
  managed: z.array(z.string()).describe("The fields this resource manages (those the program gives)."),
});
export type PageProfileInputs = z.output<typeof PageProfileInputs>;
export type PageProfileOutputs = z.infer<typeof PageProfileOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A page's own profile: its about text, description, website, phone, emails and opening hours. Only the fields given
  are managed (the page keeps the others); a field changed on the page is found by refresh and put back by up.
  Destroy leaves the page's profile as it is: the Graph API keeps a value for each field, with nothing to unset.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: {
    name: "profile",
    args: {
      pageId: "200000000000001",
      about: "Bread since 1921",
      website: "https://bakery.example",
      hours: { mon_1_open: "07:00", mon_1_close: "18:00" },
    },
  },
};
