/** The model runner's read-only functions. */
import { runner } from "./client";

export async function listModels() {
  return (await runner().list()).map((m) => ({
    name: m.name,
    digest: m.digest,
    size: m.size,
    family: m.details.family,
    parameterSize: m.details.parameter_size,
    quantizationLevel: m.details.quantization_level,
    modifiedAt: m.modified_at,
  }));
}

export async function listRunningModels() {
  return (await runner().running()).map((m) => ({ name: m.name, size: m.size, sizeVram: m.size_vram, expiresAt: m.expires_at }));
}
