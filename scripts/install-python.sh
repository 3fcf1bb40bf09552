#!/usr/bin/env bash
# What a Python program of pulumi-ops needs, in .tools/: the Python language host and its executor, the SDK
# generator (tools/pulumi-cli/sdkgen), and a virtual environment with the pulumi SDK at the CLI's version and the
# generated SDK's dependencies. The language host is the last one the Go module proxy serves (sdk/v3 v3.68.0, like
# the Node host's fallback), behind a shim that hands it Pulumi.yaml's `virtualenv` option: it starts the
# environment's `python` on the program (or the active one's). Built once, reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/pulumi/bin"
venv="$root/.tools/python"
pinned=$(node -p "require('$root/node_modules/@pulumi/pulumi/package.json').version")
say() { printf '[pulumi-python] %s\n' "$*" >&2; }
export GOFLAGS="${GOFLAGS:-} -mod=mod" GOTOOLCHAIN=local

if [[ ! -x $bin/pulumi-language-python-v3.68.0 || ! -x $bin/pulumi-language-python-exec ]] || ! grep -q SIG_DFL "$bin/pulumi-language-python-exec"; then
  say "building the Python language host from sdk/v3 v3.68.0"
  rm -f "$bin/pulumi-language-python" # a tree from before the shim had the host itself under this name
  (cd "$root/tools/pulumi-langhost" \
    && go build -o "$bin/pulumi-language-python-v3.68.0" -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.68.0" \
         github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python \
    && install -m 0755 "$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)/python/cmd/pulumi-language-python-exec" "$bin/")
  # The engine ends a language host with SIGINT to its process group, and SIGKILL 5 s later (pkg/v3
  # resource/plugin/plugin.go); this host starts the program in that group and implements no Cancel, so after a
  # failed check the program raised KeyboardInterrupt (a 14-line traceback under the stack), then hung joining the
  # thread that waits on the refused registration until the SIGKILL. Dying at once on SIGINT, as a Node program
  # does, leaves the one-line failure and no wait. (A user's Ctrl-C reaches the engine, not the program's group.)
  sed -i '0,/^import sys$/s//import sys\nimport signal\nsignal.signal(signal.SIGINT, signal.SIG_DFL)  # pulumi-ops: die on the engine'"'"'s SIGINT (scripts\/install-python.sh)/' "$bin/pulumi-language-python-exec"
  grep -q SIG_DFL "$bin/pulumi-language-python-exec" || { say "could not set the Python executor's SIGINT handling"; exit 1; }
fi
# What the engine starts as the Python host: it hands the v3.68.0 host Pulumi.yaml's runtime options (virtualenv),
# which that host reads only as flags the engine no longer passes (tools/pulumi-langhost/python-options).
if [[ ! -x $bin/pulumi-language-python || $root/tools/pulumi-langhost/python-options/main.go -nt $bin/pulumi-language-python ]]; then
  say "building the Python host's options shim"
  (cd "$root/tools/pulumi-langhost" && go build -o "$bin/pulumi-language-python" ./python-options)
fi

if [[ ! -x $bin/pulumi-ops-sdkgen || $root/tools/pulumi-cli/sdkgen/main.go -nt $bin/pulumi-ops-sdkgen ]]; then
  say "building the SDK generator (pkg/v3 v$pinned codegen)"
  (cd "$root/tools/pulumi-cli" && go build -o "$bin/pulumi-ops-sdkgen" ./sdkgen)
fi

stamp="$venv/.pulumi-$pinned"
if [[ ! -f $stamp ]]; then
  command -v python3 >/dev/null || { say "no python3 on PATH: install Python 3.9 or later"; exit 1; }
  say "creating $venv with pulumi==$pinned"
  rm -rf "$venv"
  python3 -m venv "$venv"
  # wheel and setuptools build the generated SDK offline (pip install --no-build-isolation); parver and semver are
  # its dependencies (setup.py's install_requires).
  "$venv/bin/pip" install --quiet --disable-pip-version-check "pulumi==$pinned" wheel setuptools "parver>=0.2.1" "semver>=2.8.1" >&2
  touch "$stamp"
fi
# check-jsonschema carries GitLab's own CI schema (vendor.gitlab-ci): the test of examples/ci/gitlab validates with it.
if [[ ! -x $venv/bin/check-jsonschema ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "check-jsonschema==0.39.0" >&2
fi
# The official Python SDK of the edge service: test/emulator/edge-fidelity-python.test.ts holds the edge emulator to
# its models (generated from the service's schema) with strict response validation.
if [[ ! -f $venv/.cloudflare-5.9.0 ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "cloudflare==5.9.0" >&2
  touch "$venv/.cloudflare-5.9.0"
fi
# The social services' clients nobody here wrote: test/emulator/social-clients.test.ts drives the page-management and
# short-post emulators with the official facebook-business SDK, python-facebook-api and pythreads.
if [[ ! -f $venv/.social-clients-1 ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "facebook-business==26.0.3" "python-facebook-api==0.24.0" "pythreads==0.2.1" >&2
  touch "$venv/.social-clients-1"
fi
# The official MCP Python SDK 2.3 (MCPServer), in a venv of its own (its pydantic, starlette and httpx pins are its
# own): test/handlers/control-python-sdk.test.ts holds the control client to its servers, the 2026-07-28 revision
# and the 2025 transport beside it (SSE and JSON, with and without sessions, resumable).
mcp_venv="$root/.tools/mcp-python"
if [[ ! -f $mcp_venv/.mcp-2.3.0 ]]; then
  python3 -m venv "$mcp_venv" >&2
  "$mcp_venv/bin/pip" install --quiet --disable-pip-version-check "mcp==2.3.0" "uvicorn==0.38.0" >&2
  touch "$mcp_venv/.mcp-2.3.0"
fi
# dnspython, a real zone-file reader: test/unit/zone-file.test.ts checks parseZoneFile's reading against it.
if [[ ! -f $venv/.dnspython-2.9.2 ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "dnspython==2.9.2" >&2
  touch "$venv/.dnspython-2.9.2"
fi
# gguf (llama.cpp's own GGUF writer) makes the tiny model the real Ollama server of the runner's tests loads
# (scripts/make-tiny-gguf.py, run by scripts/install-ollama.sh).
if [[ ! -x $venv/bin/gguf-dump ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "gguf==0.19.0" >&2
fi
# skills-ref, the Agent Skills format's reference validator: test/handlers/skills-format.test.ts holds the skill check
# (and the registry emulator's SKILL.md) to its verdicts.
if [[ ! -x $venv/bin/agentskills ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "skills-ref==0.1.1" >&2
fi
# The official Anthropic Python SDK: test/emulator/claude-skills-clients.test.ts drives the Claude API's skills
# emulator with it (files_from_dir, skills and versions), as a skills author does.
if [[ ! -f $venv/.anthropic-2.14.0 ]]; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check "anthropic==2.14.0" >&2
  touch "$venv/.anthropic-2.14.0"
fi
say "ready: $("$venv/bin/python" --version), pulumi $("$venv/bin/python" -c 'from importlib.metadata import version; print(version("pulumi"))' 2>/dev/null || echo '?')"
