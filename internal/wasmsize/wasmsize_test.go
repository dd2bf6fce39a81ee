package wasmsize

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// section is one section of a hand-made module: its id and its contents.
func section(id byte, body ...byte) []byte {
	return append([]byte{id, byte(len(body))}, body...)
}

// name is a length-prefixed string.
func name(s string) []byte { return append([]byte{byte(len(s))}, s...) }

// module builds a small valid module by hand: one imported function (which
// shifts the name section's numbering), one imported memory, two functions of
// 4 and 6 body bytes, a data section of 5 bytes and a name section naming
// every function.
func module() []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	b = append(b, section(1, 1, 0x60, 0, 0)...) // one type: () -> ()
	imp := []byte{2}
	imp = append(imp, name("go")...)
	imp = append(imp, name("debug")...)
	imp = append(imp, 0, 0) // a function of type 0
	imp = append(imp, name("go")...)
	imp = append(imp, name("mem")...)
	imp = append(imp, 2, 1, 1, 2) // a memory, minimum 1, maximum 2
	b = append(b, section(2, imp...)...)
	b = append(b, section(3, 2, 0, 0)...)
	b = append(b, section(10, 2,
		3, 0, 0x01, 0x0b, // body of 3 bytes: no locals, nop, end
		5, 0, 0x01, 0x01, 0x01, 0x0b)...)
	b = append(b, section(11, 1, 0, 0x41, 0, 0x0b, 0)...)
	var names []byte
	names = append(names, 3) // three names
	names = append(names, 0)
	names = append(names, name("go_debug")...)
	names = append(names, 1)
	names = append(names, name("raftlab_viz_app.__App_.Frame")...)
	names = append(names, 2)
	names = append(names, name("github.com_go_text_typesetting_font.NewFont")...)
	custom := name("name")
	custom = append(custom, 1, byte(len(names)))
	custom = append(custom, names...)
	return append(b, section(0, custom...)...)
}

func TestReadFindsSectionsAndNamedFunctions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.wasm")
	require.NoError(t, os.WriteFile(path, module(), 0o644))
	m, err := Read(path)
	require.NoError(t, err)
	require.Len(t, m.Funcs, 2)
	assert.Equal(t, Func{Name: "raftlab_viz_app.__App_.Frame", Size: 4}, m.Funcs[0])
	assert.Equal(t, Func{Name: "github.com_go_text_typesetting_font.NewFont", Size: 6}, m.Funcs[1])
	assert.Equal(t, 6, m.Data())
	assert.Equal(t, map[string]int{"raftlab/viz/app": 4, "github.com/go-text/typesetting/font": 6}, m.ByPackage())
	var names []string
	for _, s := range m.Sections {
		names = append(names, s.Name)
	}
	assert.Equal(t, []string{"type", "import", "function", "code", "data", "name"}, names)
}

func TestReadRejectsBrokenModules(t *testing.T) {
	good := module()
	for what, b := range map[string][]byte{
		"empty":     nil,
		"not wasm":  []byte("#!/bin/sh\necho\n"),
		"truncated": good[:len(good)-7],
		"bad LEB":   append(good[:8:8], 1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
	} {
		path := filepath.Join(t.TempDir(), "m.wasm")
		require.NoError(t, os.WriteFile(path, b, 0o644))
		_, err := Read(path)
		assert.Error(t, err, what)
		if err != nil {
			assert.Contains(t, err.Error(), path, what)
		}
	}
	_, err := Read(filepath.Join(t.TempDir(), "missing.wasm"))
	assert.Error(t, err)
}

func TestPackageReadsBothSpellings(t *testing.T) {
	for sym, want := range map[string]string{
		"raftlab/viz/app.(*App).Frame":                      "raftlab/viz/app",
		"encoding/json.Marshal":                             "encoding/json",
		"raftlab_viz_app.__App_.Frame":                      "raftlab/viz/app",
		"runtime.readmemstats_m":                            "runtime",
		"fmt.__pp_.printValue":                              "fmt",
		"github.com_hajimehoshi_ebiten_v2.keyNameToKeyCode": "github.com/hajimehoshi/ebiten/v2",
		"golang.org_x_image_tiff.__decoder_.decode":         "golang.org/x/image/tiff",
		"go_parser.__resolver_.Visit":                       "go/parser",
		"type_.eq.raftlab_raftcore.Action":                  "type:",
		"":                                                  "?",
		"wasm_export_run":                                   "wasm_export_run",
	} {
		assert.Equal(t, want, Package(sym), sym)
	}
}
