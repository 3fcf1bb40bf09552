#!/usr/bin/env bash
# Puts a real Ollama server in .tools/ollama/<version>/bin, and a tiny GGUF model in .tools/ollama, for the runner's
# tests against the server users run (test/helpers/ollama.ts). Usage: install-ollama.sh [version]; the default is the
# release users run today (CURRENT), and OLDEST is the oldest release the provider supports (provider/runner/version.ts
# says why). Both are built from the Go module github.com/ollama/ollama (no replace directives), once, and reused.
#
# Two build shapes, as Ollama itself has had them:
# - up to 0.2x: llama.cpp compiled into the Go binary by cgo (`go install`). The module zip lacks three of llama.cpp's
#   vendored single-file headers, so they come from registries: nlohmann/json from its PyPI repackaging
#   (nlohmann-json), miniaudio.h from the PyPI sdist of its Python bindings (miniaudio), stb_image.h from Debian's
#   libstb-dev, unpacked without installing.
# - 0.30 and later: the Go binary runs `llama-server` (inference) and `llama-quantize` (GGUF import) from
#   <prefix>/lib/ollama, built with CMake from the module's llama/server/CMakeLists.txt, which fetches llama.cpp at the
#   revision in LLAMA_CPP_VERSION and patches it (llama/compat). GitHub is out of reach here, so the source comes from
#   the PyPI sdist of llama-cpp-python, which vendors llama.cpp (LLAMA_CPP_PY below: the release whose llama.cpp is
#   nearest after Ollama's pin; Ollama's compat patch applies to it cleanly, which is Ollama's own test that a
#   llama.cpp revision fits its hooks). C++ objects go through ccache (Debian's package, unpacked) with its cache in
#   ${XDG_CACHE_HOME:-~/.cache}/ccache, outside the clone, as Go's build cache is: a fresh clone rebuilds in minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.tools/python" # install-python.sh: its pip fetches sources and headers, its `gguf` writes the tiny model
CURRENT=0.32.15
OLDEST=0.17.4
LLAMA_CPP_PY=0.3.35 # vendors ggml-org/llama.cpp@4df29be4f (2026-08-17); Ollama 0.32.15 pins b10488 (2026-08-18)
version=${1:-$CURRENT}
case $version in current) version=$CURRENT ;; oldest) version=$OLDEST ;; esac
tools="$root/.tools/ollama"
dir="$tools/$version"
bin="$dir/bin"
stamp="$dir/.built"
cache="${XDG_CACHE_HOME:-$HOME/.cache}"
say() { printf '[ollama %s] %s\n' "$version" "$*" >&2; }
# Test files start it in parallel, and clones share the build tree in the cache: one builds, the others wait.
mkdir -p "$tools" "$cache/pulumi-ops"
exec 9>"$cache/pulumi-ops/ollama.lock"
flock 9

