/**
 * `ops.runner.RunnerModel`. id: the canonical name. A definition change re-creates the model in place (same name);
 * refresh finds a model removed or replaced out of band (another digest); destroy removes it (absent is fine), or
 * leaves one taken over with `adopt: true` (it was there before, and the runner keeps no owner to say whose it is).
 */
import { checkWith, withoutProvider } from "../../check";
import { canonical, changedKeys, sameValue, type Bag, type Handler } from "../../handler";
import { GENERAL_SETTINGS, read } from "../../config";
import { ValidationError } from "../../http/errors";
import { log, notice, warn } from "../../log";
import { runner, type RunnerModelInfo } from "../client";
import { modelFacts } from "../functions";
import { canonicalModel, sameDigest } from "../model-name";
import { PARAMETERS, typedParameter } from "./definition";
import { blobMap, isLocalSource } from "./files";
import { RunnerModelInputs, type RunnerModelOutputs } from "./schema";
import { adoptingModel, modelTaken, modelTakeoverRefused } from "./takeover";
import { previewModel } from "./preview";
import { runnerVersionProblem } from "../version";

/** The create request's fields besides where the model comes from. */
function createFields(r: Bag) {
  return {
    system: r.system,
    template: r.template,
    license: r.license,
    messages: r.messages,
    requires: r.requires,
    renderer: r.renderer,
    parser: r.parser,
    parameters: r.parameters ?? {},
  };
}

/** Files on this machine, uploaded as blobs: their names and digests for the create request. */
async function uploaded(source: string): Promise<Record<string, string>> {
  const { files, paths } = blobMap(source);
  await runner().uploadBlobs(paths);
  return files;
}

/**
 * Pulls the model, or creates it: from a local GGUF file or model folder (uploaded as blobs), or from its base
 * (pulled first when the runner lacks it).
 */
async function make(r: Bag): Promise<RunnerModelInfo> {
  const info = await bring(r);
  if (r.expectedDigest && !sameDigest(r.expectedDigest, info.digest)) {
    // Not what the program pinned: not kept (unless it was there before and taken over), and the up fails.
    if (!r.adopt)
      await runner()
        .remove(r.name)
        .catch(() => undefined);
    throw new ValidationError({
      service: "runner",
      message: `${r.name} came with digest ${info.digest.slice(0, 12)}, not the expectedDigest ${String(r.expectedDigest).slice(0, 12)}: ${r.from ? "what it is made from changed" : "the registry's tag now points at other weights"}${r.adopt ? "" : "; it was not kept"}`,
      remedy: `Review the new ${r.from ? "model" : "weights"}; to take them, set expectedDigest to ${info.digest.slice(0, 12)}; to keep the old ones, pin a tag that still points at them`,
    });
  }
  return info;
}

/** A pinned pull whose tag the registry moved since the preview: refused before anything is pulled. */
async function refuseMovedTag(r: Bag): Promise<void> {
  if (!r.expectedDigest) return;
  const { registryDigest } = await import("../registry");
  const { digest } = await registryDigest(r.name);
  if (digest && !sameDigest(r.expectedDigest, digest))
    throw new ValidationError({
      service: "runner",
      message: `${r.name} on the registry is ${digest.slice(0, 12)} now, not the expectedDigest ${String(r.expectedDigest).slice(0, 12)}: nothing was pulled`,
      remedy: `Review the new weights; to take them, set expectedDigest to ${digest.slice(0, 12)}; to keep the old ones, pin a tag that still points at them`,
    });
}

