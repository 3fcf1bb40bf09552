//go:build tools

// Package tools pins the Pulumi CLI so that `go mod tidy` keeps its whole dependency graph in go.sum.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
