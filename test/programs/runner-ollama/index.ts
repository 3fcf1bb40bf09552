import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();

// The base: a GGUF file on this machine, uploaded to the runner as a blob.
const tiny = new ops.runner.RunnerModel("tiny", { name: "tiny", from: config.require("gguf") });
// A chat model from a definition file (a Modelfile), on that base.
const chat = new ops.runner.RunnerModel("chat", { name: "bakery/chat", definitionFile: "chat.model" }, { dependsOn: tiny });
// The same kind of model inline: `stop` given as one text is still a list for the runner.
const terse = new ops.runner.RunnerModel("terse", {
  name: "terse",
  from: tiny.name,
  system: config.get("terseSystem") ?? "Be terse.",
  parameters: { stop: "User:", temperature: 0.1 },
  messages: [
    { role: "user", content: "Hi" },
    { role: "assistant", content: "Hello." },
  ],
});

// Quantized on the way in (the create request's `quantize`): the F16 file kept as Q8_0.
const compact = new ops.runner.RunnerModel("compact", { name: "compact", from: config.require("gguf"), quantize: "q8_0" });

export const models = [tiny.name, chat.name, terse.name, compact.name];
export const compactLevel = compact.quantizationLevel;
export const chatStop = chat.parameters.apply((p) => p?.stop);

// A plain model as another's draft (issue 57): refused at preview, as the runner would make it and fail to load it.
const draft = config.get("draft");
if (draft) new ops.runner.RunnerModel("speedy", { name: "speedy", from: config.require("gguf"), draft });
