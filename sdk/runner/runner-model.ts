import * as pulumi from "@pulumi/pulumi";
import provider from "../../provider/providers/runner-RunnerModel";
import { outputSlots, secretsSlot, ownerSlot, refuseImport, CheckedResource } from "../types";
import { runnerModelOutputNames, type RunnerModelArgs, type RunnerModelOutputs as Out } from "./types";

export type { RunnerModelArgs };

/**
 * A model on the runner, Ollama (ops:runnerHost, RUNNER_HOST or OLLAMA_HOST; default 127.0.0.1:11434): pulled by
 * `name`, or created — `from` a base model, or from a GGUF file or model folder on this machine (uploaded as blobs)
 * — with `system`, `template`, `messages`, `license`, `adapter`, `requires` and `parameters` (Ollama's own options;
 * `stop` a list), or from a `definitionFile` (a Modelfile, read as Ollama reads it and checked at preview). Pull
 * progress is printed; a definition change re-creates the model in place; a model the runner already has is taken
 * over only with `adopt: true` (and then left on the runner by destroy); destroy removes the rest, confirmed by the
 * model list.
 *
 *     const base = new ops.runner.RunnerModel("base", { name: "qwen2.5:0.5b" });
 *     new ops.runner.RunnerModel("baker", {
 *       name: "baker",
 *       from: base.name,
 *       system: "You are the bakery's assistant. Answer briefly.",
 *       parameters: { temperature: 0.2 },
 *     });
 */
export class RunnerModel extends CheckedResource {
  declare readonly name: pulumi.Output<Out["name"]>;
  declare readonly from: pulumi.Output<Out["from"]>;
  declare readonly adapter: pulumi.Output<Out["adapter"]>;
  declare readonly draft: pulumi.Output<Out["draft"]>;
  declare readonly expectedDigest: pulumi.Output<Out["expectedDigest"]>;
  declare readonly quantize: pulumi.Output<Out["quantize"]>;
  declare readonly draftQuantize: pulumi.Output<Out["draftQuantize"]>;
  declare readonly template: pulumi.Output<Out["template"]>;
  declare readonly system: pulumi.Output<Out["system"]>;
  declare readonly license: pulumi.Output<Out["license"]>;
  declare readonly messages: pulumi.Output<Out["messages"]>;
  declare readonly requires: pulumi.Output<Out["requires"]>;
  declare readonly renderer: pulumi.Output<Out["renderer"]>;
  declare readonly parser: pulumi.Output<Out["parser"]>;
  declare readonly parameters: pulumi.Output<Out["parameters"]>;
  declare readonly definitionFile: pulumi.Output<Out["definitionFile"]>;
  declare readonly definitionHash: pulumi.Output<Out["definitionHash"]>;
  declare readonly adopt: pulumi.Output<Out["adopt"]>;
  declare readonly digest: pulumi.Output<Out["digest"]>;
  declare readonly size: pulumi.Output<Out["size"]>;
  declare readonly family: pulumi.Output<Out["family"]>;
  declare readonly parameterSize: pulumi.Output<Out["parameterSize"]>;
  declare readonly quantizationLevel: pulumi.Output<Out["quantizationLevel"]>;
  declare readonly modifiedAt: pulumi.Output<Out["modifiedAt"]>;
  declare readonly adopted: pulumi.Output<Out["adopted"]>;
  /** The named account (`ops:accounts`) that serves it; unset, the stack's own. */
  declare readonly account: pulumi.Output<Out["account"]>;

  constructor(name: string, args: RunnerModelArgs, opts?: pulumi.CustomResourceOptions) {
    refuseImport("runner.RunnerModel", name, opts, false);
    super(
      provider,
      name,
      { ...outputSlots(runnerModelOutputNames), ...args, ...ownerSlot(name, opts), ...secretsSlot(args, opts) },
      opts,
      "runner",
      "RunnerModel",
    );
  }

  /** Reads an existing object without managing it. `id` is `<name:tag>`. */
  static get(
    name: string,
    id: pulumi.Input<string>,
    state?: { account?: pulumi.Input<string> },
    opts?: pulumi.CustomResourceOptions,
  ): RunnerModel {
    return new RunnerModel(name, { ...state } as RunnerModelArgs, { ...opts, id });
  }
}
