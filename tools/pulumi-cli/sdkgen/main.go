// Command sdkgen writes the Python SDK of a Pulumi package schema:
//
//	sdkgen [--language python|go] <schema.json> <output directory>
//
// `pulumi package gen-sdk --language python` validates the schema, then asks the Python language host's
// GeneratePackage to run pkg/v3/codegen/python. The only Python host the Go module proxy serves here (sdk/v3
// v3.68.0, built by scripts/install-python.sh) predates that call, so this command binds the schema with the same
// validation and runs the same codegen, at the version the CLI is built from (go.mod pins them together).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// noLoader: schema.json refers to no other package, so any lookup is an error worth seeing.
type noLoader struct{}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("schema.json refers to package %q, which sdkgen cannot load", pkg)
}

func (l noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("schema.json refers to package %q, which sdkgen cannot load", pkg)
}

func (l noLoader) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}

func main() {
	args, language := os.Args[1:], "python"
	if len(args) == 4 && args[0] == "--language" {
		language, args = args[1], args[2:]
	}
	if len(args) != 2 || (language != "python" && language != "go") {
		fmt.Fprintln(os.Stderr, "usage: sdkgen [--language python|go] <schema.json> <output directory>")
		os.Exit(2)
	}
	if err := run(language, args[0], args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func run(language, schemaPath, out string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return diags
	}
	var files map[string][]byte
	if language == "go" {
		files, err = gogen.GeneratePackage("pulumi-ops-sdkgen", pkg, nil)
	} else {
		files, err = python.GeneratePackage("pulumi-ops-sdkgen", pkg, nil, noLoader{})
	}
	if err != nil {
		return err
	}
	if project, ok := files["pyproject.toml"]; ok {
		if files["pyproject.toml"], err = withClassifiers(project); err != nil {
			return err
		}
		// pyproject.toml names README.md beside it as the long description (PyPI's page); the generator writes it in
		// the package folder only, and Pulumi's providers copy it up before building, as this does.
		for name, content := range files {
			if filepath.Base(name) == "README.md" && strings.Count(filepath.ToSlash(name), "/") == 1 {
				files["README.md"] = content
			}
		}
	}
	// What this run writes replaces what an earlier run wrote (files the schema no longer makes go too); other
	// files beside them, such as the Go SDK's go.mod, stay.
	for top := range topLevel(files) {
		if err := os.RemoveAll(filepath.Join(out, top)); err != nil {
			return err
		}
	}
	for name, content := range files {
		path := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d files to %s\n", len(files), out)
	return nil
}

// classifiers are PyPI's (https://pypi.org/classifiers/), which Pulumi's generator does not write: the license, the
// Python versions the package's requires-python allows, and what it is for.
var classifiers = []string{
	"Development Status :: 4 - Beta",
	"Intended Audience :: System Administrators",
	"License :: OSI Approved :: Apache Software License",
	"Operating System :: OS Independent",
	"Programming Language :: Python :: 3",
	"Programming Language :: Python :: 3 :: Only",
	"Topic :: System :: Systems Administration",
	"Typing :: Typed",
}

// withClassifiers adds the classifiers to the generated pyproject.toml's [project] table.
func withClassifiers(project []byte) ([]byte, error) {
	const table = "[project]\n"
	at := bytes.Index(project, []byte(table))
	if at < 0 {
		return nil, fmt.Errorf("the generated pyproject.toml has no [project] table")
	}
	quoted := make([]string, len(classifiers))
	for i, c := range classifiers {
		quoted[i] = fmt.Sprintf("%q", c)
	}
	line := "  classifiers = [" + strings.Join(quoted, ", ") + "]\n"
	end := at + len(table)
	return append(append(append([]byte{}, project[:end]...), line...), project[end:]...), nil
}

// topLevel is the set of first path elements of the generated files ("pulumi_ops", "setup.py"; "ops", ...).
func topLevel(files map[string][]byte) map[string]bool {
	tops := map[string]bool{}
	for name := range files {
		tops[strings.SplitN(filepath.ToSlash(name), "/", 2)[0]] = true
	}
	return tops
}
