/**
 * What the runner's registry offers and how the runner names and keeps models: the catalogue of pullable models, a
 * model as the runner stores it, names as it spells them (types/model/name.go), and a model's manifest.
 */
import { createHash } from "node:crypto";

export interface CatalogueEntry {
  family: string;
  parameterSize: string;
  quantization: string;
  /** Layer sizes in bytes; a pull streams progress per layer. */
  layers: number[];
  /** Bumped by the test hook `retag`: the tag then points at another manifest (new weights), as a registry's can. */
  revision?: number;
}

export const DEFAULT_CATALOGUE: Record<string, CatalogueEntry> = {
  "llama3.2:latest": { family: "llama", parameterSize: "3.2B", quantization: "Q4_K_M", layers: [2_019_377_376, 1_429, 7_711, 6_016] },
  "qwen2.5:0.5b": { family: "qwen2", parameterSize: "494.03M", quantization: "Q4_K_M", layers: [397_807_936, 6_975, 11_343] },
  "tinyllama:latest": { family: "llama", parameterSize: "1B", quantization: "Q4_0", layers: [637_699_456, 98, 483] },
};

export interface Model {
  name: string;
  digest: string;
  size: number;
  modifiedAt: string;
  details: { format: string; family: string; parameter_size: string; quantization_level: string; parent_model?: string };
  system?: string;
  parameters?: Record<string, unknown>;
  from?: string;
  template?: string;
  license?: string[];
  messages?: { role: string; content: string }[];
  requires?: string;
}

/** The runner's version: what `GET /api/version` answers (the real server this emulator is held to). */
export const RUNNER_VERSION = "0.32.15";

/** A name as the runner keeps it (types/model/name.go: ParseName, then DisplayShortest; matched without regard to case). */
export function canonical(name: string): string {
  const slash = name.lastIndexOf("/");
  const colon = name.lastIndexOf(":");
  const [path, tag] = colon > slash ? [name.slice(0, colon), name.slice(colon + 1)] : [name, "latest"];
  const parts = path.trim().toLowerCase().split("/");
  const [host, ns] =
    parts.length === 3 ? parts : parts.length === 2 ? ["registry.ollama.ai", ...parts] : ["registry.ollama.ai", "library", ...parts];
  const model = parts.at(-1)!;
  const shown = host === "registry.ollama.ai" ? (ns === "library" ? model : `${ns}/${model}`) : `${host}/${ns}/${model}`;
  return `${shown}:${tag.toLowerCase() || "latest"}`;
}

export const sha = (s: string) => createHash("sha256").update(s).digest("hex");
export const layerDigest = (name: string, entry: CatalogueEntry, i: number) => `sha256:${sha(`${name}:${i}:${entry.revision ?? 0}`)}`;
/** The registry's manifest of a catalogue model (the Docker v2 schema the Ollama registry serves); its digest is the model's. */
export function manifestOf(name: string, entry: CatalogueEntry): string {
  const layers = entry.layers.map((size, i) => ({
    mediaType:
      i === 0
        ? "application/vnd.ollama.image.model"
        : i === 1
          ? "application/vnd.ollama.image.template"
          : "application/vnd.ollama.image.params",
    digest: layerDigest(name, entry, i),
    size,
  }));
  return JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.docker.distribution.manifest.v2+json",
    config: {
      mediaType: "application/vnd.docker.container.image.v1+json",
      digest: `sha256:${sha(`${name}:config:${entry.revision ?? 0}`)}`,
      size: 487,
    },
    layers,
  });
}
