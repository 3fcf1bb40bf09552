// Command pulumi-language-python hands the Python language host built from sdk/v3 v3.68.0 (the newest one the Go
// module proxy serves here; see scripts/install-python.sh) the runtime options of Pulumi.yaml, as Pulumi documents
// them (`runtime: {name: python, options: {virtualenv: venv}}`). That host reads them as command-line flags, which
// the engine stopped passing when options moved into the RPCs' ProgramInfo, so it ignored `virtualenv` and ran the
// system's python. This program finds the project file the engine started it for (the engine starts a language
// host in the program's directory), turns `virtualenv` into the host's -virtualenv flag (relative to the project,
// as documented), and execs the host, which lies beside it as pulumi-language-python-v3.68.0. Nothing else changes:
// the same gRPC server, the same arguments. The official Pulumi CLI ships a host that reads the options itself.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"gopkg.in/yaml.v3"
)

type project struct {
	Runtime yaml.Node `yaml:"runtime"`
}

// projectOptions returns the runtime options of the nearest Pulumi.yaml at or above dir, and that file's directory.
func projectOptions(dir string) (map[string]any, string, error) {
	for {
		for _, name := range []string{"Pulumi.yaml", "Pulumi.yml"} {
			text, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				continue
			}
			var p project
			if err := yaml.Unmarshal(text, &p); err != nil {
				return nil, dir, fmt.Errorf("%s: %w", filepath.Join(dir, name), err)
			}
			var runtime struct {
				Options map[string]any `yaml:"options"`
			}
			if p.Runtime.Kind == yaml.MappingNode {
				if err := p.Runtime.Decode(&runtime); err != nil {
					return nil, dir, fmt.Errorf("%s: runtime: %w", filepath.Join(dir, name), err)
				}
			}
			return runtime.Options, dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, "", nil
		}
		dir = parent
	}
}

func main() {
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-language-python: cannot find its own path:", err)
		os.Exit(1)
	}
	host := filepath.Join(filepath.Dir(self), "pulumi-language-python-v3.68.0")
	args := []string{host}
	cwd, _ := os.Getwd()
	options, projectDir, err := projectOptions(cwd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-language-python:", err)
		os.Exit(1)
	}
	explicit := false
	for _, a := range os.Args[1:] {
		explicit = explicit || strings.HasPrefix(strings.TrimLeft(a, "-"), "virtualenv")
	}
	if venv, ok := options["virtualenv"].(string); ok && venv != "" && !explicit {
		if !filepath.IsAbs(venv) {
			venv = filepath.Join(projectDir, venv)
		}
		args = append(args, "-virtualenv="+venv)
	}
	if toolchain, ok := options["toolchain"].(string); ok && toolchain != "" && toolchain != "pip" {
		fmt.Fprintf(os.Stderr, "pulumi-language-python: toolchain %q needs the Python host of a current Pulumi CLI; this one (v3.68.0) knows pip only\n", toolchain)
		os.Exit(1)
	}
	args = append(args, os.Args[1:]...)
	if err := syscall.Exec(host, args, os.Environ()); err != nil {
		fmt.Fprintln(os.Stderr, "pulumi-language-python: cannot start", host+":", err)
		os.Exit(1)
	}
}
