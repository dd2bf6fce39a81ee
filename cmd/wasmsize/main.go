// Command wasmsize says where the bytes of a Go WebAssembly build are: its
// sections, its code by package and its largest functions. Given a second
// module (the size floor, e2e/sizefloor), it prints the packages by how much
// more code the first has than the second. The modules must be built without
// -s so that they keep their function names:
//
//	GOOS=js GOARCH=wasm go build -trimpath -o bin/app.wasm ./cmd/wasm
//	GOOS=js GOARCH=wasm go build -trimpath -o bin/floor.wasm ./e2e/sizefloor
//	go run ./cmd/wasmsize -top 30 bin/app.wasm bin/floor.wasm
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"raftlab/internal/wasmsize"
)

func main() {
	top := flag.Int("top", 25, "how many packages and functions to list")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-top N] module.wasm [floor.wasm]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() < 1 || flag.NArg() > 2 {
		flag.Usage()
		os.Exit(2)
	}
	if *top < 1 {
		fail(fmt.Errorf("-top must be at least 1 (got %d)", *top))
	}
	var mods []*wasmsize.Module
	for _, path := range flag.Args() {
		m, err := wasmsize.Read(path)
		if err != nil {
			fail(err)
		}
		if len(m.Funcs) > 0 && m.Funcs[0].Name == "" {
			fail(fmt.Errorf("%s has no function names: build it without -ldflags=-s", path))
		}
		mods = append(mods, m)
	}
	m := mods[0]
	fmt.Println("sections (bytes):")
	for _, s := range m.Sections {
		if s.Size >= 1000 {
			fmt.Printf("  %-16s %10d\n", s.Name, s.Size)
		}
	}
	pkgs := m.ByPackage()
	fmt.Printf("\ncode by group (bytes):\n")
	groups := map[string]int{}
	for p, n := range pkgs {
		groups[group(p)] += n
	}
	printTop(groups, len(groups))
	fmt.Printf("\ncode by package, the %d largest (bytes):\n", *top)
	printTop(pkgs, *top)
	if len(mods) == 2 {
		floor := mods[1].ByPackage()
		more := map[string]int{}
		for p, n := range pkgs {
			more[p] = n - floor[p]
		}
		for p, n := range floor {
			if _, ok := pkgs[p]; !ok {
				more[p] = -n
			}
		}
		total := 0
		for _, n := range more {
			total += n
		}
		fmt.Printf("\ncode more than %s: %+d bytes; data section %+d bytes; the %d packages that add most:\n",
			flag.Arg(1), total, m.Data()-mods[1].Data(), *top)
		printTop(more, *top)
	}
	fmt.Printf("\nlargest functions (bytes):\n")
	fs := slices.Clone(m.Funcs)
	slices.SortFunc(fs, func(a, b wasmsize.Func) int { return b.Size - a.Size })
	for _, f := range fs[:min(*top, len(fs))] {
		fmt.Printf("  %8d  %s\n", f.Size, f.Name)
	}
}

// group puts a package with its neighbours: the Go runtime and standard
// library, Ebiten, the text shaper, raftlab's own.
func group(pkg string) string {
	for _, prefix := range []string{"raftlab/", "github.com/hajimehoshi/ebiten/", "github.com/go-text/",
		"golang.org/x/", "github.com/anishathalye/porcupine"} {
		if strings.HasPrefix(pkg, prefix) {
			return prefix
		}
	}
	if first, _, _ := strings.Cut(pkg, "/"); strings.Contains(first, ".") {
		return first
	}
	if pkg == "runtime" || strings.HasPrefix(pkg, "internal/") || strings.HasPrefix(pkg, "runtime/") {
		return "runtime and internal/"
	}
	return "standard library"
}

// printTop prints the n largest entries of sizes, largest first.
func printTop(sizes map[string]int, n int) {
	keys := make([]string, 0, len(sizes))
	for k := range sizes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if sizes[a] != sizes[b] {
			return sizes[b] - sizes[a]
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Printf("  %10d  %s\n", sizes[k], k)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "wasmsize:", err)
	os.Exit(1)
}
