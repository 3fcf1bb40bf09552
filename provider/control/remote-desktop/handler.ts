/**
 * `ops.control.RemoteDesktopSession`: the remote-desktop procedure (docs/resources.md, RemoteDesktopSession) through a helper computer's control tools — open
 * `vnc://<host>`, wait for the login dialog (polling screenshots, within `waitSeconds`), fill the user name and
 * password with the scripting tool, sign in, accept Standard if the sharing-type choice appears — run by create,
 * so only when the stack is applied and once per apply. Preview (check, diff) sends nothing. Any change opens the
 * session again (replace); destroy closes the screen-sharing window on the helper.
 */
import { checkWith, withoutProvider } from "../../check";
import { CONTROL_SETTINGS, read } from "../../config";
import { changedKeys, outcomeUnknown, type Bag, type Handler, sameField as same } from "../../handler";
import { HttpClient } from "../../http/client";
import { summaryOf, ValidationError } from "../../http/errors";
import { log, registerSecret, warn } from "../../log";
import { ControlClient, control } from "../client";
import { textOf } from "../tool-result";
import { screenshot } from "../functions";
import { blackShare } from "../image";
import { RemoteDesktopSessionInputs, type RemoteDesktopSessionOutputs } from "./schema";
import { previewTools } from "../tools-preview";

const REPLACING = ["host", "port", "username", "password", "helperUrl", "helperToken", "triggers"];

const origin = (url: string) => new URL(url).origin;

/**
 * The helper's control client. A credential goes only to the endpoint it was configured for: `ops:controlToken` to
 * `ops:controlUrl`'s origin, `helperToken` to `helperUrl`; another host never sees `ops:controlToken`.
 */
function helper(r: Bag): ControlClient {
  if (!r.helperUrl) return control();
  const base = String(r.helperUrl)
    .replace(/\/+$/, "")
    .replace(/\/mcp$/, "");
  const configured = read(CONTROL_SETTINGS.url);
  const token = r.helperToken ?? (configured && origin(configured) === origin(base) ? read(CONTROL_SETTINGS.token) : undefined);
  if (r.helperToken) registerSecret(r.helperToken);
  return new ControlClient(
    new HttpClient({
      service: "control",
      baseUrl: base,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      timeoutMs: 60_000,
      maxRetries: 3,
      urlKey: "the RemoteDesktopSession's helperUrl",
    }),
    base,
  );
}

const esc = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
const ui = (body: string) => `tell application "System Events" to tell process "Screen Sharing" to ${body}`;

