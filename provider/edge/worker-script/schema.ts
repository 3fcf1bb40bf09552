/**
 * `ops.edge.WorkerScript`: an edge script, in ES module syntax (`export default { fetch }`, how scripts are written
 * today) or service-worker syntax, uploaded as the service documents it (multipart with a `metadata` part). Compared
 * by the SHA-256 of its body, so state keeps a hash, not a second copy of the script.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { accountIdInput, accountOf } from "../account";
import { keptText, SourceText } from "../../source-text";
import { derived, ruleFailure } from "../../check";
import type { Example } from "../../doc-example";
import { Binding, BINDING_NAME } from "./bindings";
import { checkMigrations, Migration } from "./migrations";

export const token = "edge:WorkerScript";

export const MAX_SCRIPT_BYTES = 10 * 1024 * 1024;

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * The compatibility date a script gets when the program names none: fixed per release (documented), so a script's
 * runtime semantics change only when the program says so; without any, the service runs a script on 2021-11-02's.
 */
export const DEFAULT_COMPATIBILITY_DATE = "2026-11-01";

/** ES module syntax: an `import` or `export` statement at the start of a line. */
const MODULE_SYNTAX = /^\s*(?:export|import)[\s{*]/m;

/** The script's syntax: as the program says, else told from the source. */
export function formatOf(r: { format?: string }, body: string): "module" | "service-worker" {
  return (r.format as "module" | "service-worker" | undefined) ?? (MODULE_SYNTAX.test(body) ? "module" : "service-worker");
}

/** The script's body: `content` itself, or the file `source` names (relative to the program's directory). */
export function scriptBody(r: { content?: string; source?: string }): string {
  return r.content ?? readFileSync(path.resolve(r.source!), "utf8");
}

/** The digest state keeps of the secrets (never their text): a change of any is a change of the digest. */
export function secretsDigest(secrets: Record<string, string> | undefined, scriptName: string): string {
  if (!secrets) return "";
  const h = createHash("sha256").update(`pulumi-ops worker secrets ${scriptName}\0`);
  for (const name of Object.keys(secrets).sort()) h.update(`${name}\0${secrets[name]}\0`);
  return h.digest("hex");
}

export const WorkerScriptInputs = z
  .object({
    accountId: accountIdInput("script"),
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, "name must be 1 to 63 lowercase letters, digits, - and _, starting with a letter or digit")
      .describe("The script's name. Changing it replaces the script.")
      .meta({ replaceOnChanges: true }),
    content: z.string().min(1, "content must not be empty").optional().describe("The script's JavaScript. Give this or source."),
    source: z
      .string()
      .min(1)
      .optional()
      .describe("Path of a file holding the script (relative to the program's directory). Give this or content."),
    format: z
      .enum(["module", "service-worker"])
      .optional()
      .describe(
        '`module` (ES modules: `export default { fetch }`) or `service-worker` (`addEventListener("fetch", ...)`); told from the source when not given.',
      )
      .meta(derived),
    compatibilityDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "compatibilityDate must be a date such as 2026-11-01")
      .default(DEFAULT_COMPATIBILITY_DATE)
      .describe(
        `The runtime semantics the script runs with (the service's compatibility date); ${DEFAULT_COMPATIBILITY_DATE} unless given.`,
      ),
    compatibilityFlags: z
      .array(z.string().regex(/^[a-z0-9_]+$/, "a compatibility flag is lowercase letters, digits and _, such as nodejs_compat"))
      .optional()
      .describe("Runtime features to turn on or off, such as `nodejs_compat`."),
    vars: z
      .record(
        z.string().regex(BINDING_NAME, "a variable's name must be a JavaScript identifier (letters, digits, _; not starting with a digit)"),
        z.string(),
      )
      .optional()
      .describe(
        "Plain-text environment variables (the script's `plain_text` bindings, wrangler's `vars`), by name. Only these names are managed: variables set elsewhere (dashboard, wrangler) are kept; a name removed from the program is removed from the script.",
      ),
    secrets: z
      .record(
        z.string().regex(BINDING_NAME, "a secret's name must be a JavaScript identifier (letters, digits, _; not starting with a digit)"),
        z.string(),
      )
      .optional()
      .describe(
        "Secrets (the script's `secret_text` bindings), by name: set through the secrets endpoint without uploading the script again, never kept in state or outputs in plain text (the SDK marks them secret; state keeps a digest). Only these names are managed: secrets set elsewhere are kept.",
      )
      .meta({ secret: true }),
    bindings: z
      .array(Binding)
      .optional()
      .describe(
        "Its bindings to storage and other services (KV namespaces, R2 buckets, D1 databases, other Workers, queues, Durable Object namespaces, Workers AI, Analytics Engine, Browser Rendering, Images, version metadata, email), compared by name. Only these names are managed: bindings made elsewhere are kept; a name removed from the program is removed from the script.",
      ),
    migrations: z
      .array(Migration)
      .optional()
      .describe(
        "Its Durable Object migrations, oldest first (wrangler's `[[migrations]]`): a class the script exports becomes a Durable Object through the step that makes it, which its `durable_object_namespace` binding then names. An up applies the steps after the one the script has (the service keeps its tag); a step applied stays applied, so add steps rather than edit them. A step that deletes a class loses its objects' storage (said at preview).",
      ),
    workersDev: z
      .boolean()
      .optional()
      .describe("Serve the script on its workers.dev subdomain (`<name>.<account>.workers.dev`). Unset: left as the service has it."),
    previewUrls: z
      .boolean()
      .optional()
      .describe("Serve preview URLs of the script's versions on workers.dev. Unset: left as the service has it."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over a script of the same name that is already deployed (by another tool) instead of failing; it is then overwritten with this one (nothing is sent when it already is this one). Scripts carry their stack's tag `pulumi-ops-stack:<project>/<stack>`: one tagged by another stack is refused even so (see ops:adoptFromStack), and this stack's own is taken back without adopt.",
      ),
    contentHash: z.string().optional().describe("Set by the provider: the SHA-256 of the script's body.").meta(derived),
    sourceText: SourceText,
  })
  .transform((r, ctx) => {
    const accountId = accountOf(r, ctx);
    if (!r.content === !r.source)
      ruleFailure(ctx, r.content ? "source" : "content", "set exactly one of content and source", ["content", "source"]);
    let body: string | undefined;
    try {
      body = r.content || r.source ? scriptBody(r) : undefined;
    } catch (e) {
      ruleFailure(ctx, "source", `cannot read ${r.source}: ${(e as NodeJS.ErrnoException).code ?? e}`);
    }
    for (const name of Object.keys(r.secrets ?? {}))
      if (r.vars && name in r.vars)
        ruleFailure(
          ctx,
          "secrets",
          `${name} is both a variable and a secret: a binding has one name, so keep it in one of vars and secrets`,
          ["vars"],
        );
    // One name per binding, whatever its kind (wrangler: "Bindings must have unique names").
    const named = new Map<string, string>();
    for (const [kind, names] of [
      ["variable", Object.keys(r.vars ?? {})],
      ["secret", Object.keys(r.secrets ?? {})],
    ] as const)
      for (const n of names) named.set(n, kind);
    r.bindings?.forEach((b, i) => {
      const other = named.get(b.name);
      if (other)
        ruleFailure(
          ctx,
          `bindings[${i}].name`,
          `${b.name} is the name of ${other === "binding" ? "another binding" : `a ${other}`} too: a script's bindings each have their own name`,
        );
      named.set(b.name, "binding");
    });
    checkMigrations(r.migrations, ctx);
    if (r.previewUrls === true && r.workersDev === false)
      ruleFailure(ctx, "previewUrls", "preview URLs are served on workers.dev: set workersDev to true, or previewUrls to false", [
        "workersDev",
      ]);
    if (body !== undefined && Buffer.byteLength(body) > MAX_SCRIPT_BYTES)
      ruleFailure(ctx, r.content ? "content" : "source", "a script must be at most 10 MiB");
    return {
      ...r,
      accountId,
      contentHash: body === undefined ? "" : sha256(body),
      ...(body !== undefined ? { format: formatOf(r, body) } : {}),
      sourceText: r.source ? keptText(body) : undefined,
    };
  });
