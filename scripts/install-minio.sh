#!/usr/bin/env bash
# Puts a real MinIO server in .tools/minio/bin, for the tests that keep Pulumi state in an S3-compatible store
# (a team's state lives in object storage, not on a laptop). MinIO publishes its server as the Go module
# github.com/minio/minio (no replace directives, so `go install module@version` builds it as its release does);
# the pinned version below is built once from the Go module proxy and reused on later runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=v0.0.0-20260212201848-7aac2a2c5b7c # the last commit the module proxy serves (MinIO stopped tagging releases as Go versions)
bin="$root/.tools/minio/bin"
stamp="$bin/.version"
say() { printf '[minio] %s\n' "$*" >&2; }

if [[ -x $bin/minio && -f $stamp && $(cat "$stamp") == "$version" ]]; then exit 0; fi
if ambient=$(command -v minio 2>/dev/null); then
  say "using the MinIO server on PATH: $ambient"
  mkdir -p "$bin" && ln -sf "$ambient" "$bin/minio" && echo "$version" >"$stamp"
  exit 0
fi
command -v go >/dev/null || { say "no Go toolchain to build MinIO: install Go >= 1.24 or put a minio server on PATH"; exit 1; }

say "building MinIO $version from the Go module proxy (first time only: several minutes on two cores)"
mkdir -p "$bin"
GOBIN="$bin" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -mod=mod" CGO_ENABLED=0 \
  go install -ldflags "-s -w" "github.com/minio/minio@$version" 2>&1 | tail -n 20 >&2
[[ -x $bin/minio ]] || { say "the MinIO build failed"; exit 1; }
echo "$version" >"$stamp"
say "ready: $bin/minio"
