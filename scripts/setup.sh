#!/usr/bin/env bash
# The one bootstrap every npm script runs first, so `npm run demo` and `npm test` work on a fresh clone:
# installs the npm dependencies (Node 22 among them), builds the TypeScript, links the package so example programs
# resolve `pulumi-ops`, and provides the Pulumi engine (with the Python host and environment of the Python test).
# `setup.sh demo` (the demo and the standalone emulators) leaves out the Python and YAML language hosts and the
# Python environments: the demo runs a TypeScript program, and building them took a fresh clone minutes.
# `setup.sh release` (npm run release) builds the TypeScript and the release tools (scripts/install-release.sh) only.
# `setup.sh test` (npm test) builds the two Ollama releases of the runner's tests too.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
stamp=node_modules/.pulumi-ops-installed
if [[ ! -f $stamp || package-lock.json -nt $stamp || package.json -nt $stamp ]]; then
  echo "[setup] npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
  touch "$stamp"
fi
export PATH="$root/node_modules/.bin:$PATH"  # Node 22 from the `node` package, ahead of the machine's node
ln -sfn .. node_modules/pulumi-ops            # example programs and the dynamic provider require("pulumi-ops")
# `npm run gen` compiles before it regenerates: a generated file a change made stale (a type removed) may not compile
# then, and the generators do not need it; gen.sh compiles again, strictly, once everything is regenerated.
tsc -p tsconfig.json >&2 || [[ -n ${PULUMI_OPS_GENERATING:-} ]]
# The provider plugin (provider/plugin.ts) as the engine finds it on PATH, as `npm install` links it for users.
chmod +x dist/provider/plugin.js
ln -sfn ../../dist/provider/plugin.js node_modules/.bin/pulumi-resource-ops
if [[ ${1:-} == release ]]; then
  bash scripts/install-release.sh
  exit 0
fi
bash scripts/install-pulumi.sh
if [[ ${1:-} == demo ]]; then
  echo "[setup] the demo needs no Python or YAML language host: not built" >&2
  exit 0
fi
bash scripts/install-python.sh
bash scripts/install-yaml.sh
bash scripts/install-go-host.sh # the Go host of the Go program test/engine/release.test.ts runs
bash scripts/install-java.sh    # the Java host: sdk/java's generator, and the Java program of the same test
bash scripts/install-release.sh # the release's tools: test/engine/release.test.ts makes one
# `setup.sh test` (npm test): the two Ollama releases the runner's tests hold the provider to, built before the tests
# run rather than inside a test's hook, where on a fresh machine the 10-minute build beside the running suite went
# past the hook's 15 minutes. Cached under .tools (and the compiler's cache): nothing to do the next time.
if [[ ${1:-} == test ]]; then
  bash scripts/install-ollama.sh current
  bash scripts/install-ollama.sh oldest
fi
