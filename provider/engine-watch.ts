/**
 * A provider process stops when the engine that started it is gone. The engine starts every plugin in a process
 * group of its own, so after `kill -9` of the `pulumi` CLI its provider processes live on and would keep sending
 * what they had queued (posts waiting for their publish slot, retries, the next wave of creates). Nothing tells
 * them: the dynamic provider runs under a shell (its parent is that shell, not the CLI) and the engine's RPCs to it
 * simply stop coming.
 *
 * The engine's own gRPC address is the plugin's last argument. A plain TCP connection to it is held open (unref'd,
 * so it never keeps the process alive): when the CLI dies, the kernel closes it; a fresh connection is then refused,
 * and the process exits at once, mid-request if need be. A connection the engine closes while alive (it expects
 * HTTP/2 and may drop an idle one) is simply opened again.
 *
 * The run's language host (`pulumi-language-nodejs`, the engine's own Go program) checks the engine only every five
 * minutes. It sends nothing to any service, but it is a process of the dead run: the provider that notices first
 * ends it too (Linux: found by the same engine address among its arguments; elsewhere it exits on its own).
 */
import { readdirSync, readFileSync } from "node:fs";
import * as net from "node:net";

/** `127.0.0.1:34567` or `[::1]:34567` among the arguments (the engine address comes last). */
export function engineAddress(argv: string[]): { host: string; port: number } | undefined {
  for (const a of [...argv].reverse()) {
    const m = /^(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):(\d{2,5})$/.exec(a);
    if (m) return { host: m[1].replace(/^\[|\]$/g, ""), port: Number(m[2]) };
  }
  return undefined;
}

let watching = false;

/**
 * Exits the process (code 1) within about half a second of the engine going away. True when an engine started this
 * process (its address is among the arguments).
 */
export function watchEngine(argv: string[] = process.argv, onGone: () => void = () => process.exit(1)): boolean {
  const addr = engineAddress(argv.slice(2));
  if (!addr) return false;
  if (watching) return true;
  watching = true;
  let refused = 0;
  const connect = () => {
    let connected = false;
    const s = net.connect(addr);
    s.unref();
    s.resume(); // read (and drop) so the engine's FIN is seen: an unread socket never learns the peer is gone
    s.on("connect", () => {
      connected = true;
      refused = 0;
    });
    s.on("error", () => undefined); // 'close' follows and decides
    s.on("close", () => {
      // Two refusals in a row: nothing listens at the engine's address any more.
      if (!connected && ++refused >= 2) {
        process.stderr.write("pulumi-ops: the Pulumi engine that started this provider is gone; stopping so nothing more is sent\n");
        stopLanguageHosts(`${addr.host}:${addr.port}`);
        onGone();
        return;
      }
      setTimeout(connect, connected ? 50 : 150).unref(); // never a busy loop, even if the engine drops us at once
    });
  };
  connect();
  return true;
}

/** Ends the language hosts started by the engine at `address` (which is gone). Best effort; Linux /proc only. */
function stopLanguageHosts(address: string): void {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (/(^|\/)pulumi-language-[a-z]+$/.test(args[0]) && args.includes(address)) process.kill(Number(pid), "SIGTERM");
    } catch {
      // gone meanwhile, or not ours
    }
  }
}

/** The dynamic provider host of @pulumi/pulumi, as opposed to a test runner or a script that loads the door. */
export function isDynamicProviderHost(): boolean {
  return /@pulumi[\\/]pulumi[\\/]cmd[\\/]dynamic-provider/.test(require.main?.filename ?? process.argv[1] ?? "");
}