/** Pulls the model or creates it; the model as the runner lists it. */
async function bring(r: Bag): Promise<RunnerModelInfo> {
  if (r.from) {
    const problem = runnerVersionProblem(r, await runner().version(), runner().url);
    if (problem) throw problem;
    const source: Record<string, unknown> = {};
    if (isLocalSource(r.from)) source.files = await uploaded(r.from);
    else {
      const base = canonicalModel(r.from);
      if (!(await runner().find(base))) {
        log(`runner: the base ${base} is not on the runner; pulling it first`);
        await runner().stream("/api/pull", { model: base }, `pull ${base}`);
        runner().pulledAsBase.add(base);
      }
      source.from = base;
    }
    if (r.adapter) source.adapters = await uploaded(r.adapter);
    if (r.draft) source.draft_files = await uploaded(r.draft);
    const quantized = { ...(r.quantize ? { quantize: r.quantize } : {}), ...(r.draftQuantize ? { draft_quantize: r.draftQuantize } : {}) };
    await runner().stream("/api/create", { model: r.name, ...source, ...quantized, ...createFields(r) }, `create ${r.name}`);
  } else if (!(await runner().find(r.name))) {
    await refuseMovedTag(r);
    await runner().stream("/api/pull", { model: r.name }, `pull ${r.name}`);
  } else if (r.expectedDigest && !sameDigest(r.expectedDigest, (await runner().find(r.name))!.digest)) {
    // On the runner with other weights than pinned. A model taken over is not pulled over (a takeover writes
    // nothing); else a pull brings what the tag points at now, asked first so a moved tag changes nothing here.
    if (r.adopt)
      throw new ValidationError({
        service: "runner",
        message: `${r.name}, taken over with adopt, has other weights than expectedDigest ${String(r.expectedDigest).slice(0, 12)}`,
        remedy: "Set expectedDigest to the digest the runner lists (ollama list), or pull the pinned weights there yourself",
      });
    await refuseMovedTag(r);
    await runner().stream("/api/pull", { model: r.name }, `pull ${r.name}`);
  } else {
    log(`runner: ${r.name} is on the runner already; nothing pulled`); // an update or a takeover writes nothing
  }
  const info = await runner().find(r.name);
  if (!info) throw new Error(`runner: ${r.name} is not listed after it was made`);
  return info;
}

/**
 * The inputs that make this model again: a pulled model (no parent) by its name; a created one from its parent (a
 * model name, or the path of the GGUF blob it was made from on the runner's machine) with its system prompt,
 * template, parameters, messages, license and requires, as `/api/show` reads them.
 */
export async function madeOf(m: RunnerModelInfo): Promise<Bag> {
  const shown = await runner().show(m.name);
  const parent = shown.details?.parent_model;
  // A pulled model is its tag and the weights it has now: pinned, so the program brings these and no others.
  if (!parent) return { name: m.name, expectedDigest: m.digest };
  return { name: m.name, from: parent, ...definitionOf(shown) };
}

/** What `/api/show` says a model is defined with: system prompt, template, parameters, messages, license, requires. */
function definitionOf(shown: Awaited<ReturnType<ReturnType<typeof runner>["show"]>>): Bag {
  const parameters: Record<string, unknown> = {};
  for (const line of (shown.parameters ?? "").split("\n").filter(Boolean)) {
    const [, name, raw] = /^(\S+)\s+(.*)$/.exec(line.trim()) ?? [];
    if (!name || !PARAMETERS[name]) continue;
    const text = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
    parameters[name] =
      PARAMETERS[name] === "list" ? [...((parameters[name] as string[] | undefined) ?? []), text] : typedParameter(name, text);
  }
  const inputs: Bag = { system: shown.system, template: shown.template, requires: shown.requires };
  if (Object.keys(parameters).length) inputs.parameters = parameters;
  if (shown.messages?.length) inputs.messages = shown.messages;
  if (shown.license) inputs.license = [shown.license];
  return Object.fromEntries(Object.entries(inputs).filter(([, v]) => v !== undefined && v !== ""));
}

const DEFINED = ["system", "template", "license", "messages", "parameters", "requires"] as const;

/**
 * Whether a model the runner has is already what the program defines, so taking it over sends nothing: made from
 * the program's base, with each field the program sets as the runner shows it, and each field it leaves out as the
 * base has it (a create from the base would give it that). Files uploaded, adapters, drafts and quantizing cannot be
 * compared through the API: such a model is made again.
 */
async function alreadyDefined(r: Bag, m: RunnerModelInfo): Promise<boolean> {
  if (!r.from || isLocalSource(r.from) || r.adapter || r.draft || r.quantize || r.draftQuantize || r.renderer || r.parser) return false;
  const now = await madeOf(m);
  if (!now.from || canonicalModel(String(now.from)) !== canonicalModel(r.from)) return false;
  const base = definitionOf(await runner().show(canonicalModel(r.from)));
  return DEFINED.every((k) => sameValue(now[k], r[k] === undefined || (k === "parameters" && !Object.keys(r[k]).length) ? base[k] : r[k]));
}

const shown = (v: unknown) => {
  const text = typeof v === "string" ? v : JSON.stringify(v ?? null);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
};

/**
 * What a model replaced out of band has now that the program's does not: the system prompt, the template, each
 * parameter, the messages and license the program set, as `/api/show` reads them; for a pulled model, its weights.
 */
