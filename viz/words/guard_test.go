package words_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"raftlab/viz/app/command"
)

// The words a reader sees are written in this package only. The guard
// reads the Go sources of the app (viz/app and below) and of the screen
// package (viz itself), tests aside, and fails naming file and line for
// each string literal that looks like words for a reader: one with a
// letter and a space, or a capitalised word ("Pause"). It lets be what is
// not for a reader: import paths, struct tags, the messages of errors
// made with fmt.Errorf or errors.New (they go back to whoever gave the
// bad command, as they are), and command lines, whose every word is a
// command's name or a word its arguments take ("open setup", " off").

// guarded are the sources the guard reads, from this package's folder.
var guarded = []struct {
	dir     string
	recurse bool
}{{"../app", true}, {"..", false}}

// allowed are the files whose literals the guard lets be, and why.
var allowed = map[string]string{
	// The command table holds each command's usage and one-line doc,
	// which docs/embedding.md lists for the authors of pages, beside the
	// parser they document.
	"app/command": "the command table's usage and docs, for docs/embedding.md",
	// Problems with a page's parameters are error reports in all but
	// type, made where the parameter is read and shown as made.
	"params.go": "the parameters' problems",
	// Key names.
	"keys.go":     "key names",
	"keyqueue.go": "key names",
	// The panels' names, which commands take ("panel Safety") and tabs
	// show as they are, and the stand-in texts a layout measures when its
	// caller gives none (the app always gives its words).
	"layout.go": "panel names and stand-in texts to measure",
}

func TestTheAppHoldsNoWordsForReaders(t *testing.T) {
	vocabulary := commandWords()
	var found []string
	for _, g := range guarded {
		err := filepath.WalkDir(g.dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != g.dir && !g.recurse {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || isAllowed(path) {
				return nil
			}
			found = append(found, wordsIn(t, path, vocabulary)...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range found {
		t.Errorf("%s: words for a reader are written in viz/words", f)
	}
}

// isAllowed reports whether path is one of the allowed files or under an
// allowed folder.
func isAllowed(path string) bool {
	rel := strings.TrimPrefix(filepath.ToSlash(path), "../")
	for a := range allowed {
		if rel == a || strings.HasPrefix(rel, a+"/") {
			return true
		}
	}
	return false
}

// commandWords are the words a command line may hold: the commands'
// names, the lowercase words of their arguments, and the names the page
// may also call.
func commandWords() map[string]bool {
	out := map[string]bool{"click": true, "export": true, "link": true}
	for _, c := range command.Table {
		out[c.Name] = true
		for _, w := range strings.FieldsFunc(c.Args, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
			if strings.ToLower(w) == w {
				out[w] = true
			}
		}
	}
	return out
}

// wordsIn lists, as file:line and the literal, each literal of file path
// that reads as words for a reader.
func wordsIn(t *testing.T, path string, vocabulary map[string]bool) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ImportSpec:
			return false
		case *ast.Field:
			n.Tag = nil // a struct tag
		case *ast.CallExpr:
			if isError(n.Fun) {
				return false
			}
		case *ast.BasicLit:
			if n.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(n.Value)
			if err == nil && readsAsWords(s) && !isCommandLine(s, vocabulary) {
				at := fset.Position(n.Pos())
				out = append(out, "viz/"+strings.TrimPrefix(filepath.ToSlash(at.Filename), "../")+":"+strconv.Itoa(at.Line)+": "+n.Value)
			}
		}
		return true
	})
	return out
}

// isError reports whether fun makes an error: fmt.Errorf or errors.New.
func isError(fun ast.Expr) bool {
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && (pkg.Name == "fmt" && sel.Sel.Name == "Errorf" || pkg.Name == "errors" && sel.Sel.Name == "New")
}

// readsAsWords reports whether s looks like words for a reader: a letter
// and a space, or a capitalised word.
func readsAsWords(s string) bool {
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return false
	}
	if strings.Contains(s, " ") {
		return true
	}
	first, n := utf8.DecodeRuneInString(s)
	second, _ := utf8.DecodeRuneInString(s[n:])
	return unicode.IsUpper(first) && unicode.IsLower(second)
}

// isCommandLine reports whether every word of s is a word of a command
// line.
func isCommandLine(s string, vocabulary map[string]bool) bool {
	words := strings.Fields(s)
	for _, w := range words {
		if !vocabulary[w] {
			return false
		}
	}
	return len(words) > 0
}

// TestTheWordsStandOnTheCoreOnly: this package imports none of raftlab
// but its core, so that the figures' stories and the app can both use it.
func TestTheWordsStandOnTheCoreOnly(t *testing.T) {
	core := map[string]bool{"raftlab/raftcore": true, "raftlab/raftcore/timeline": true, "raftlab/internal/linearize": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "raftlab/") && !core[path] {
				t.Errorf("%s imports %s; the words stand on raftlab's core only", name, path)
			}
		}
	}
}
