/** A GeneratedSkill's outputs: what the registry holds (skill/outputs.ts) and how this resource made it. */
import type { Bag } from "../../handler";
import type { SkillRecord } from "../client";
import { publishedFields } from "../skill/outputs";
import type { GeneratedSkillOutputs } from "./schema";

/**
 * `r`: the inputs, or the state an up left. `made`: the generations the last build took, and the hash of what this
 * resource published (the registry's own content when omitted: it has just published it).
 */
export function generatedOutputs(
  r: Bag,
  s: SkillRecord,
  lines: number,
  made: { attempts: number; publishedHash?: string },
): GeneratedSkillOutputs {
  const published = publishedFields(r, s, lines);
  return {
    ...published,
    adopt: r.adopt ?? false,
    model: r.model,
    sources: r.sources,
    sourcesHash: r.sourcesHash,
    promptHash: r.promptHash,
    publishedHash: made.publishedHash ?? published.contentHash,
    attempts: made.attempts,
  };
}
