// Apart from the client, so the model schema (loaded with every resource type's schema) does not load the client.

/** `model` or `model:tag`, lowercased, the tag defaulting to `latest`, as the runner lists it. */
export function canonicalModel(name: string): string {
  const n = name.trim().toLowerCase();
  return n.includes(":") ? n : `${n}:latest`;
}
