#!/usr/bin/env bash
# Regenerates everything generated from the zod schemas (`npm run gen`): schema.json, the reference docs and the
# README's settings table, the TypeScript SDK (types, functions, resource classes, module indexes, the serialized
# provider modules), and the Python and Go SDKs (with the Pulumi code generator of the CLI's release, built by
# scripts/install-python.sh). The staleness tests (test/unit/schema,
# docs, go-sdk, reference-examples-python) fail naming this command when one is out of date.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
PULUMI_OPS_GENERATING=1 bash scripts/setup.sh
node dist/scripts/gen-schema.js
node dist/scripts/gen-sdk.js   # before the docs: the reference takes each class's prose from its generated file
node dist/scripts/gen-docs.js
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
.tools/pulumi/bin/pulumi-ops-sdkgen schema.json "$tmp/python" >/dev/null
.tools/pulumi/bin/pulumi-ops-sdkgen --language go schema.json "$tmp/go" >/dev/null
# The generated packages whole: a type removed leaves no module behind (nor a setup.py, which pyproject.toml replaced).
rm -rf sdk/python/pulumi_ops sdk/python/setup.py sdk/go/ops
cp -r "$tmp/python/." sdk/python/
cp -r "$tmp/go/." sdk/go/
node_modules/.bin/tsc -p tsconfig.json # everything compiles with what was generated
echo "[gen] schema.json, the TypeScript SDK and provider/providers, docs/reference, README's settings, sdk/python, sdk/go" >&2
