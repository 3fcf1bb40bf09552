#!/usr/bin/env bash
# The Go language host, for the engine test that runs a Go program installed from a release folder
# (test/engine/release.test.ts). Today's host is a module of its own (sdk/go/pulumi-language-go/v3) that the Go
# module proxy does not serve; sdk/v3 v3.66.0 is the last release that bundled one (tools/pulumi-langhost-go). It
# builds the program with the machine's `go` and starts it; the program's SDK (sdk/go needs sdk/v3 v3.259.0) and
# the engine are today's. Built once into .tools/pulumi/bin, reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/pulumi/bin"
if [[ -x $bin/pulumi-language-go && $bin/pulumi-language-go -nt $root/tools/pulumi-langhost-go/go.mod ]]; then
  exit 0
fi
command -v go >/dev/null || { echo "[pulumi-go] no Go toolchain on PATH: install Go >= 1.25 (https://go.dev/dl/)" >&2; exit 1; }
echo "[pulumi-go] building the Go language host from sdk/v3 v3.66.0" >&2
mkdir -p "$bin"
(cd "$root/tools/pulumi-langhost-go" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go build -o "$bin/pulumi-language-go" \
  -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.66.0" github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go)
