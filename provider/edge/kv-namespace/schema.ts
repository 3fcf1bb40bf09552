/**
 * `ops.edge.KvNamespace`: a Workers KV namespace of the account, the store a Worker reads through a `kv_namespace`
 * binding. Its title is unique in the account (the service refuses a second, 10014).
 */
import { z } from "zod";
import { accountIdInput, accountOf } from "../account";
import type { Example } from "../../doc-example";

export const token = "edge:KvNamespace";
/** Where the data is durably stored, set only when the namespace is made (API reference, "Create a Namespace"). */
export const JURISDICTIONS = ["eu", "fedramp", "us"] as const;

export const KvNamespaceInputs = z
  .object({
    accountId: accountIdInput("namespace"),
    title: z
      .string()
      .min(1, { error: "title must not be empty: name the namespace" })
      .max(512, { error: "title must be at most 512 characters" })
      .describe("The namespace's title, unique in the account. A new title renames it in place (its id and data stay)."),
    jurisdiction: z
      .enum(JURISDICTIONS, { error: `jurisdiction must be one of ${JURISDICTIONS.join(", ")}` })
      .optional()
      .describe(
        "Where the data is durably stored (`eu`, `fedramp` or `us`); the service's default when unset. It is set only when the namespace is made: changing it replaces the namespace, and its data is lost.",
      )
      .meta({ replaceOnChanges: true }),
    adopt: z
      .boolean()
      .default(false)
      .describe("Take over the account's namespace of this title, with its data, instead of failing (the preview names it)."),
  })
  .transform((r, ctx) => {
    const accountId = accountOf(r, ctx);
    return { ...r, accountId };
  });
export type KvNamespaceInputs = z.output<typeof KvNamespaceInputs>;

export const KvNamespaceOutputs = z.object({
  accountId: z.string(),
  title: z.string().describe("The namespace's title."),
  jurisdiction: z.string().optional().describe("Where its data is stored, where one was set."),
  adopt: z.boolean(),
  namespaceId: z.string().describe("The namespace's id: what a Worker's `kv_namespace` binding names."),
  supportsUrlEncoding: z.boolean().optional().describe("Whether keys written on the URL are URL-decoded before they are stored."),
});
export type KvNamespaceOutputs = z.infer<typeof KvNamespaceOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A Workers KV namespace: a store of keys and values a Worker reads through a \`kv_namespace\` binding. A new title
  renames it in place; a namespace of the same title already in the account is refused at preview unless
  \`adopt: true\`. Destroy deletes it with every key it holds; a change that replaces it (its account or
  jurisdiction) says so at preview.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = { step: { name: "sessions", args: { title: "bakery-sessions" } } };
