/**
 * `ops.control.RemoteDesktopSession`: the remote-desktop procedure (docs/resources.md, RemoteDesktopSession) as a resource, so that it runs when the
 * stack is applied, once per apply, and never at preview (a function runs at every preview and twice per up).
 */
import { z } from "zod";
import type { Example } from "../../doc-example";

export const token = "control:RemoteDesktopSession";

export const RemoteDesktopSessionInputs = z.object({
  host: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,253}$/, "host must be a host name or an IPv4 address")
    .describe("The target computer, opened as `vnc://<host>`.")
    .meta({ replaceOnChanges: true }),
  port: z
    .union([z.literal(3283), z.literal(5900)], { error: "port must be 3283 (the remote-management agent) or 5900" })
    .optional()
    .describe("Appended to the address when set.")
    .meta({ replaceOnChanges: true }),
  username: z
    .string()
    .min(1, "username must not be empty")
    .max(256, "username must be at most 256 characters")
    .regex(/^[^"\\\u0000-\u001f]+$/, "username must not contain quotes, backslashes or control characters")
    .describe("The target computer's account name.")
    .meta({ replaceOnChanges: true }),
  password: z
    .string()
    .min(1, "password must not be empty: leave it out to use ops:controlVncPassword")
    .optional()
    .describe("The account's password; kept secret. Without it, the secret config `ops:controlVncPassword` is used.")
    .meta({ secret: true, replaceOnChanges: true }),
  helperUrl: z
    .url({ protocol: /^https?$/, error: "helperUrl must be an http(s) URL of a computer-control endpoint" })
    .optional()
    .describe(
      "The helper computer whose control tools open the session; the configured `ops:controlUrl` when left out. `ops:controlToken` is sent only to `ops:controlUrl`'s own origin: give `helperToken` for another.",
    )
    .meta({ replaceOnChanges: true }),
  helperToken: z
    .string()
    .min(1, "helperToken must not be empty")
    .optional()
    .describe("Bearer token for `helperUrl` when it is another endpoint than `ops:controlUrl`; kept secret.")
    .meta({ secret: true, replaceOnChanges: true }),
  waitSeconds: z
    .number({ error: "waitSeconds must be a number of seconds" })
    .min(1, "waitSeconds must be at least 1")
    .max(60, "waitSeconds must be at most 60")
    .default(10)
    .describe("How long to wait for the login dialog: it appears 5 to 8 seconds after opening, and the default leaves a margin."),
  triggers: z
    .array(z.unknown(), { error: "triggers must be a list" })
    .optional()
    .describe("Any change to these values opens the session again.")
    .meta({ replaceOnChanges: true }),
});

export const RemoteDesktopSessionOutputs = z.object({
  host: z.string(),
  port: z.number().optional(),
  username: z.string(),
  password: z.string().optional().describe("The password given, kept secret.").meta({ secret: true }),
  helperUrl: z.string().optional(),
  helperToken: z.string().optional().describe("The helper's token given, kept secret.").meta({ secret: true }),
  waitSeconds: z.number(),
  triggers: z.array(z.unknown()).optional(),
  window: z.string().describe("The screen-sharing window's name after sign-in, e.g. `office.local (Standard)`."),
  screen: z.string().describe("What the shared screen shows: the remote desktop, or black (the target is on another desktop space)."),
  black: z.boolean().describe("The shared screen is black: switch the target to the session's desktop space."),
  pixels: z
    .object({ width: z.number().describe("Width."), height: z.number().describe("Height.") })
    .describe("The helper's screenshot size in pixels."),
  points: z
    .object({ width: z.number().describe("Width."), height: z.number().describe("Height.") })
    .describe("The same in points (clicks are in points: pixels / 2)."),
});
export type RemoteDesktopSessionInputs = z.output<typeof RemoteDesktopSessionInputs>;
export type RemoteDesktopSessionOutputs = z.infer<typeof RemoteDesktopSessionOutputs>;

/**
 * The class's doc comment in the TypeScript SDK (scripts/gen-sdk-classes.ts writes it, whitespace folded, above the
 * example below): what the resource is for and how it behaves.
 */
export const classDoc = `
  A remote-desktop session opened through a helper computer's control tools (the macOS Screen Sharing procedure):
  \`open vnc://<host>\`, wait for the login dialog, sign in with \`username\` and the password (\`password\`, or the
  secret config \`ops:controlVncPassword\`), accept Standard. It runs when the stack is applied, once per apply:
  \`pulumi preview\` shows it and sends nothing. A change opens it again; destroy closes it.`;

/**
 * The example of the reference and of the class's doc comment, in every language (scripts/example-render.ts), run
 * by the tests against the emulators' seeds.
 */
export const example: Example = { step: { name: "kiosk", args: { host: "kiosk.local", username: "ops" } } };
