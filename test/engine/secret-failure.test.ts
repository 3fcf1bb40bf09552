/**
 * No secret in any output (issue 44): a RemoteCommand whose create fails after printing a secret — its command built
 * from a secret config value with `pulumi.interpolate`, or written with `secret: true` — through the real CLI on both
 * doors (the TypeScript class, and the schema token served by the plugin). Every line the CLI prints, on stdout and
 * stderr, is searched for the secret: the failure says the command failed and where to read its output, and nothing
 * of the output itself.
 */
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ControlEmulator } from "../../emulators";
import { engineStack, ROOT } from "../../scripts/engine";
import { withoutEnvFallback, type EngineStack } from "../helpers/engine";

const PROGRAM = path.join(ROOT, "test/programs/secret-failure");
const SECRETS = /hunter2/;
let control: ControlEmulator;
const engines: EngineStack[] = [];

beforeAll(async () => {
  withoutEnvFallback();
  control = await new ControlEmulator().start();
}, 60_000);

afterAll(async () => {
  for (const e of engines) await e.dispose();
  await control?.stop();
});

describe("a failing command built from a secret prints no secret", { timeout: 300_000 }, () => {
  for (const door of ["dynamic", "plugin"]) {
    for (const mode of ["interpolate", "flag"]) {
      it(`${door} door, ${mode === "flag" ? "secret: true" : "pulumi.interpolate of a secret"}`, async () => {
        const engine = await engineStack(
          PROGRAM,
          {
            "ops:controlUrl": { value: control.url },
            "secret-failure:door": { value: door },
            "secret-failure:mode": { value: mode },
            "secret-failure:pw": { value: "hunter2-secret", secret: true },
          },
          `${door}-${mode}`,
          { PULUMI_OPS_QUIET: "0" },
        );
        engines.push(engine);
        let printed = "";
        const failed = await engine.stack.up({ onOutput: (o) => (printed += o), onError: (o) => (printed += o) }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(failed, printed).toBeDefined();
        printed += String(failed); // the Automation API's error carries the CLI's stderr
        // The command ran (the host saw the secret) and failed: said, without its output.
        expect(control.calls.some((c) => JSON.stringify(c.args).includes("hunter2"))).toBe(true);
        expect(printed).toMatch(/the create command failed \(exit 3\): its output is not shown, as the command is secret/);
        expect(printed).not.toMatch(SECRETS);
        control.calls.splice(0);
      });
    }
  }
});
