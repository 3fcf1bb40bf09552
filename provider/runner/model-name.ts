// Apart from the client, so the model schema (loaded with every resource type's schema) does not load the client.

/**
 * A name as the runner shows and compares it (its `ParseName` and `DisplayShortest`): lowercased (names match
 * without regard to case), the tag defaulting to `latest`, the default host `registry.ollama.ai` and namespace
 * `library` left out — `registry.ollama.ai/library/x`, `library/x` and `X` are all `x:latest`; a host with a port
 * (`localhost:5000/ns/m`) is a host, not a tag.
 */
export function canonicalModel(name: string): string {
  const [path, tag] = name
    .trim()
    .toLowerCase()
    .split(/:(?=[^/]*$)/);
  const parts = path.split("/");
  if (parts.length === 3 && parts[0] === "registry.ollama.ai") parts.shift();
  if (parts.length === 2 && parts[0] === "library") parts.shift();
  return `${parts.join("/")}:${tag || "latest"}`;
}

const PART_RULES = { host: 350, namespace: 80, model: 80, tag: 80 } as const;

/**
 * Why the runner would refuse a model name, or undefined: `[host/][namespace/]model[:tag]`, each part 1 to 80
 * characters (a host 350) of letters, digits, `_`, `-` and `.` (no `.` in a namespace; `:port` only in a host),
 * starting with a letter, a digit or `_` — the runner's own rules for names.
 */
export function modelNameProblem(name: string): string | undefined {
  const [path, tag, extra] = name.split(/:(?=[^/]*$)/);
  if (extra !== undefined) return `"${name}" has more than one tag`;
  const parts = path.split("/");
  if (parts.length > 3) return `"${name}" has too many parts: at most host/namespace/model:tag`;
  const kinds = (
    parts.length === 3 ? ["host", "namespace", "model"] : parts.length === 2 ? ["namespace", "model"] : ["model"]
  ) as (keyof typeof PART_RULES)[];
  const named: [keyof typeof PART_RULES, string][] = [
    ...parts.map((p, i) => [kinds[i], p] as [keyof typeof PART_RULES, string]),
    ...(tag !== undefined ? [["tag", tag] as [keyof typeof PART_RULES, string]] : []),
  ];
  for (const [kind, part] of named) {
    if (!part.length) return `the ${kind} of "${name}" is empty`;
    if (part.length > PART_RULES[kind]) return `the ${kind} of "${name}" is longer than ${PART_RULES[kind]} characters`;
    if (!/^[A-Za-z0-9_]/.test(part)) return `the ${kind} "${part}" must start with a letter, a digit or _`;
    const allowed = kind === "host" ? /^[A-Za-z0-9_.:-]+$/ : kind === "namespace" ? /^[A-Za-z0-9_-]+$/ : /^[A-Za-z0-9_.-]+$/;
    if (!allowed.test(part)) return `the ${kind} "${part}" may hold only letters, digits, _, -${kind === "namespace" ? "" : " and ."}`;
  }
  return undefined;
}

/** A digest as given (`sha256:` or not; the 12 characters `ollama list` shows, or all 64) against the runner's. */
export const sameDigest = (expected: string, actual: string) => actual.replace(/^sha256:/, "").startsWith(expected.replace(/^sha256:/, ""));
