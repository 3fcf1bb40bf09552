#!/usr/bin/env node
/**
 * `pulumi-ops`, the package's command (`npx pulumi-ops <command>`):
 *   emulators   run the services' emulators on loopback until Ctrl-C (for trying a program without accounts)
 *   import      write a program that takes over what exists (see import.ts)
 *   migrate     write a program that takes over what a Terraform state or pulumi-cloudflare stack holds (migrate.ts)
 * Nothing here is loaded by the provider: a provider process starts without it.
 */
import { nodeProblem } from "../node-version";

const USAGE = `usage: pulumi-ops <command> [--help]
  emulators                    run the services' emulators on loopback until Ctrl-C (pulumi-ops emulators --help:
                               the port of each and the other settings)
  import [options] <dir>       write a program that takes over what exists (pulumi-ops import --help)
  migrate <state.json>         write a program that takes over what a Terraform state or a pulumi-cloudflare stack
                               holds, with zero writes (pulumi-ops migrate --help)
  help, --help, -h             this text`;

async function main(argv: string[]): Promise<number> {
  const problem = nodeProblem();
  if (problem) {
    console.error(problem);
    return 1;
  }
  const [command, ...rest] = argv;
  switch (command) {
    case "emulators": {
      const started = await (await import("../../emulators/main")).runEmulators(rest);
      return started === true ? -1 : started; // started: it keeps running until a signal
    }
    case "import":
      return (await import("./import")).importCommand(rest);
    case "migrate":
      return (await import("./migrate")).migrateCommand(rest);
    case undefined:
    case "help":
    case "--help":
    case "-h":
      console.log(USAGE);
      return command ? 0 : 2;
    default:
      console.error(`pulumi-ops: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (e: Error) => {
    console.error(`pulumi-ops: ${e.message}`);
    process.exitCode = 1;
  },
);
