/**
 * The simulated screen of the control emulator's host, in points (720 x 450) at pixel density 2: screenshots are
 * 1440 x 900 pixels and clicks are in points, so the document's divide-by-two rule applies. It plays the
 * remote-desktop procedure: after `open vnc://<host>` a login dialog appears (after a delay), then, for hosts that
 * ask, a choice of screen-sharing type, then the remote screen — black when the target is on another desktop space.
 */
import { encodeImage } from "./png";

export const POINTS = { width: 720, height: 450 };
export const DENSITY = 2;

export interface VncTarget {
  username: string;
  password: string;
  /** Shows the screen-sharing type choice (Standard / High Performance) after sign-in. */
  asksType?: boolean;
  /** The target is on another desktop space: the shared screen is black. */
  otherSpace?: boolean;
}

type State = "desktop" | "connecting" | "login" | "choice" | "connected";
interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export const LAYOUT: Record<string, Box> = {
  dialog: { x: 210, y: 120, w: 300, h: 200 },
  userField: { x: 240, y: 180, w: 240, h: 24 },
  passwordField: { x: 240, y: 220, w: 240, h: 24 },
  signIn: { x: 400, y: 270, w: 80, h: 28 },
  standard: { x: 240, y: 270, w: 100, h: 28 },
  highPerformance: { x: 360, y: 270, w: 120, h: 28 },
};

const inside = (b: Box, x: number, y: number) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h;

export class SimulatedScreen {
  state: State = "desktop";
  host = "";
  fields = { user: "", password: "" };
  focus: "user" | "password" | undefined;
  error = "";
  private readyAt = 0;

  constructor(
    readonly targets: Record<string, VncTarget>,
    private readonly now: () => number,
    /**
     * How long the login dialog takes to appear after `open vnc://`: 5 to 8 seconds, drawn anew for each opening, as
     * the remote-desktop procedure (docs/resources.md, RemoteDesktopSession) says; a test sets a fixed (shorter) delay explicitly.
     */
    readonly dialogDelayMs?: number,
  ) {}

  private tick(): void {
    if (this.state === "connecting" && this.now() >= this.readyAt) {
      this.state = "login";
      this.focus = "user";
    }
  }

  open(url: string): { stdout: string; stderr: string; exitCode: number } {
    const m = /^vnc:\/\/([^/:]+)(?::(\d+))?\/?$/.exec(url);
    if (!m) return { stdout: "", stderr: `The file ${url} does not exist.\n`, exitCode: 1 };
    if (m[2] && m[2] !== "3283" && m[2] !== "5900") return { stdout: "", stderr: `Connection to ${m[1]}:${m[2]} refused.\n`, exitCode: 1 };
    this.host = m[1];
    this.fields = { user: "", password: "" };
    this.error = "";
    this.state = "connecting";
    this.readyAt = this.now() + (this.dialogDelayMs ?? 5000 + Math.floor(Math.random() * 3001));
    return { stdout: "", stderr: "", exitCode: 0 };
  }

  /** The screen-sharing app quits: the session, or the dialog, is gone. */
  quit(): void {
    this.state = "desktop";
    this.host = "";
  }

  /** Window names of the screen-sharing app, as the scripting tool reports them. */
  windows(): string[] {
    this.tick();
    switch (this.state) {
      case "login":
        return [`Connect to "${this.host}"`];
      case "choice":
        return ["Select a screen sharing type"];
      case "connected":
        return [`${this.host} (Standard)`];
      default:
        return [];
    }
  }

  press(button: string): string {
    this.tick();
    if (this.state === "login" && /^sign in$/i.test(button)) {
      const t = this.targets[this.host];
      if (!t || t.username !== this.fields.user || t.password !== this.fields.password) {
        this.error = "The user name or password is incorrect.";
        this.fields.password = "";
        return "";
      }
      this.state = t.asksType ? "choice" : "connected";
      return "";
    }
    if (this.state === "choice" && /^(standard|high performance)$/i.test(button)) {
      this.state = "connected";
      return "";
    }
    throw new Error(`execution error: Can't get button "${button}" of window 1. (-1728)`);
  }

  setField(n: number, value: string): void {
    this.tick();
    if (this.state !== "login") throw new Error("execution error: Can't get text field of window 1: there is no login dialog. (-1728)");
    if (n === 1) this.fields.user = value;
    else if (n === 2) this.fields.password = value;
    else throw new Error(`execution error: Can't get text field ${n} of window 1. (-1728)`);
  }

  /** A click in points. */
  click(x: number, y: number): string {
    this.tick();
    if (this.state === "login") {
      if (inside(LAYOUT.userField, x, y)) this.focus = "user";
      else if (inside(LAYOUT.passwordField, x, y)) this.focus = "password";
      else if (inside(LAYOUT.signIn, x, y)) this.press("Sign In");
      return this.state;
    }
    if (this.state === "choice") {
      if (inside(LAYOUT.standard, x, y)) this.press("Standard");
      else if (inside(LAYOUT.highPerformance, x, y)) this.press("High Performance");
    }
    return this.state;
  }

  type(text: string): void {
    this.tick();
    if (this.state === "login" && this.focus) this.fields[this.focus] += text;
  }

  key(keys: string): void {
    this.tick();
    const k = keys.toLowerCase();
    if (k === "tab" && this.state === "login") this.focus = this.focus === "user" ? "password" : "user";
    else if (k === "return" || k === "enter") {
      if (this.state === "login") this.press("Sign In");
      else if (this.state === "choice") this.press("Standard");
    }
  }

  /** What the screen shows now, in pixels (points x density): a PNG (RGB or indexed) or a JPEG. */
  screenshot(format: "png" | "palette" | "jpeg" = "png", density = DENSITY): Buffer {
    this.tick();
    const black = this.state === "connected" && this.targets[this.host]?.otherSpace;
    const remote = this.state === "connected";
    const dialog = this.state === "login" || this.state === "choice" || this.state === "connecting";
    return encodeImage(format, Math.round(POINTS.width * density), Math.round(POINTS.height * density), (px, py) => {
      const x = px / density;
      const y = py / density;
      if (black) return [0, 0, 0];
      if (y < 12) return [236, 236, 236]; // menu bar
      if (dialog && inside(LAYOUT.dialog, x, y)) {
        if (this.state === "login" && (inside(LAYOUT.userField, x, y) || inside(LAYOUT.passwordField, x, y))) return [255, 255, 255];
        if (this.state === "login" && inside(LAYOUT.signIn, x, y)) return [10, 96, 255];
        if (this.state === "choice" && (inside(LAYOUT.standard, x, y) || inside(LAYOUT.highPerformance, x, y))) return [10, 96, 255];
        return [242, 242, 242];
      }
      return remote ? [32, 78, 140] : [58, 110, 165];
    });
  }
}