async function changedOutOfBand(props: Bag, m: RunnerModelInfo): Promise<{ changes: string[]; now: Bag }> {
  let current: Bag;
  try {
    current = await madeOf(m);
  } catch {
    return { changes: ["what changed could not be read (the runner did not show the model)"], now: {} };
  }
  if (!current.from)
    return {
      changes: [`other weights (${m.details.parameter_size ?? "?"} ${m.details.quantization_level ?? ""})`.replace(" )", ")")],
      now: {},
    };
  const changes: string[] = [];
  const now: Bag = {};
  for (const k of ["system", "template", "license", "messages"]) {
    if (props[k] === undefined || canonical(props[k]) === canonical(current[k])) continue;
    changes.push(`${k === "system" ? "the system prompt" : k} ${shown(props[k])} → ${shown(current[k])}`);
    now[k] = current[k];
  }
  const was = (props.parameters ?? {}) as Bag;
  const is = (current.parameters ?? {}) as Bag;
  for (const p of [...new Set([...Object.keys(was), ...Object.keys(is)])].sort()) {
    if (canonical(was[p]) !== canonical(is[p])) changes.push(`parameter ${p} ${shown(was[p] ?? "(unset)")} → ${shown(is[p] ?? "(unset)")}`);
  }
  if (changes.some((c) => c.startsWith("parameter "))) now.parameters = current.parameters ?? {};
  return { changes, now };
}

/** The model's program fields (inputs, or state) and the facts the runner lists of it. */
function outputs(r: Bag & Pick<RunnerModelOutputs, "name" | "definitionHash" | "adopt">, m: RunnerModelInfo): RunnerModelOutputs {
  const { __provider: _, ...inputs } = r;
  return { ...inputs, ...modelFacts(m) };
}

export const runnerModel: Handler<RunnerModelInputs, RunnerModelOutputs> = {
  preview: previewModel,
  async check(_olds, news) {
    return checkWith(RunnerModelInputs, news);
  },
  async diff(_id, olds, news) {
    const wanted = withoutProvider(news);
    // `baker` and `baker:latest` are one model: a respelling replaced create-first would delete what it just kept.
    const replaces = changedKeys(["name"], olds, wanted, (_k, a, b) => canonicalModel(String(a)) === canonicalModel(String(b)));
    const changed = changedKeys(["definitionHash", "expectedDigest"], olds, wanted, (_k, a, b) => a === b);
    return { changes: replaces.length + changed.length > 0, replaces };
  },
  async create(r) {
    // Another stack's model, or one pulled by hand, is not silently made this stack's (its destroy would delete it).
    const there = !runner().pulledAsBase.has(canonicalModel(r.name)) && (await runner().find(r.name));
    if (there && !adoptingModel(r)) throw modelTaken(r.name, runner().url);
    const from = read(GENERAL_SETTINGS.adoptFromStack);
    if (there && r.adopt === true && from) throw modelTakeoverRefused(canonicalModel(r.name), from);
    // Taken over by the program's word (not a recovery run's, whose model is its own): it was there before, and
    // the runner cannot say whose it is, so destroy gives it back as it is, on the runner.
    const adopted = Boolean(there) && r.adopt === true;
    if (there) notice(`runner: ${r.name} is on the runner already; taken over${adopted ? " (destroy leaves it there)" : ""}`);
    const info = there && (await alreadyDefined(r, there)) ? there : await make(r);
    return { id: r.name, outs: { ...outputs(r, info), ...(adopted ? { adopted: true } : {}) } };
  },
  async read(id, props) {
    const m = await runner().find(id);
    if (!m) return {};
    const outs = outputs(props as RunnerModelOutputs, m);
    // No digest kept: a lookup or an import, which takes the model as it is — a custom one as what it is made of.
    if (props.digest === undefined) return { id, props: outs, inputs: await madeOf(m) };
    if (m.digest === props.digest) return { id, props: outs };
    // Replaced out of band: said field by field where the runner tells (a model made from a base), and those
    // fields kept as the runner has them, so the restoring preview (--diff) shows each one changing back. The
    // next up makes it again from the program's definition.
    const { changes, now } = await changedOutOfBand(props, m);
    warn(
      `runner: ${id} was replaced out of band (digest ${m.digest.slice(0, 12)}, expected ${String(props.digest).slice(0, 12)})${changes.length ? `: ${changes.join("; ")}` : ""}`,
    );
    return {
      id,
      props: { ...outs, ...now, definitionHash: "replaced-out-of-band" },
      inputs: { ...props, ...now, definitionHash: "replaced-out-of-band" },
    };
  },
  async update(_id, olds, news) {
    const r = withoutProvider(news);
    return { outs: { ...outputs(r, await make(r)), ...(olds.adopted ? { adopted: true } : {}) } };
  },
  async delete(id, props) {
    if (props.adopted) {
      log(
        `runner: ${id} was on the runner before this stack took it over, and may be another stack's: left there (remove it with ollama rm if nobody uses it)`,
      );
      return;
    }
    await runner().remove(id);
  },
};