export type WorkerScriptInputs = z.output<typeof WorkerScriptInputs>;

export const WorkerScriptOutputs = z.object({
  accountId: z.string(),
  name: z.string(),
  source: z.string().optional(),
  contentHash: z.string().describe("SHA-256 of the deployed body."),
  size: z.number().describe("The deployed body's size in bytes."),
  format: z.string().describe("`module` or `service-worker`: how it was uploaded."),
  compatibilityDate: z.string().describe("The compatibility date it runs with."),
  compatibilityFlags: z.array(z.string()).optional().describe("Its compatibility flags."),
  vars: z.record(z.string(), z.string()).optional().describe("The plain-text variables this resource manages, as the script has them."),
  secretNames: z.array(z.string()).optional().describe("The names of the secrets this resource manages (their text is never kept)."),
  secretsDigest: z
    .string()
    .optional()
    .describe("A digest of the managed secrets' names and text (kept as a secret): a change of any is seen without keeping them.")
    .meta({ secret: true }),
  bindings: z.array(Binding).optional().describe("The bindings this resource manages, as the script has them."),
  migrations: z.array(Migration).optional().describe("Its Durable Object migrations, as the program gives them."),
  migrationTag: z
    .string()
    .optional()
    .describe("The tag of the Durable Object migration the script has applied last, as the service keeps it."),
  workersDev: z.boolean().optional().describe("Whether the script is served on workers.dev (when the program says)."),
  previewUrls: z.boolean().optional().describe("Whether its preview URLs are served (when the program says)."),
  adopt: z.boolean(),
  createdOn: z.string().optional().describe("When the service made the script (RFC 3339)."),
  modifiedOn: z.string().optional().describe("When it was last deployed (RFC 3339)."),
});
export type WorkerScriptOutputs = z.infer<typeof WorkerScriptOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  An edge script of the account (ops:edgeAccountId unless \`accountId\` is given), from \`content\` or a \`source\`
  file, in module syntax (\`export default { fetch }\`) or service-worker syntax, uploaded with its compatibility
  date. Compared by content hash: editing the file updates the script; renaming it replaces it. A script of the same
  name deployed elsewhere is taken over only with \`adopt: true\`. \`vars\` and \`secrets\` are its plain-text and
  secret bindings, \`bindings\` its bindings to KV namespaces, R2 buckets, D1 databases, other Workers, queues,
  Durable Objects and the platform's services (only the names given are managed; those set elsewhere are kept);
  \`migrations\` the Durable Object migrations that make its classes Durable Objects (an up applies the steps the
  script has not had); \`workersDev\` serves it on workers.dev. A script serves nothing on a zone until a WorkerRoute
  or a WorkerDomain points at it.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: { name: "edgeScript", args: { name: "hello", source: "worker.js", vars: { GREETING: "hello" }, workersDev: false } },
};
