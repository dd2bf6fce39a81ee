// Command posters writes every figure's posters (package poster) into a
// directory, web/posters by default: `make posters` runs it. Files of
// figures that no longer exist are removed, so the directory holds exactly
// what the code draws.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"raftlab/viz/app/poster"
)

func main() {
	dir := flag.String("dir", "web/posters", "directory to write the posters to")
	flag.Parse()
	if flag.NArg() > 0 {
		fail(fmt.Errorf("posters takes no arguments, only -dir (got %q)", flag.Args()))
	}
	if err := write(*dir); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "posters:", err)
	os.Exit(1)
}

// writeBytes writes b to path, leaving the file alone when it already
// holds the same bytes.
func writeBytes(path string, b []byte) error {
	if old, err := os.ReadFile(path); err == nil && string(old) == string(b) {
		return nil
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes)\n", path, len(b))
	return nil
}

func write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, p := range poster.All() {
		keep[p.FileName()] = true
		b, err := p.SVG()
		if err != nil {
			return err
		}
		if err := writeBytes(filepath.Join(dir, p.FileName()), b); err != nil {
			return err
		}
	}
	manifest, err := poster.Manifest()
	if err != nil {
		return err
	}
	if err := writeBytes(filepath.Join(dir, poster.ManifestName), manifest); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.svg"))
	if err != nil {
		return err
	}
	for _, p := range old {
		if name := filepath.Base(p); !keep[name] && !strings.HasPrefix(name, ".") {
			if err := os.Remove(p); err != nil {
				return err
			}
			fmt.Printf("removed %s\n", p)
		}
	}
	return nil
}
