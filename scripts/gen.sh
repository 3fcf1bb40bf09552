#!/usr/bin/env bash
# Regenerates everything generated from the zod schemas (`npm run gen`): schema.json, the reference docs and the
# README's settings table, the TypeScript SDK (types, functions, resource classes, module indexes, the serialized
# provider modules), the Python and Go SDKs (with the Pulumi code generator of the CLI's release, built by
# scripts/install-python.sh) and the Java SDK (Pulumi's Java host, scripts/install-java.sh). The staleness tests (test/unit/schema,
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
# Java: Pulumi's own route (the Java host's GeneratePackage); --local writes the sources without a Gradle build.
# Its one kind of warning (secret config properties have no Output type in Java) is dropped; anything else is shown.
PATH="$root/.tools/pulumi/bin:$PATH" pulumi package gen-sdk schema.json --language java --local --out "$tmp" 2>&1 >/dev/null |
  { grep -Ev '^(WARN: secret property .* \(property of config\) does not have an Output type|SDK has been written to .*|\s*)$' || true; } >&2
version=$(node -p 'require("./package.json").version')
description=$(node -p 'require("./schema.json").description')
sed -e "s|@VERSION@|$version|" -e "s|@DESCRIPTION@|$description|" tools/pulumi-java/pom.xml.in >"$tmp/java/pom.xml"
# The generated packages whole: a type removed leaves no module behind (nor a setup.py, which pyproject.toml replaced).
rm -rf sdk/python/pulumi_ops sdk/python/setup.py sdk/go/ops sdk/java
cp -r "$tmp/python/." sdk/python/
cp -r "$tmp/go/." sdk/go/
cp -r "$tmp/java" sdk/java
node_modules/.bin/tsc -p tsconfig.json # everything compiles with what was generated
echo "[gen] schema.json, the TypeScript SDK and provider/providers, docs/reference, README's settings, sdk/python, sdk/go, sdk/java" >&2