async function open(r: RemoteDesktopSessionInputs): Promise<RemoteDesktopSessionOutputs> {
  const password = r.password ?? read(CONTROL_SETTINGS.vncPassword);
  if (!password)
    throw new ValidationError({
      service: "control",
      message: `RemoteDesktopSession ${r.host}: no password`,
      remedy:
        "Set it as secret config: pulumi config set --secret ops:controlVncPassword <password> (or CONTROL_VNC_PASSWORD), or give the resource a secret `password`",
    });
  registerSecret(password);
  const client = helper(r);
  const windows = async () =>
    textOf(
      await client.callTool("applescript", {
        script: `tell application "System Events" to get name of every window of process "Screen Sharing"`,
      }),
    );

  const target = `vnc://${r.host}${r.port ? `:${r.port}` : ""}`;
  const opened = await client.callTool("run_command", { command: `open ${target}` });
  if (opened.isError)
    throw new ValidationError({
      service: "control",
      message: `cannot open ${target}: ${textOf(opened).trim()}`,
      remedy: "Check the host, and that its remote-management agent listens on 3283",
    });

  const deadline = Date.now() + r.waitSeconds * 1000;
  let shown = "";
  while (!/Connect to/.test(shown)) {
    if (Date.now() > deadline)
      throw new ValidationError({
        service: "control",
        message: `no login dialog within ${r.waitSeconds} s of opening ${target}`,
        remedy: "Check that the target is awake and reachable; raise waitSeconds if it is slow",
      });
    await new Promise((res) => setTimeout(res, 500));
    await screenshot({}, client); // what a person would watch
    shown = await windows();
  }
  log(`control: login dialog for ${r.host} is up; signing in as ${r.username}`);
  await client.callTool("applescript", { script: ui(`set value of text field 1 of window 1 to "${esc(r.username)}"`) });
  await client.callTool("applescript", { script: ui(`set value of text field 2 of window 1 to "${esc(password)}"`) });
  await client.callTool("applescript", { script: ui(`click button "Sign In" of window 1`) });

  shown = await windows();
  if (/Select a screen sharing type/.test(shown)) {
    await client.callTool("applescript", { script: ui(`click button "Standard" of window 1`) });
    shown = await windows();
  }
  if (/Connect to/.test(shown))
    throw new ValidationError({
      service: "control",
      message: `sign-in to ${r.host} was refused`,
      remedy: "Check the user name and the password (the resource's password, or ops:controlVncPassword)",
    });
  const shot = await screenshot({}, client);
  const black = blackShare(shot.picture) > 0.98;
  const screen = black
    ? `black: ${r.host} is on another desktop space; switch to it on the target (or move the session there)`
    : "the remote desktop";
  log(`control: connected to ${r.host}; the screen shows ${screen}`);
  // password and helperToken stay in the outputs (stored as secrets): diff compares them, delete needs the token.
  return { ...withoutProvider(r), window: shown, screen, black, pixels: shot.pixels, points: shot.points };
}

export const remoteDesktopSession: Handler<RemoteDesktopSessionInputs, RemoteDesktopSessionOutputs> = {
  // Through a helper computer (helperUrl), the tools are the helper's: asked when the session opens.
  preview: async (ctx) => {
    if (!ctx.inputs.helperUrl) await previewTools(ctx, ["run_command", "applescript"]);
  },
  async check(_olds, news) {
    return checkWith(RemoteDesktopSessionInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    const replaces = changedKeys(REPLACING, olds, wanted, same);
    const changed = changedKeys(["waitSeconds"], olds, wanted, same);
    // One session per host: opening the new one before quitting the old would leave the host without either.
    const sameHost = String(olds.host ?? "").toLowerCase() === String(wanted.host ?? "").toLowerCase();
    return { changes: replaces.length + changed.length > 0, replaces, deleteBeforeReplace: sameHost };
  },
  async create(r) {
    let outs: RemoteDesktopSessionOutputs;
    try {
      outs = await open(r);
    } catch (e) {
      // A lost answer mid-procedure: going through it again is what a person would do, and safe — opening
      // `vnc://<host>` again brings up the same session's window, so one session is what remains.
      if (!outcomeUnknown(e)) throw e;
      log(`control: an answer of the remote-desktop procedure for ${r.host} was lost (${summaryOf(e)}); going through it again`);
      outs = await open(r);
    }
    return { id: `${r.host}${r.port ? `:${r.port}` : ""}/${r.username}`, outs };
  },
  async read(id, props) {
    // A session is not an object the helper can be asked about: refresh keeps what up saw.
    return { id, props: props as RemoteDesktopSessionOutputs };
  },
  async update(_id, olds, news) {
    // Only waitSeconds changes in place: the rest is what the session was opened with.
    return { outs: { ...(olds as RemoteDesktopSessionOutputs), waitSeconds: withoutProvider(news).waitSeconds } };
  },
  async delete(_id, props) {
    // Quitting the helper's screen-sharing app ends the session; an app that is not running is what delete wants.
    const r = await helper(props).callTool("applescript", { script: `tell application "Screen Sharing" to quit` });
    if (r.isError) warn(`control: closing the session to ${props.host} on the helper said: ${textOf(r).trim()}`);
  },
};
