#!/usr/bin/env bash
# actionlint (a Go module) for the test that lints examples/ci/github/pulumi.yml. Built once into .tools/bin.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=v1.7.12
bin="$root/.tools/bin/actionlint"
[[ -x $bin && $("$bin" -version 2>/dev/null | head -n1) == "$version" ]] && exit 0
echo "[actionlint] building $version from the Go module proxy" >&2
GOBIN="$root/.tools/bin" GOTOOLCHAIN=local go install "github.com/rhysd/actionlint/cmd/actionlint@$version" >&2
