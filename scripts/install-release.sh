#!/usr/bin/env bash
# What `npm run release` needs beside Node (scripts/release.ts), in .tools/: the Go module writer
# (tools/pulumi-cli/gomodule, golang.org/x/mod/zip) and a Python environment that builds the sdist and the wheel
# with pinned tools, so a release made again gives the same bytes. setuptools 76.1: the newest that reads the
# generated pyproject.toml (a license table, a license classifier) without a deprecation warning; 77 implements
# PEP 639, which prefers an SPDX expression that Pulumi's generator does not write yet. Built once, reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/pulumi/bin"
venv="$root/.tools/release-python"
say() { printf '[release-tools] %s\n' "$*" >&2; }
export GOFLAGS="${GOFLAGS:-} -mod=mod" GOTOOLCHAIN=local

mkdir -p "$bin"
if [[ ! -x $bin/pulumi-ops-gomodule || $root/tools/pulumi-cli/gomodule/main.go -nt $bin/pulumi-ops-gomodule ]]; then
  command -v go >/dev/null || { say "no Go toolchain on PATH: install Go >= 1.25 (https://go.dev/dl/)"; exit 1; }
  say "building the Go module writer"
  (cd "$root/tools/pulumi-cli" && go build -o "$bin/pulumi-ops-gomodule" ./gomodule)
fi
pins=("build==1.6.1" "setuptools==76.1.0")
if [[ ! -f $venv/.pins || $(cat "$venv/.pins") != "${pins[*]}" ]]; then
  command -v python3 >/dev/null || { say "no python3 on PATH: install Python 3.9 or later"; exit 1; }
  say "creating $venv with ${pins[*]}"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${pins[@]}" >&2
  echo "${pins[*]}" >"$venv/.pins"
fi
