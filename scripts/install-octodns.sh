#!/usr/bin/env bash
# octoDNS, the DNS-as-code peer of the record-set bench (bench/octodns.ts), and a third-party client of the edge
# emulator: octodns 1.22 and octodns-cloudflare 1.2 from PyPI, in a virtual environment of their own
# (.tools/octodns), whose provider's `api_url` points it at the emulator. Installed once, reused after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv="$root/.tools/octodns"
stamp="$venv/.octodns-1.22.0-cloudflare-1.2.0"
say() { printf '[octodns] %s\n' "$*" >&2; }
if [[ ! -f $stamp ]]; then
  command -v python3 >/dev/null || { say "no python3 on PATH: install Python 3.9 or later"; exit 1; }
  say "installing octodns 1.22.0 and octodns-cloudflare 1.2.0 into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "octodns==1.22.0" "octodns-cloudflare==1.2.0" >&2
  touch "$stamp"
fi
say "ready: $("$venv/bin/octodns-sync" --version 2>&1 | head -1)"
