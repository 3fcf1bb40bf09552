//go:build tools

// Package tools pins the Go language host scripts/install-go-host.sh builds: the last one published inside the
// sdk/v3 module (v3.66.0; later releases moved it to a module of its own, sdk/go/pulumi-language-go/v3, which the
// Go module proxy does not serve). It only builds and starts the program; the program's SDK and the engine are
// today's releases.
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go"
