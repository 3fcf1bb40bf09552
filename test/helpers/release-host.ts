/**
 * The plugin's release host, stood in for on loopback: the standalone plugin for this machine
 * (scripts/build-plugin.ts, built once and reused) served as a release host serves its assets, and the environment
 * that makes the engine fetch it from here instead of schema.json's pluginDownloadURL (the CLI's documented
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: a regexp on the URL, then the URL to use).
 */
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import * as path from "node:path";
import { buildPlugin } from "../../scripts/build-plugin";
import { ROOT } from "../../scripts/engine";

/** The version being released: package.json's, which schema.json, the SDKs and the tarballs' names carry. */
export const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

export interface ReleaseHost {
  /** The paths asked for, in order. */
  fetched: string[];
  /** What the engine's environment needs: automatic plugin acquisition on, the release URL mapped here. */
  env: Record<string, string>;
  stop(): void;
}

export async function startReleaseHost(): Promise<ReleaseHost> {
  const [tarball] = buildPlugin(["linux-amd64"]);
  const fetched: string[] = [];
  const server = createServer((req, res) => {
    fetched.push(req.url ?? "");
    const file = path.join(path.dirname(tarball), path.basename(req.url ?? ""));
    if (!file.endsWith(".tar.gz") || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/gzip", "content-length": statSync(file).size });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    fetched,
    env: {
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "false",
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^https://github\\.com/pulumi-ops/pulumi-ops/releases/=http://127.0.0.1:${port}`,
    },
    stop: () => server.close(),
  };
}
