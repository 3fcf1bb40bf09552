#!/usr/bin/env bash
# Puts a real Ollama server in .tools/ollama/bin, and a tiny GGUF model beside it, for the runner's tests against the
# server users run (test/helpers/ollama.ts). Ollama publishes its server as the Go module github.com/ollama/ollama
# (no replace directives); `go install module@version` builds it with llama.cpp compiled in by cgo. The module zip
# lacks three of llama.cpp's vendored single-file headers, so they come from registries here: nlohmann/json from its
# PyPI repackaging (nlohmann-json), miniaudio.h from the PyPI sdist of its Python bindings (miniaudio), stb_image.h
# (image input only) from Debian's libstb-dev, unpacked without installing. Built once, reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.tools/python" # install-python.sh: its pip fetches the headers, its `gguf` writes the tiny model
version=0.17.4
dir="$root/.tools/ollama"
bin="$dir/bin"
stamp="$bin/.version"
say() { printf '[ollama] %s\n' "$*" >&2; }
# Test files start it in parallel: one builds, the others wait for it.
mkdir -p "$dir"
exec 9>"$dir/.lock"
flock 9

[[ -x $venv/bin/gguf-dump ]] || bash "$root/scripts/install-python.sh"
if [[ ! -x $bin/ollama || ! -f $stamp || $(cat "$stamp") != "$version" ]]; then
  command -v go >/dev/null || { say "no Go toolchain to build Ollama: install Go >= 1.24"; exit 1; }
  command -v g++ >/dev/null || { say "no C++ compiler to build Ollama's llama.cpp: apt-get install g++"; exit 1; }
  say "building Ollama $version from the Go module proxy (first time only: about five minutes on two cores)"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  inc="$dir/include"
  mkdir -p "$inc" "$bin"
  if [[ ! -f $inc/nlohmann/json.hpp ]]; then
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps "nlohmann-json==3.12.0" -d "$work" >&2
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$work"/nlohmann_json-*.whl "$work/nj"
    cp -r "$work/nj/nlohmann_json/include/nlohmann" "$inc/"
  fi
  if [[ ! -f $inc/miniaudio/miniaudio.h ]]; then
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: "miniaudio==1.71" -d "$work" >&2
    tar xzf "$work"/miniaudio-1.71.tar.gz -C "$work"
    mkdir -p "$inc/miniaudio" && cp "$work/miniaudio-1.71/miniaudio/miniaudio.h" "$inc/miniaudio/"
  fi
  if [[ ! -f $inc/stb/stb_image.h ]]; then
    (cd "$work" && { apt-get download libstb-dev >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get download libstb-dev >/dev/null 2>&1; }; }) \
      || { say "cannot fetch Debian's libstb-dev (stb_image.h)"; exit 1; }
    dpkg -x "$work"/libstb-dev_*.deb "$work/stb"
    mkdir -p "$inc/stb" && cp "$work/stb/usr/include/stb/stb_image.h" "$inc/stb/"
  fi
  GOBIN="$bin" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -mod=mod" CGO_ENABLED=1 CGO_CPPFLAGS="-I$inc" \
    go install -ldflags "-s -w -X github.com/ollama/ollama/version.Version=$version" "github.com/ollama/ollama@v$version" 2>&1 | tail -n 20 >&2
  [[ -x $bin/ollama ]] || { say "the Ollama build failed"; exit 1; }
  echo "$version" >"$stamp"
  say "ready: $bin/ollama"
fi

# The tiny model: made by scripts/make-tiny-gguf.py with the `gguf` package in the project's Python environment.
if [[ ! -f $dir/tiny.gguf || $root/scripts/make-tiny-gguf.py -nt $dir/tiny.gguf ]]; then
  "$venv/bin/python" "$root/scripts/make-tiny-gguf.py" "$dir/tiny.gguf.tmp" && mv "$dir/tiny.gguf.tmp" "$dir/tiny.gguf"
fi
