// Command gomodule writes a Go module version in the module proxy's layout, as `go` fetches it from a
// GOPROXY=file://<dir> (https://go.dev/ref/mod#goproxy-protocol):
//
//	gomodule <module directory> <version> <RFC 3339 time> <proxy directory>
//
// It writes <proxy>/<escaped module path>/@v/{list,<version>.info,<version>.mod,<version>.zip}. The zip is made by
// golang.org/x/mod/zip, the package the go command itself checks module zips with: the same files in, the same
// bytes out (no timestamps, files in path order), so a release made twice gives the same zip and go.sum lines.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: gomodule <module directory> <version> <RFC 3339 time> <proxy directory>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3], os.Args[4]); err != nil {
		fmt.Fprintln(os.Stderr, "gomodule:", err)
		os.Exit(1)
	}
}

func run(dir, version, at, proxy string) error {
	when, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return fmt.Errorf("time %q: %w", at, err)
	}
	goMod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return err
	}
	path := modfile.ModulePath(goMod)
	if path == "" {
		return fmt.Errorf("%s/go.mod names no module", dir)
	}
	mod := module.Version{Path: path, Version: version}
	if err := module.Check(path, version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(path)
	if err != nil {
		return err
	}
	vdir := filepath.Join(proxy, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		return err
	}
	zip, err := os.Create(filepath.Join(vdir, version+".zip"))
	if err != nil {
		return err
	}
	if err := modzip.CreateFromDir(zip, mod, dir); err != nil {
		zip.Close()
		return err
	}
	if err := zip.Close(); err != nil {
		return err
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": when.UTC().Format(time.RFC3339)})
	for name, content := range map[string][]byte{version + ".info": info, version + ".mod": goMod, "list": []byte(version + "\n")} {
		if err := os.WriteFile(filepath.Join(vdir, name), content, 0o644); err != nil {
			return err
		}
	}
	fmt.Println(path)
	return nil
}
