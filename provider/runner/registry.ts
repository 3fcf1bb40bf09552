/**
 * What a tag points at on the model registry today, without pulling: the registry's manifest
 * (`GET <registry>/v2/<namespace>/<model>/manifests/<tag>`, the Docker v2 schema registry.ollama.ai serves); the
 * runner's digest of a pulled model is the sha256 of those manifest bytes.
 */
import { createHash } from "node:crypto";
import { request } from "undici";
import { read, RUNNER_SETTINGS } from "../config";
import { canonicalModel } from "./model-name";

/** The manifest digest (64 hex) the registry answers for `name` now; undefined when it cannot be asked (said why). */
export async function registryDigest(name: string): Promise<{ digest?: string; why?: string }> {
  const [path, tag] = canonicalModel(name).split(/:(?=[^/]*$)/);
  const parts = path.split("/");
  if (parts.length === 3) return { why: `${name} names its own registry host (${parts[0]})` };
  const [namespace, model] = parts.length === 2 ? parts : ["library", parts[0]];
  const base = (read(RUNNER_SETTINGS.registryUrl) ?? "https://registry.ollama.ai").replace(/\/+$/, "");
  try {
    const res = await request(`${base}/v2/${namespace}/${model}/manifests/${tag}`, {
      headers: { accept: "application/vnd.docker.distribution.manifest.v2+json" },
      headersTimeout: 15_000,
      bodyTimeout: 15_000,
    });
    const bytes = Buffer.from(await res.body.arrayBuffer());
    if (res.statusCode === 404) return { why: `the registry has no ${namespace}/${model}:${tag}` };
    if (res.statusCode >= 400) return { why: `the registry answered ${res.statusCode}` };
    return { digest: createHash("sha256").update(bytes).digest("hex") };
  } catch (e) {
    return { why: `the registry at ${base} did not answer (${(e as Error).message})` };
  }
}
