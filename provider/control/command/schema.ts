/**
 * `ops.control.RemoteCommand`: what pulumi-command's remote commands are to SSH, over the computer-control
 * endpoint: a command run when the resource is created, optionally others when it is updated and destroyed.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import type { Example } from "../../doc-example";

export const token = "control:RemoteCommand";

const Command = z
  .string()
  .min(1, "a command must not be empty")
  .max(100_000)
  .refine((c) => c.trim().length > 0, { error: "a command must not be blank (only spaces or line breaks): write the command to run" });

export const RemoteCommandInputs = z
  .object({
    create: Command.describe("Run when the resource is created (and on update when no `update` command is given)."),
    update: Command.optional().describe(
      "Run when an input other than the triggers changes. `$PULUMI_COMMAND_STDOUT` and `$PULUMI_COMMAND_STDERR` hold what the last create or update printed, `$PULUMI_COMMAND_EXIT_CODE` its exit status.",
    ),
    delete: Command.optional().describe(
      "Run when the resource is destroyed (or replaced: before the new create). `$PULUMI_COMMAND_STDOUT` and `$PULUMI_COMMAND_STDERR` hold what the last create or update printed (an id to undo by), `$PULUMI_COMMAND_EXIT_CODE` its exit status.",
    ),
    interpreter: z
      .enum(["shell", "applescript"], { error: "interpreter must be shell or applescript" })
      .default("shell")
      .describe("`shell` runs through run_command, `applescript` through the scripting tool."),
    environment: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "environment names must be letters, digits and _"),
        z.string().regex(/^[^\u0000]*$/, "environment values must not contain NUL"),
      )
      .optional()
      .describe("Variables set for shell commands."),
    triggers: z
      .array(z.unknown())
      .optional()
      .describe("Any change to these values replaces the resource: delete command, then create command.")
      .meta({ replaceOnChanges: true }),
    secret: z
      .boolean()
      .default(false)
      .describe("Keep the commands and their output secret in state and in the CLI (also true when any input is secret)."),
  })
  .superRefine((r, ctx) => {
    // The scripting tool takes a script and nothing else: variables would be silently dropped.
    if (r.interpreter === "applescript" && r.environment && Object.keys(r.environment).length) {
      ruleFailure(
        ctx,
        "environment",
        "environment applies to shell commands only: remove it, or put the values in the script itself, or use interpreter shell",
        ["interpreter"],
      );
    }
  });

export const RemoteCommandOutputs = z.object({
  create: z.string(),
  update: z.string().optional(),
  delete: z.string().optional(),
  interpreter: z.string(),
  environment: z.record(z.string(), z.string()).optional(),
  triggers: z.array(z.unknown()).optional(),
  secret: z.boolean(),
  stdout: z.string().describe("What the last command printed."),
  stderr: z.string().describe("What the command printed to standard error."),
  exitCode: z.number().optional().describe("The last command's exit code, where the tool reports it."),
});
export type RemoteCommandInputs = z.output<typeof RemoteCommandInputs>;
export type RemoteCommandOutputs = z.infer<typeof RemoteCommandOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A command run on a host through the computer-control endpoint (ops:controlUrl): \`create\` when the resource is
  created, \`update\` (or \`create\` again) when an input changes, \`delete\` when it is destroyed. A change to
  \`triggers\` replaces the resource: the delete command runs, then the create command. A shell command's exit status
  (\`exitCode\`) is the one it prints itself, whatever the MCP server says of it; any MCP server works, with sessions
  or stateless. With \`secret: true\` the commands and their output stay secret.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = { step: { name: "marker", args: { create: "touch /tmp/ready", delete: "rm -f /tmp/ready" } } };
