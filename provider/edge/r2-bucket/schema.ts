/**
 * `ops.edge.R2Bucket`: an R2 bucket of the account, the object store a Worker reads through an `r2_bucket` binding.
 * Its name is unique in the account's jurisdiction.
 */
import { z } from "zod";
import { accountIdInput, accountOf } from "../account";
import type { Example } from "../../doc-example";

export const token = "edge:R2Bucket";
export const LOCATIONS = ["apac", "eeur", "enam", "weur", "wnam", "oc"] as const;
export const STORAGE_CLASSES = ["Standard", "InfrequentAccess"] as const;
/** As the official SDKs type `cf-r2-jurisdiction` (the Python SDK 5.9). */
export const JURISDICTIONS = ["default", "eu", "us", "fedramp", "fedramp-high"] as const;

export const R2BucketInputs = z
  .object({
    accountId: accountIdInput("bucket"),
    name: z
      .string()
      .regex(
        /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/,
        "name must be 3 to 63 lowercase letters, digits and hyphens, starting and ending with a letter or digit",
      )
      .describe("The bucket's name, unique in the account's jurisdiction. Changing it replaces the bucket.")
      .meta({ replaceOnChanges: true }),
    jurisdiction: z
      .enum(JURISDICTIONS, { error: `jurisdiction must be one of ${JURISDICTIONS.join(", ")}` })
      .default("default")
      .describe("Where the data is stored: `default`, `eu`, `us`, `fedramp` or `fedramp-high`. Changing it replaces the bucket.")
      .meta({ replaceOnChanges: true }),
    locationHint: z
      .enum(LOCATIONS, { error: `locationHint must be one of ${LOCATIONS.join(", ")}` })
      .optional()
      .describe(
        "Where the bucket is placed first (`apac`, `eeur`, `enam`, `weur`, `wnam`, `oc`); the service's choice when unset. Changing it replaces the bucket.",
      )
      .meta({ replaceOnChanges: true }),
    storageClass: z
      .enum(STORAGE_CLASSES, { error: `storageClass must be one of ${STORAGE_CLASSES.join(", ")}` })
      .optional()
      .describe("The default storage class of new objects (`Standard` or `InfrequentAccess`), changed in place."),
    adopt: z
      .boolean()
      .default(false)
      .describe("Take over the account's bucket of this name, with its objects, instead of failing (the preview names it)."),
  })
  .transform((r, ctx) => {
    const accountId = accountOf(r, ctx);
    return { ...r, accountId };
  });
export type R2BucketInputs = z.output<typeof R2BucketInputs>;

export const R2BucketOutputs = z.object({
  accountId: z.string(),
  name: z.string().describe("The bucket's name: what a Worker's `r2_bucket` binding names."),
  jurisdiction: z.string().describe("Where its data is stored."),
  locationHint: z.string().optional(),
  location: z.string().optional().describe("Where the service placed it (lower case)."),
  storageClass: z.string().optional().describe("The default storage class of new objects."),
  creationDate: z.string().optional().describe("When it was made."),
  adopt: z.boolean(),
});
export type R2BucketOutputs = z.infer<typeof R2BucketOutputs>;

export const classDoc = `
  An R2 bucket: the object store a Worker reads through an \`r2_bucket\` binding. Its default storage class changes in
  place; its name, jurisdiction or location hint replace it. A name the account holds already is refused at preview
  unless \`adopt: true\`. The service deletes only an empty bucket: a destroy of one that holds objects fails with what
  to do, and nothing is lost.`;

export const example: Example = { step: { name: "photos", args: { name: "bakery-photos", storageClass: "Standard" } } };