# Debian packages unpacked (not installed) into a folder of ours: $1 folder, the rest package names.
debs() {
  local into=$1 work
  shift
  work=$(mktemp -d)
  (cd "$work" && { apt-get download "$@" >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get download "$@" >/dev/null 2>&1; }; }) \
    || { say "cannot fetch Debian's $* packages"; rm -rf "$work"; return 1; }
  for deb in "$work"/*.deb; do dpkg -x "$deb" "$into"; done
  rm -rf "$work"
}

# ccache: a compiler launcher that keeps objects across clones.
ccache_bin() {
  local at="$root/.tools/ccache"
  if [[ ! -x $at/ccache ]]; then
    mkdir -p "$at/root"
    debs "$at/root" ccache libhiredis0.14 || return 1
    printf '#!/usr/bin/env bash\nexport LD_LIBRARY_PATH="%s/root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"\nexec "%s/root/usr/bin/ccache" "$@"\n' "$at" "$at" >"$at/ccache"
    chmod +x "$at/ccache"
  fi
  "$at/ccache" --version >/dev/null 2>&1 && echo "$at/ccache"
}

build_cgo() { # up to 0.2x
  local work=$1 inc="$tools/include"
  mkdir -p "$inc"
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
    debs "$work/stb" libstb-dev || exit 1
    mkdir -p "$inc/stb" && cp "$work/stb/usr/include/stb/stb_image.h" "$inc/stb/"
  fi
  GOBIN="$bin" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -mod=mod" CGO_ENABLED=1 CGO_CPPFLAGS="-I$inc" \
    go install -ldflags "-s -w -X github.com/ollama/ollama/version.Version=$version" "github.com/ollama/ollama@v$version" 2>&1 | tail -n 20 >&2
}

build_llama_server() { # 0.30 and later: $1 the module's folder
  local module=$1 src="$cache/pulumi-ops/llama.cpp-py$LLAMA_CPP_PY" launcher=()
  command -v cmake >/dev/null || { say "no CMake to build llama-server: apt-get install cmake"; exit 1; }
  if [[ ! -f $src/.unpacked ]]; then
    local dl
    dl=$(mktemp -d)
    "$venv/bin/pip" download --quiet --disable-pip-version-check --no-deps --no-binary :all: "llama-cpp-python==$LLAMA_CPP_PY" -d "$dl" >&2
    rm -rf "$src" && mkdir -p "$src"
    tar xzf "$dl"/llama_cpp_python-*.tar.gz -C "$dl"
    cp -r "$dl"/llama_cpp_python-*/vendor/llama.cpp/. "$src/"
    rm -rf "$src/.git" # a submodule link into the sdist's absent repository: git apply must see a plain folder
    rm -rf "$dl"
    touch "$src/.unpacked"
  fi
  # A fixed source and build path outside the clone, so ccache's keys hold from one clone to the next.
  local tree="$cache/pulumi-ops/ollama-$version" build
  rm -rf "$tree" && mkdir -p "$tree"
  cp -r "$module/llama" "$module/LLAMA_CPP_VERSION" "$tree/" && chmod -R u+w "$tree"
  rm -rf "$tree/llama.cpp" && cp -r "$src" "$tree/llama.cpp"
  build="$tree/build"
  local cc
  if cc=$(ccache_bin); then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER="$cc" -DCMAKE_CXX_COMPILER_LAUNCHER="$cc")
    export CCACHE_DIR="$cache/ccache" CCACHE_BASEDIR="$tree" CCACHE_MAXSIZE=5G
  else
    say "ccache unavailable: building without a compiler cache"
  fi
  local gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  # Ollama's `cpu` preset, with one CPU backend (all variants would build the CPU code ten times) and the source given.
  cmake -S "$tree/llama/server" -B "$build" "${gen[@]}" "${launcher[@]}" -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=ON -DGGML_BACKEND_DL=ON -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DGGML_CPU_ALL_VARIANTS=OFF \
    -DOLLAMA_RUNNER_DIR= -DFETCHCONTENT_SOURCE_DIR_LLAMA_CPP="$tree/llama.cpp" -DCMAKE_INSTALL_PREFIX="$dir" \
    >"$tree/configure.log" 2>&1 || { tail -n 30 "$tree/configure.log" >&2; say "configuring llama-server failed"; exit 1; }
  cmake --build "$build" --target llama-server llama-quantize -j "$(nproc)" >"$tree/build.log" 2>&1 \
    || { grep -m 20 -B2 -A8 "error" "$tree/build.log" >&2 || tail -n 40 "$tree/build.log" >&2; say "building llama-server failed"; exit 1; }
  cmake --install "$build" --component llama-server --strip >/dev/null
  [[ -x $dir/lib/ollama/llama-server && -x $dir/lib/ollama/llama-quantize ]] || { say "llama-server was not installed"; exit 1; }
  [[ -n ${launcher[*]} ]] && say "compiler cache: $("$cc" --show-stats 2>/dev/null | grep -m1 -i 'hits' | tr -s ' ')"
  rm -rf "$tree" # the objects stay in ccache
}

[[ -x $venv/bin/gguf-dump ]] || bash "$root/scripts/install-python.sh"
# The layout before 0.10 of this project kept one build in .tools/ollama/bin: moved where its version goes.
if [[ -x $tools/bin/ollama && -f $tools/bin/.version && ! -e $tools/$(cat "$tools/bin/.version") ]]; then
  old=$(cat "$tools/bin/.version")
  mkdir -p "$tools/$old" && mv "$tools/bin" "$tools/$old/bin" && rm -f "$tools/$old/bin/.version" && date -u +%FT%TZ >"$tools/$old/.built"
fi
if [[ ! -x $bin/ollama || ! -f $stamp ]]; then
  command -v go >/dev/null || { say "no Go toolchain to build Ollama: install Go >= 1.26"; exit 1; }
  command -v g++ >/dev/null || { say "no C++ compiler to build Ollama's llama.cpp: apt-get install g++"; exit 1; }
  rm -rf "$dir" && mkdir -p "$bin"
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  module=$(cd "$work" && GOTOOLCHAIN=local GOFLAGS=-mod=mod go mod download -json "github.com/ollama/ollama@v$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [[ -d $module ]] || { say "the Go module proxy did not give github.com/ollama/ollama@v$version"; exit 1; }
  if [[ -f $module/llama/server/CMakeLists.txt ]]; then
    say "building Ollama $version and its llama-server from the Go module proxy and PyPI (first time: ~11 min on two cores; with a warm compiler cache, under a minute)"
    build_llama_server "$module"
    GOBIN="$bin" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -mod=mod" CGO_ENABLED=1 \
      go install -ldflags "-s -w -X github.com/ollama/ollama/version.Version=$version" "github.com/ollama/ollama@v$version" 2>&1 | tail -n 20 >&2
  else
    say "building Ollama $version from the Go module proxy (first time only: about five minutes on two cores)"
    build_cgo "$work"
  fi
  [[ -x $bin/ollama ]] || { say "the Ollama build failed"; exit 1; }
  date -u +%FT%TZ >"$stamp"
  say "ready: $bin/ollama"
fi
# The tiny model: made by scripts/make-tiny-gguf.py with the `gguf` package in the project's Python environment.
if [[ ! -f $tools/tiny.gguf || $root/scripts/make-tiny-gguf.py -nt $tools/tiny.gguf ]]; then
  "$venv/bin/python" "$root/scripts/make-tiny-gguf.py" "$tools/tiny.gguf.tmp" && mv "$tools/tiny.gguf.tmp" "$tools/tiny.gguf"
fi
