//go:build tools

// Package tools pins the Node language host so that `go mod tidy` keeps its dependency graph in go.sum.
package tools

import _ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"

// The Python host, built the same way (scripts/install-python.sh).
import _ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
