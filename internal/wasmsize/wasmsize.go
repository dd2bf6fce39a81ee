// Package wasmsize reads a WebAssembly module built by Go and says where its
// bytes are: the size of each section, and of each function's code under the
// name the module's "name" section gives it (a build without -s keeps that
// section). cmd/wasmsize prints it; the size benchmark of e2e compares the
// app with the bare Ebiten program by it.
package wasmsize

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Func is one function of the module's code section.
type Func struct {
	Name string // as the name section spells it, "" without one
	Size int    // bytes of its body, with its length prefix
}

// Section is one section of the module.
type Section struct {
	ID   byte
	Name string // the custom section's own name, or the standard section's
	Size int    // bytes of its contents
}

// Module is what Read found.
type Module struct {
	Sections []Section
	Funcs    []Func
}

// Data is the size of the data section: what Go keeps there is the read-only
// data, its type and function tables and the initial values of variables.
func (m *Module) Data() int {
	for _, s := range m.Sections {
		if s.ID == 11 {
			return s.Size
		}
	}
	return 0
}

// ByPackage adds up the functions' code by the Go package of their name.
func (m *Module) ByPackage() map[string]int {
	out := map[string]int{}
	for _, f := range m.Funcs {
		out[Package(f.Name)] += f.Size
	}
	return out
}

var sectionNames = [...]string{"custom", "type", "import", "function", "table", "memory",
	"global", "export", "start", "element", "code", "data", "data count"}

// Read parses the module at path.
func Read(path string) (*Module, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return m, nil
}

// reader walks the module's bytes, keeping the first error.
type reader struct {
	b   []byte
	err error
}

// uleb reads an unsigned LEB128 number at i and returns it with the index after it.
func (r *reader) uleb(i int) (uint64, int) {
	var v uint64
	for shift := 0; i < len(r.b) && shift < 64; shift += 7 {
		c := r.b[i]
		i++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, i
		}
	}
	if r.err == nil {
		r.err = fmt.Errorf("bad LEB128 number at byte %d", i)
	}
	return 0, len(r.b)
}

// slice is b[i:i+n], or empty with an error when that runs past the end.
func (r *reader) slice(i, n int) []byte {
	if i < 0 || n < 0 || i+n > len(r.b) {
		if r.err == nil {
			r.err = fmt.Errorf("a length at byte %d runs past the end", i)
		}
		return nil
	}
	return r.b[i : i+n]
}

func parse(b []byte) (*Module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly module")
	}
	r := &reader{b: b}
	m := &Module{}
	var imports uint64
	names := map[uint64]string{}
	for i := 8; i < len(b) && r.err == nil; {
		id := b[i]
		size, j := r.uleb(i + 1)
		end := j + int(size)
		s := Section{ID: id, Size: int(size)}
		if int(id) < len(sectionNames) {
			s.Name = sectionNames[id]
		}
		switch id {
		case 0:
			l, k := r.uleb(j)
			s.Name = string(r.slice(k, int(l)))
			if s.Name == "name" {
				r.names(k+int(l), end, names)
			}
		case 2:
			imports = r.funcImports(j)
		case 10:
			n, k := r.uleb(j)
			for range n {
				if r.err != nil {
					break
				}
				l, k2 := r.uleb(k)
				m.Funcs = append(m.Funcs, Func{Size: k2 - k + int(l)})
				k = k2 + int(l)
			}
		}
		m.Sections = append(m.Sections, s)
		i = end
	}
	if r.err != nil {
		return nil, r.err
	}
	for k := range m.Funcs {
		m.Funcs[k].Name = names[uint64(k)+imports]
	}
	return m, nil
}

// funcImports counts the imported functions, which come first in the function
// index space the name section numbers.
func (r *reader) funcImports(j int) uint64 {
	var count uint64
	n, k := r.uleb(j)
	for range n {
		if r.err != nil {
			break
		}
		l, k2 := r.uleb(k)
		l2, k3 := r.uleb(k2 + int(l))
		k = k3 + int(l2)
		kind := r.slice(k, 1)
		if kind == nil {
			break
		}
		k++
		switch kind[0] {
		case 0: // a function: its type index
			_, k = r.uleb(k)
			count++
		case 1: // a table: element type, then limits
			k = r.limits(k + 1)
		case 2: // a memory: limits
			k = r.limits(k)
		case 3: // a global: value type and mutability
			k += 2
		}
	}
	return count
}

// limits skips a limits field: flags, minimum and, if flagged, maximum.
func (r *reader) limits(k int) int {
	flags := r.slice(k, 1)
	if flags == nil {
		return len(r.b)
	}
	_, k = r.uleb(k + 1)
	if flags[0]&1 != 0 {
		_, k = r.uleb(k)
	}
	return k
}

// names reads the function names subsection of the name section.
func (r *reader) names(k, end int, names map[uint64]string) {
	for k < end && r.err == nil {
		sub := r.slice(k, 1)
		if sub == nil {
			return
		}
		ss, k2 := r.uleb(k + 1)
		if sub[0] == 1 {
			n, m := r.uleb(k2)
			for range n {
				if r.err != nil {
					return
				}
				idx, m2 := r.uleb(m)
				nl, m3 := r.uleb(m2)
				names[idx] = string(r.slice(m3, int(nl)))
				m = m3 + int(nl)
			}
		}
		k = k2 + int(ss)
	}
}

// Package is the package part of a Go symbol name, as the name section spells
// it: "raftlab/viz/app.(*App).Frame", or, as Go 1.26 writes it there, with the
// path's slashes as underscores: "raftlab_viz_app.__App_.Frame". Either gives
// "raftlab/viz/app" (a package whose own name has an underscore comes out with a
// slash there). Compiler-made functions such as type equality give "type:",
// and no name "?".
func Package(sym string) string {
	if sym == "" {
		return "?"
	}
	if strings.Contains(sym, "/") {
		slash := strings.LastIndex(sym, "/")
		if dot := strings.Index(sym[slash+1:], "."); dot >= 0 {
			return sym[:slash+1+dot]
		}
		return sym
	}
	start := 0
	if first, _, ok := strings.Cut(sym, "_"); ok && isDomain(first) {
		start = len(first) + 1
	}
	dot := strings.Index(sym[start:], ".")
	if dot < 0 {
		return sym
	}
	pkg := sym[:start+dot]
	if pkg == "type_" || pkg == "type:" {
		return "type:"
	}
	pkg = strings.ReplaceAll(pkg, "_", "/")
	// The mangling writes a hyphen as an underscore too.
	if rest, ok := strings.CutPrefix(pkg, "github.com/go/text/"); ok {
		pkg = "github.com/go-text/" + rest
	}
	return pkg
}

// isDomain tells a module path's domain (github.com, golang.org, go.etcd.io)
// from a package name followed by a function name (runtime.readmemstats).
func isDomain(s string) bool {
	dot := strings.LastIndex(s, ".")
	if dot <= 0 {
		return false
	}
	switch s[dot+1:] {
	case "com", "org", "io", "net", "dev", "in":
		return true
	}
	return false
}
