#!/usr/bin/env bash
# The Pulumi YAML language host (pulumi-language-yaml) in .tools/pulumi/bin, built from the Go module proxy:
# github.com/pulumi/pulumi-yaml v1.25.0, pinned in tools/pulumi-yaml/go.mod (about two minutes the first time on two
# cores). The engine finds it beside the CLI, as a YAML program's `runtime: yaml` needs. Built once, reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/pulumi/bin"
say() { printf '[pulumi-yaml] %s\n' "$*" >&2; }
export GOFLAGS="${GOFLAGS:-} -mod=mod" GOTOOLCHAIN=local
if [[ ! -x $bin/pulumi-language-yaml || $root/tools/pulumi-yaml/go.mod -nt $bin/pulumi-language-yaml ]]; then
  say "building the YAML language host (github.com/pulumi/pulumi-yaml $(grep -o 'pulumi-yaml v[0-9.]*' "$root/tools/pulumi-yaml/go.mod" | cut -d' ' -f2))"
  (cd "$root/tools/pulumi-yaml" && go build -o "$bin/pulumi-language-yaml" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml)
fi
