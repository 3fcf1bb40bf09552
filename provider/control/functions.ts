/** The computer-control endpoint's read-only functions and Document 3's remote-desktop procedure. */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { CONTROL_SETTINGS, read } from "../config";
import { ValidationError } from "../http/errors";
import { log, registerSecret } from "../log";
import { HttpClient } from "../http/client";
import { ControlClient, control, textOf } from "./client";

function helper(url: string): ControlClient {
  const base = url.replace(/\/+$/, "").replace(/\/mcp$/, "");
  const token = read(CONTROL_SETTINGS.token);
  return new ControlClient(new HttpClient({ service: "control", baseUrl: base, headers: token ? { authorization: `Bearer ${token}` } : {}, timeoutMs: 60_000, maxRetries: 3 }), base);
}
import { blackShare, pngSize } from "./png";

/** Screenshots are in pixels, clicks in points: on a display of density 2, divide by 2. */
export const DENSITY = 2;

export async function screenshot(args: { path?: string } = {}, client: ControlClient = control()) {
  const r = await client.callTool("screenshot", {});
  const image = r.content.find((c) => c.type === "image");
  if (!image?.data) throw new ValidationError({ service: "control", message: "the screenshot tool answered without an image" });
  const png = Buffer.from(image.data, "base64");
  const pixels = pngSize(png);
  if (args.path) writeFileSync(path.resolve(args.path), png);
  return { ...(args.path ? { path: path.resolve(args.path) } : {}), pixels, points: { width: pixels.width / DENSITY, height: pixels.height / DENSITY }, png };
}

export async function listTools() {
  return control().listTools();
}

const RemoteDesktopArgs = z.object({
  helperUrl: z.url().optional(),
  host: z.string().regex(/^[A-Za-z0-9.-]+$/, "host must be a host name or address"),
  port: z.union([z.literal(3283), z.literal(5900)]).optional(),
  username: z.string().min(1).regex(/^[^"\\\u0000-\u001f]+$/, "username must not contain quotes, backslashes or control characters"),
  password: z.string().optional(),
  /** The login dialog appears 5 to 8 seconds after the connection opens: poll within this bound. */
  waitSeconds: z.number().min(1).max(30).default(8),
});

const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
const ui = (body: string) => `tell application "System Events" to tell process "Screen Sharing" to ${body}`;

/**
 * Opens a remote-desktop session through a helper computer's control tools: open `vnc://<host>`, wait for the
 * login dialog (polling screenshots, within `waitSeconds`), fill user name and password with the scripting tool,
 * sign in, accept Standard if the sharing-type choice appears, and report what the screen shows. The password comes
 * from secret config (control:vncPassword) unless given, and is never logged.
 */
export async function openRemoteDesktop(input: z.input<typeof RemoteDesktopArgs>) {
  const parsed = RemoteDesktopArgs.safeParse(input);
  if (!parsed.success) throw new ValidationError({ service: "control", message: `openRemoteDesktop: ${parsed.error.issues[0].path.join(".")}: ${parsed.error.issues[0].message}` });
  const a = parsed.data;
  const password = a.password ?? read(CONTROL_SETTINGS.vncPassword);
  if (!password) throw new ValidationError({ service: "control", message: "openRemoteDesktop: no password", remedy: "Set it as secret config: pulumi config set --secret control:vncPassword <password> (or CONTROL_VNC_PASSWORD)" });
  registerSecret(password);
  // The helper computer whose control tools open the session: the configured endpoint unless another is named.
  const client = a.helperUrl ? helper(a.helperUrl) : control();
  const windows = async () => textOf(await client.callTool("applescript", { script: `tell application "System Events" to get name of every window of process "Screen Sharing"` }));

  const target = `vnc://${a.host}${a.port ? `:${a.port}` : ""}`;
  const opened = await client.callTool("run_command", { command: `open ${target}` });
  if (opened.isError) throw new ValidationError({ service: "control", message: `cannot open ${target}: ${textOf(opened).trim()}`, remedy: "Check the host, and that its remote-management agent listens on 3283" });

  const deadline = Date.now() + a.waitSeconds * 1000;
  let shown = "";
  while (!/Connect to/.test(shown)) {
    if (Date.now() > deadline) throw new ValidationError({ service: "control", message: `no login dialog within ${a.waitSeconds} s of opening ${target}`, remedy: "Check that the target is awake and reachable; raise waitSeconds if it is slow" });
    await new Promise((r) => setTimeout(r, 500));
    await screenshot({}, client); // what a person would watch
    shown = await windows();
  }
  log(`control: login dialog for ${a.host} is up; signing in as ${a.username}`);
  await client.callTool("applescript", { script: ui(`set value of text field 1 of window 1 to "${esc(a.username)}"`) });
  await client.callTool("applescript", { script: ui(`set value of text field 2 of window 1 to "${esc(password)}"`) });
  await client.callTool("applescript", { script: ui(`click button "Sign In" of window 1`) });

  shown = await windows();
  if (/Select a screen sharing type/.test(shown)) {
    await client.callTool("applescript", { script: ui(`click button "Standard" of window 1`) });
    shown = await windows();
  }
  if (/Connect to/.test(shown)) throw new ValidationError({ service: "control", message: `sign-in to ${a.host} was refused`, remedy: "Check the user name and the password in control:vncPassword" });
  const shot = await screenshot({}, client);
  const black = blackShare(shot.png) > 0.98;
  const screen = black ? `black: ${a.host} is on another desktop space; switch to it on the target (or move the session there)` : "the remote desktop";
  log(`control: connected to ${a.host}; the screen shows ${screen}`);
  return { connected: true, host: a.host, window: shown, screen, black, pixels: shot.pixels, points: shot.points };
}
