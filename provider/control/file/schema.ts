/**
 * `ops.control.RemoteFile`: what pulumi-command's `CopyToRemote` is to SSH, over the computer-control endpoint: a
 * file on the host, written through the endpoint's command tool, compared by its content's hash, removed by destroy.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { derived, ruleFailure } from "../../check";
import type { Example } from "../../doc-example";

export const token = "control:RemoteFile";

/** The hash a file is compared by: SHA-256 of its bytes, as `sha256sum` and `shasum -a 256` print it. */
export const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

export const RemoteFileInputs = z
  .object({
    path: z
      .string()
      .regex(/^\/[^\0\n]*[^/\0\n]$/, "path must be an absolute file path on the host (/etc/app/app.conf), without line breaks")
      .describe("Where the file is on the host: an absolute path. Another path is another file: the old one is removed.")
      .meta({ replaceOnChanges: true }),
    content: z
      .string()
      .max(262_144, "content is at most 256 KiB: copy larger files another way")
      .optional()
      .describe("The file's text (give this or `source`)."),
    source: z
      .string()
      .min(1)
      .optional()
      .describe("A local file whose bytes are the file's (give this or `content`); read when the program runs, compared by hash."),
    mode: z
      .string()
      .regex(/^0?[0-7]{3}$/, 'mode must be an octal permission of three digits, as chmod takes it: "644", "0600"')
      .optional()
      .describe('The file\'s permissions, as chmod takes them in octal ("644", "0600"). Unset: 600, as a file that may hold a secret.'),
    owner: z
      .string()
      .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*(:[A-Za-z0-9_.][A-Za-z0-9_.-]*)?$/, "owner must be user or user:group, as chown takes it")
      .optional()
      .describe("`user` or `user:group`, as chown takes it, where the host lets the endpoint's user change it."),
    keep: z.boolean().default(false).describe("Leave the file on the host when the resource is destroyed."),
    adopt: z
      .boolean()
      .default(false)
      .describe(
        "Take over a file already at `path` whose content differs (written by hand or by another tool) instead of failing: it is then written as the program says, and destroy removes it. A file with the program's content is taken without it.",
      ),
    secret: z
      .boolean()
      .default(false)
      .describe(
        "Keep the content secret in state and in the CLI (also true when the content is secret); a secret content never travels in a command line.",
      ),
    contentHash: z.string().optional().describe("Set by the provider: the SHA-256 of the content.").meta(derived),
    size: z.number().optional().describe("Set by the provider: the content's length in bytes.").meta(derived),
  })
  .transform((r, ctx) => {
    if ((r.content === undefined) === (r.source === undefined)) {
      ruleFailure(ctx, r.source === undefined ? "content" : "source", "give exactly one of content and source", ["content", "source"]);
      return r;
    }
    let bytes: Buffer;
    try {
      bytes = r.source !== undefined ? readFileSync(path.resolve(r.source)) : Buffer.from(r.content!, "utf8");
    } catch (e) {
      ruleFailure(ctx, "source", `cannot read ${r.source}: ${(e as Error).message}`);
      return r;
    }
    if (bytes.length > 262_144)
      ruleFailure(ctx, "source", `${r.source} holds ${bytes.length} bytes, over 256 KiB: copy larger files another way`);
    return { ...r, mode: r.mode?.replace(/^0(?=\d{3}$)/, ""), contentHash: sha256(bytes), size: bytes.length };
  });

export const RemoteFileOutputs = z.object({
  path: z.string(),
  content: z.string().optional(),
  source: z.string().optional(),
  mode: z.string().optional(),
  owner: z.string().optional(),
  keep: z.boolean(),
  adopt: z.boolean(),
  secret: z.boolean(),
  contentHash: z.string().describe("The SHA-256 of the file on the host, as last read."),
  size: z.number().describe("The file's length in bytes."),
});
export type RemoteFileInputs = z.output<typeof RemoteFileInputs>;
export type RemoteFileOutputs = z.infer<typeof RemoteFileOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A file on a host, written through the computer-control endpoint's command tool (ops:controlUrl): \`content\` or a
  local \`source\`, its \`mode\` and \`owner\`. Compared by the SHA-256 of its bytes: a file changed on the host is
  found by refresh and written again by up. Destroy removes it unless \`keep\`. A secret content stays secret and is
  sent on the tool's standard input, never in a command line (a server whose run_command takes no \`stdin\` is
  refused for it).`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = {
  step: { name: "motd", args: { path: "/etc/motd", content: "Deployed by pulumi-ops\n", mode: "644" } },
};
