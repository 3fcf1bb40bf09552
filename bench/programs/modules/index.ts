import * as pulumi from "@pulumi/pulumi";
import * as ops from "pulumi-ops";

const config = new pulumi.Config();
const kind = config.require("kind");
const count = config.requireNumber("count");
/** Resources whose index is a multiple of 10 carry this: raising it updates 10% of them in place. */
const generation = config.getNumber("generation") ?? 0;

for (let i = 0; i < count; i++) {
  const gen = i % 10 === 0 ? generation : 0;
  switch (kind) {
    case "pagePost": // drafts, so the service's schedule window plays no part
      new ops.pages.PagePost(`p${i}`, { pageId: "200000000000001", message: `Bench post ${i}, edition ${gen}`, published: false });
      break;
    case "skill":
      new ops.skills.Skill(`s${i}`, {
        slug: `bench-skill-${i}`,
        name: `bench-skill-${i}`,
        source: "SKILL.md",
        category: "ops",
        version: `1.0.${gen}`,
      });
      break;
    case "model": // created from one base the provider pulls once
      new ops.runner.RunnerModel(`m${i}`, {
        name: `bench-${i}`,
        from: "qwen2.5:0.5b",
        system: `You are bench model ${i}, edition ${gen}.`,
      });
      break;
    case "command":
      new ops.control.RemoteCommand(`c${i}`, {
        create: `mkdir -p /tmp/bench && echo "$EDITION" > /tmp/bench/${i}`,
        delete: `rm -f /tmp/bench/${i}`,
        environment: { EDITION: String(gen) },
      });
      break;
    default:
      throw new Error(`bench-modules:kind must be pagePost, skill, model or command, not ${kind}`);
  }
}
