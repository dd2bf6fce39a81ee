//go:build desktop

package draw

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// TestTheFontHasEveryCharacterTheAppWrites: the font is cut down to the
// characters the app writes, so every character in the string literals of
// the packages whose words reach the screen must have a glyph in it, or
// it would be drawn as an empty box.
func TestTheFontHasEveryCharacterTheAppWrites(t *testing.T) {
	need := map[rune]string{}
	for r := rune(' '); r <= '~'; r++ {
		need[r] = "printable ASCII"
	}
	for _, dir := range []string{"..", "../app", "../../raftcore/timeline", "../../scenarios", "../../raftcore"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no Go files in %s (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(file, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, r := range s {
					if unicode.IsPrint(r) && !unicode.IsSpace(r) {
						need[r] = f
					}
				}
				return true
			})
		}
	}
	f := face(13)
	for r, where := range need {
		if r == ' ' {
			continue
		}
		gs := text.AppendGlyphs(nil, string(r), f, nil)
		if len(gs) == 0 || gs[0].GID == 0 {
			t.Errorf("%q (U+%04X, from %s) has no glyph in the font: add it to FONT_UNICODES in the Makefile and run make font", r, r, where)
		}
	}
	if len(need) < 100 {
		t.Errorf("only %d characters collected; the scan is broken", len(need))
	}
}
