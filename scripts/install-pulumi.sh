#!/usr/bin/env bash
# Puts a real Pulumi engine in .tools/pulumi/bin: the `pulumi` CLI, the Node language host and the dynamic
# provider plugin. Uses a `pulumi` already on PATH when it is at least the pinned version; otherwise builds the
# pinned release from the Go module proxy (the npm `pulumi` launcher downloads binaries at run time, which is
# impossible on machines that reach only package registries). Built once, reused on later runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/pulumi/bin"
pinned=$(node -p "require('$root/node_modules/@pulumi/pulumi/package.json').version")
say() { printf '[pulumi-engine] %s\n' "$*" >&2; }

version_ok() { # $1: a `pulumi version` output such as v3.259.0
  local have=${1#v}
  [[ -n $have ]] && [[ $(printf '%s\n%s\n' "$pinned" "$have" | sort -V | head -n1) == "$pinned" ]]
}

place_dynamic_plugin() { # the dynamic provider plugin is a script shipped inside @pulumi/pulumi
  install -m 0755 "$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs" "$bin/pulumi-resource-pulumi-nodejs"
}

mkdir -p "$bin"
if [[ -x $bin/pulumi && -x $bin/pulumi-language-nodejs ]] && version_ok "$("$bin/pulumi" version 2>/dev/null)"; then
  place_dynamic_plugin
  exit 0
fi

if ambient=$(command -v pulumi 2>/dev/null) && [[ $ambient != "$bin/pulumi" ]] && version_ok "$(pulumi version 2>/dev/null)" \
   && command -v pulumi-language-nodejs >/dev/null; then
  say "using the Pulumi CLI on PATH: $ambient ($(pulumi version))"
  ln -sf "$ambient" "$bin/pulumi"
  ln -sf "$(command -v pulumi-language-nodejs)" "$bin/pulumi-language-nodejs"
  place_dynamic_plugin
  exit 0
fi

if ! command -v go >/dev/null; then
  say "no Pulumi CLI >= v$pinned on PATH and no Go toolchain to build one."
  say "Install Pulumi v$pinned (https://www.pulumi.com/docs/install/) or Go >= 1.25, then run this again."
  exit 1
fi

export GOFLAGS="${GOFLAGS:-} -mod=mod" GOTOOLCHAIN=local
ldflag() { echo "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$1"; }

if [[ ! -x $bin/pulumi ]] || ! version_ok "$("$bin/pulumi" version 2>/dev/null)"; then
  say "building the Pulumi CLI v$pinned from the Go module proxy (first time only: several minutes on two cores)"
  grep -q "pulumi/pkg/v3 v$pinned\$" "$root/tools/pulumi-cli/go.mod" || {
    say "tools/pulumi-cli/go.mod does not pin pkg/v3 v$pinned (the @pulumi/pulumi version): update both together"; exit 1; }
  (cd "$root/tools/pulumi-cli" && go build -v -o "$bin/pulumi" -ldflags "$(ldflag "$pinned")" \
     github.com/pulumi/pulumi/pkg/v3/cmd/pulumi 2>&1 | awk '{ n++; if (n % 100 == 0) printf "[pulumi-engine] ... %d packages compiled\n", n > "/dev/stderr" }')
  [[ -x $bin/pulumi ]] || { say "the CLI build failed"; exit 1; }
fi

if [[ ! -x $bin/pulumi-language-nodejs ]]; then
  # The current Node language host is its own module (sdk/nodejs/cmd/pulumi-language-nodejs/v3) with no release
  # tags; try the pseudo-version of the commit the pinned pkg/v3 tag points to, as the release itself is built.
  info=$(cd "$root/tools/pulumi-cli" && go list -m -json "github.com/pulumi/pulumi/pkg/v3@v$pinned" 2>/dev/null || true)
  hash=$(sed -n 's/.*"Hash": "\([0-9a-f]*\)".*/\1/p' <<<"$info")
  time=$(sed -n 's/.*"Time": "\([^"]*\)".*/\1/p' <<<"$info" | head -n1)
  built=""
  if [[ -n $hash && -n $time ]]; then
    pseudo="v3.0.0-$(date -u -d "$time" +%Y%m%d%H%M%S)-${hash:0:12}"
    scratch=$(mktemp -d)
    say "building the Node language host $pseudo (matching v$pinned)"
    if (cd "$scratch" && go mod init langhost >/dev/null 2>&1 \
        && go get "github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3@$pseudo" \
        && go build -o "$bin/pulumi-language-nodejs" -ldflags "$(ldflag "$pinned")" \
             github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3) 2>"$scratch/log"; then
      built=yes
    else
      say "the module proxy did not serve it: $(grep -m1 -E 'Forbidden|not available|error' "$scratch/log" || tail -n1 "$scratch/log")"
    fi
    rm -rf "$scratch"
  fi
  if [[ -z $built ]]; then
    # Fallback: the last Node language host published inside the sdk/v3 module. It is a thin gRPC shim that starts
    # `node` on the program with @pulumi/pulumi's own `cmd/run`; the engine and the Node SDK stay at the pinned
    # release. The engine tests exercise this combination end to end.
    say "building the Node language host from sdk/v3 v3.68.0 (the last release that bundled it)"
    (cd "$root/tools/pulumi-langhost" && go build -o "$bin/pulumi-language-nodejs" -ldflags "$(ldflag 3.68.0)" \
       github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs)
  fi
fi

place_dynamic_plugin
say "ready: $("$bin/pulumi" version) in $bin"
