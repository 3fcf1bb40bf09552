//go:build tools

// Package tools pins the YAML language host this project builds into .tools/pulumi/bin.
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
