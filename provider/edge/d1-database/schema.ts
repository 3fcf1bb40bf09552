/**
 * `ops.edge.D1Database`: a D1 database of the account (SQLite at the edge), which a Worker queries through a `d1`
 * binding. Its name is unique in the account; the service has no rename.
 */
import { z } from "zod";
import { accountIdInput, accountOf } from "../account";
import type { Example } from "../../doc-example";

export const token = "edge:D1Database";
export const LOCATION_HINTS = ["wnam", "enam", "weur", "eeur", "apac", "oc"] as const;

export const D1DatabaseInputs = z
  .object({
    accountId: accountIdInput("database"),
    name: z
      .string()
      .min(1, { error: "name must not be empty: name the database" })
      .describe(
        "The database's name, unique in the account. The service has no rename: changing it replaces the database, and its data is lost (said at preview).",
      )
      .meta({ replaceOnChanges: true }),
    primaryLocationHint: z
      .enum(LOCATION_HINTS, { error: `primaryLocationHint must be one of ${LOCATION_HINTS.join(", ")}` })
      .optional()
      .describe(
        "Where the primary copy is placed (`wnam`, `enam`, `weur`, `eeur`, `apac`, `oc`); the service's choice when unset. Set only when the database is made.",
      )
      .meta({ replaceOnChanges: true }),
    adopt: z
      .boolean()
      .default(false)
      .describe("Take over the account's database of this name, with its data, instead of failing (the preview names it)."),
  })
  .transform((r, ctx) => {
    const accountId = accountOf(r, ctx);
    return { ...r, accountId };
  });
export type D1DatabaseInputs = z.output<typeof D1DatabaseInputs>;

export const D1DatabaseOutputs = z.object({
  accountId: z.string(),
  name: z.string().describe("The database's name."),
  primaryLocationHint: z.string().optional(),
  databaseId: z.string().describe("The database's uuid: what a Worker's `d1` binding names."),
  version: z.string().optional().describe("The database's storage backend (`production`)."),
  createdAt: z.string().optional().describe("When it was made."),
  adopt: z.boolean(),
});
export type D1DatabaseOutputs = z.infer<typeof D1DatabaseOutputs>;

export const classDoc = `
  A D1 database: SQLite at the edge, which a Worker queries through a \`d1\` binding. The service has no rename, so a
  new name replaces it, and the preview says its data is lost. A name the account holds already is refused at preview
  unless \`adopt: true\`. Destroy deletes it with its data.`;

export const example: Example = { step: { name: "orders", args: { name: "bakery-orders", primaryLocationHint: "weur" } } };
