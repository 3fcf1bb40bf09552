//go:build tools

// Package tools pins Pulumi's Java language host, which scripts/install-java.sh builds: it runs Java programs (with
// Maven) and generates the Java SDK (`pulumi package gen-sdk --language java`, its GeneratePackage).
package tools

import _ "github.com/pulumi/pulumi-java/pkg/cmd/pulumi-language-java"
