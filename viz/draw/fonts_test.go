//go:build desktop

package draw

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
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
	// Walk every package whose strings can reach the screen: the whole of
	// viz (words, app and its parts, layout), the scenarios and the engine.
	for _, root := range []string{"..", "../../scenarios", "../../raftcore"} {
		files := 0
		err := filepath.WalkDir(root, func(f string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "quorum" {
				// The quorum package's strings are for debugging and
				// tests (it prints the largest index as ∞); the screen
				// never shows them.
				return fs.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
				return nil
			}
			files++
			src, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			file, err := parser.ParseFile(token.NewFileSet(), f, src, 0)
			if err != nil {
				return err
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
			return nil
		})
		if err != nil || files == 0 {
			t.Fatalf("no Go files read under %s (%v)", root, err)
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
