/**
 * A WorkerScript's bindings to storage and other services — KV namespaces, R2 buckets, D1 databases, other
 * Workers, queues (producer) and Durable Object namespaces, and the platform's services a binding needs nothing made
 * for (Workers AI, an Analytics Engine dataset, Browser Rendering, Images, the version's metadata, email sending) —
 * as the upload metadata takes them (the multipart upload's `bindings`; wrangler's `kv_namespaces`, `r2_buckets`,
 * `d1_databases`, `services`, `queues.producers`, `durable_objects.bindings`, `ai`, `analytics_engine_datasets`,
 * `browser`, `images`, `version_metadata`, `send_email`), read back from the script's settings and compared by name.
 * Bindings of other types (Hyperdrive, Vectorize, workflows, ...) made elsewhere are kept as they are.
 */
import { z } from "zod";
import { ruleFailure } from "../../check";
import type * as wire from "../wire";

/** A binding's name: the property of `env` the script reads it by. */
export const BINDING_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export const BINDING_TYPES = [
  "kv_namespace",
  "r2_bucket",
  "d1",
  "service",
  "queue",
  "durable_object_namespace",
  "ai",
  "analytics_engine",
  "browser",
  "images",
  "version_metadata",
  "send_email",
] as const;
export type BindingType = (typeof BINDING_TYPES)[number];

/** Per type, the fields it needs (and may have), with the upload metadata's names for them. */
const FIELDS: Record<BindingType, { needs: string[]; may?: string[] }> = {
  kv_namespace: { needs: ["namespaceId"] },
  r2_bucket: { needs: ["bucketName"], may: ["jurisdiction"] },
  d1: { needs: ["databaseId"] },
  service: { needs: ["service"], may: ["environment", "entrypoint"] },
  queue: { needs: ["queueName"] },
  durable_object_namespace: { needs: ["className"], may: ["scriptName", "environment"] },
  ai: { needs: [] },
  analytics_engine: { needs: ["dataset"] },
  browser: { needs: [] },
  images: { needs: [] },
  version_metadata: { needs: [] },
  send_email: { needs: [], may: ["destinationAddress"] },
};
const WIRE: Record<string, string> = {
  namespaceId: "namespace_id",
  bucketName: "bucket_name",
  databaseId: "id", // the docs' and wrangler's name; read back as `database_id` or `id`
  queueName: "queue_name",
  className: "class_name",
  scriptName: "script_name",
  service: "service",
  environment: "environment",
  entrypoint: "entrypoint",
  jurisdiction: "jurisdiction",
  dataset: "dataset",
  destinationAddress: "destination_address",
};

export const Binding = z
  .object({
    name: z
      .string()
      .min(1, { error: "a binding's name must not be empty" })
      .describe("The name the script reads it by (`env.<name>`; a JavaScript identifier reads as `env.NAME`)."),
    type: z
      .enum(BINDING_TYPES, { error: `a binding's type must be one of ${BINDING_TYPES.join(", ")}` })
      .describe(
        "`kv_namespace` (namespaceId), `r2_bucket` (bucketName), `d1` (databaseId), `service` (service), `queue` (queueName, a producer), `durable_object_namespace` (className), `analytics_engine` (dataset), `send_email` (destinationAddress, optional), or `ai`, `browser`, `images`, `version_metadata` (nothing else).",
      ),
    namespaceId: z.string().min(1).optional().describe("A KV namespace's id (a KvNamespace's `namespaceId`)."),
    bucketName: z.string().min(1).optional().describe("An R2 bucket's name."),
    jurisdiction: z
      .enum(["default", "eu", "us", "fedramp", "fedramp-high"])
      .optional()
      .describe("An R2 bucket's jurisdiction (an R2Bucket's `jurisdiction` output); `default` is sent as none."),
    databaseId: z.string().min(1).optional().describe("A D1 database's id (its uuid)."),
    service: z.string().min(1).optional().describe("Another Worker's name (a service binding)."),
    environment: z.string().min(1).optional().describe("That Worker's (or Durable Object's script's) environment."),
    entrypoint: z.string().min(1).optional().describe("A named entrypoint of that Worker."),
    queueName: z.string().min(1).optional().describe("The queue this script sends to."),
    className: z.string().min(1).optional().describe("The Durable Object's class."),
    scriptName: z.string().min(1).optional().describe("The Worker that defines the Durable Object class, where it is another."),
    dataset: z.string().min(1).optional().describe("The Analytics Engine dataset the script writes data points to (made on first write)."),
    destinationAddress: z
      .string()
      .min(1)
      .optional()
      .describe("The one verified address an email binding may send to (none: any verified address of the account)."),
  })
  .superRefine((b, ctx) => {
    const spec = FIELDS[b.type];
    if (!spec) return;
    for (const f of spec.needs) if (!(b as Record<string, unknown>)[f]) ruleFailure(ctx, f, `a ${b.type} binding needs ${f}`, ["type"]);
    const allowed = new Set(["name", "type", ...spec.needs, ...(spec.may ?? [])]);
    for (const [k, v] of Object.entries(b))
      if (v !== undefined && !allowed.has(k)) ruleFailure(ctx, k, `${k} is not a field of a ${b.type} binding: remove it`, ["type"]);
  })
  .describe("A binding of the script to storage or another service.");
export type Binding = z.output<typeof Binding>;

/** The binding as the upload metadata takes it. */
export function toWire(b: Binding): wire.WorkerBinding {
  const out: Record<string, string> = { type: b.type, name: b.name };
  for (const [k, v] of Object.entries(b))
    if (v !== undefined && WIRE[k] && !(k === "jurisdiction" && v === "default")) out[WIRE[k]] = String(v);
  return out as wire.WorkerBinding;
}

/** A binding of the script's settings in the program's terms, where it is of a type bindings declares. */
export function fromWire(w: wire.WorkerBinding): Binding | undefined {
  if (!(BINDING_TYPES as readonly string[]).includes(w.type)) return undefined;
  const raw = w as Record<string, unknown>;
  const out: Record<string, unknown> = { name: w.name, type: w.type };
  for (const [k, wk] of Object.entries(WIRE)) {
    const v = k === "databaseId" ? (raw.database_id ?? raw.id) : raw[wk];
    if (typeof v === "string" && v && [...FIELDS[w.type as BindingType].needs, ...(FIELDS[w.type as BindingType].may ?? [])].includes(k))
      out[k] = v;
  }
  return out as Binding;
}

/** Bindings compared as the service means them: by name, whatever their order or the order of their keys. */
export function sameBindings(a: readonly Binding[] | undefined, b: readonly Binding[] | undefined): boolean {
  const key = (list: readonly Binding[] | undefined) =>
    JSON.stringify(
      [...(list ?? [])]
        .map((x) =>
          Object.fromEntries(
            Object.entries(x)
              .filter(([, v]) => v !== undefined)
              .sort(),
          ),
        )
        .sort((x, y) => String(x.name).localeCompare(String(y.name))),
    );
  return key(a) === key(b);
}
