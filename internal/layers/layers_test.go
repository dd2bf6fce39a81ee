package layers

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "raftlab/"

// rule says which of the module's packages the packages under dir may
// import, by path prefix; any other import of the module is a back arrow.
type rule struct {
	dir   string
	may   []string
	why   string
	multi bool // the rule covers dir's subpackages too
}

var rules = []rule{
	{dir: "raftcore/quorum", why: "quorum arithmetic stands alone, as etcd's does"},
	{dir: "raftcore/kube", why: "Kubernetes' heartbeat decisions stand alone, as the quorum arithmetic does"},
	{dir: "raftcore", may: []string{"raftcore/quorum", "raftcore/kube"}, why: "the simulator uses the standard library only"},
	{dir: "raftcore", may: []string{"raftcore", "raftcore/quorum", "raftcore/kube"}, multi: true, why: "the timeline and the explorer stand on the simulator alone"},
	{dir: "scenarios", may: []string{"raftcore"}, why: "the figures are data on the simulator, with their own words"},
	{dir: "internal/linearize", may: []string{"raftcore"}, why: "the checker judges the simulator's histories"},
	{dir: "internal/indepcheck", may: []string{"raftcore", "internal/linearize"}, why: "the independent checker reads the simulator"},
	{dir: "viz/frame", may: []string{"viz"}, why: "the frame is the contract painters import without the app"},
	{dir: "viz/palette", may: []string{"viz/frame"}, why: "colours are for tones of the frame"},
	{dir: "viz/paint", may: []string{"viz", "viz/frame", "viz/palette"}, why: "painting needs the frame only"},
	{dir: "viz/svg", may: []string{"viz", "viz/frame", "viz/palette", "viz/paint", "viz/fonts"}, why: "a painter, like viz/draw"},
	{dir: "viz/draw", may: []string{"viz", "viz/frame", "viz/palette", "viz/paint", "viz/fonts"}, why: "a painter never imports the app"},
	{dir: "viz/words", may: []string{"raftcore", "raftcore/timeline", "internal/linearize"}, why: "the words are told from the core's typed facts"},
	{dir: "viz", may: []string{}, why: "layout, hit-testing and gestures know no world"},
}

// TestArrowsPointOneWay reads every package's imports (tests aside) and
// holds it to its rule: nothing below imports what stands above it.
func TestArrowsPointOneWay(t *testing.T) {
	root := repoRoot(t)
	imports := moduleImports(t, root)
	checked := 0
	for _, pkg := range sortedKeys(imports) {
		r, ok := ruleFor(pkg)
		if !ok {
			continue
		}
		checked++
		for _, imp := range imports[pkg] {
			if !allowed(r, pkg, imp) {
				t.Errorf("%s imports %s: %s", pkg, imp, r.why)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d packages checked: the walk did not find the repository", checked)
	}
}

// TestOnlyTheAppAndProgramsImportTheApp: under viz/, only viz/app's own
// packages import viz/app; painters and the layout stay below it.
func TestOnlyTheAppAndProgramsImportTheApp(t *testing.T) {
	imports := moduleImports(t, repoRoot(t))
	for _, pkg := range sortedKeys(imports) {
		if pkg == "viz/app" || strings.HasPrefix(pkg, "viz/app/") || strings.HasPrefix(pkg, "cmd/") {
			continue
		}
		for _, imp := range imports[pkg] {
			if imp == "viz/app" || strings.HasPrefix(imp, "viz/app/") {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
	}
}

// TestABackArrowIsCaught: the rules reject an arrow that runs back up.
func TestABackArrowIsCaught(t *testing.T) {
	for _, c := range []struct{ pkg, imp string }{
		{"scenarios", "viz/words"}, {"raftcore", "scenarios"}, {"raftcore/timeline", "viz"},
		{"viz/frame", "viz/app"}, {"viz/draw", "raftcore"}, {"raftcore/quorum", "raftcore"},
		{"raftcore", "raftcore/timeline"}, {"raftcore/timeline", "scenarios"},
	} {
		r, ok := ruleFor(c.pkg)
		if !ok || allowed(r, c.pkg, c.imp) {
			t.Errorf("%s importing %s is not caught", c.pkg, c.imp)
		}
	}
}

func ruleFor(pkg string) (rule, bool) {
	for _, r := range rules {
		if !r.multi && pkg == r.dir || r.multi && strings.HasPrefix(pkg, r.dir+"/") {
			return r, true
		}
	}
	return rule{}, false
}

func allowed(r rule, pkg, imp string) bool {
	for _, m := range r.may {
		if imp == m {
			return true
		}
	}
	return false
}

// moduleImports maps each package directory of the module (relative,
// slash-separated) to the module packages its non-test files import.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	seen := map[string]map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "node_modules" || n == "testdata" || n == "web") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if seen[pkg] == nil {
			seen[pkg] = map[string]bool{}
			out[pkg] = []string{}
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if strings.HasPrefix(p, module) && !seen[pkg][p] {
				seen[pkg][p] = true
				out[pkg] = append(out[pkg], strings.TrimPrefix(p, module))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s", dir)
	}
	return dir
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
