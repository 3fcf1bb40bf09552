#!/usr/bin/env bash
# Pulumi's Java language host (github.com/pulumi/pulumi-java/pkg v1.12.0, tools/pulumi-java), built into
# .tools/pulumi/bin from the Go module proxy: the engine starts it for a Java program (it builds and runs the program
# with Maven), and `npm run gen` asks it to generate sdk/java (`pulumi package gen-sdk --language java`). A Java
# program also needs a JDK (11 or later) and Maven on PATH; com.pulumi:pulumi comes from Maven Central.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.tools/pulumi/bin"
if [[ ! -x $bin/pulumi-language-java || $root/tools/pulumi-java/go.mod -nt $bin/pulumi-language-java ]]; then
  command -v go >/dev/null || { echo "[pulumi-java] no Go toolchain on PATH: install Go >= 1.25 (https://go.dev/dl/)" >&2; exit 1; }
  echo "[pulumi-java] building the Java language host (pulumi-java v1.12.0)" >&2
  mkdir -p "$bin"
  (cd "$root/tools/pulumi-java" && GOFLAGS=-mod=mod GOTOOLCHAIN=local go build -o "$bin/pulumi-language-java" \
    -ldflags "-X github.com/pulumi/pulumi-java/pkg/version.Version=1.12.0" github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java)
fi
for tool in java mvn; do
  command -v "$tool" >/dev/null || echo "[pulumi-java] no $tool on PATH: Java programs and sdk/java's build need a JDK (11+) and Maven" >&2
done
