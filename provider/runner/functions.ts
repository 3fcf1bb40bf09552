/** The model runner's read-only functions. */
import { runner, type RunnerModelInfo } from "./client";

/** What the runner says of a model, as the provider's outputs name it (listModels, and a RunnerModel's outputs). */
export function modelFacts(m: RunnerModelInfo) {
  return {
    name: m.name,
    digest: m.digest,
    size: m.size,
    family: m.details.family,
    parameterSize: m.details.parameter_size,
    quantizationLevel: m.details.quantization_level,
    modifiedAt: m.modified_at,
  };
}

export async function listModels() {
  return (await runner().list()).map(modelFacts);
}

export async function listRunningModels() {
  return (await runner().running()).map((m) => ({ name: m.name, size: m.size, sizeVram: m.size_vram, expiresAt: m.expires_at }));
}
