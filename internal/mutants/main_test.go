package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryMutantStillApplies keeps the list current in `go test`: each
// mutant's search text occurs exactly once in the file it names under
// raftcore, so `make mutants` will not stop on a stale entry.
func TestEveryMutantStillApplies(t *testing.T) {
	mutants, err := load("../../raftcore/testdata/mutants")
	if err != nil {
		t.Fatal(err)
	}
	if len(mutants) < 3 {
		t.Fatalf("only %d mutants", len(mutants))
	}
	for _, m := range mutants {
		src, err := os.ReadFile(filepath.Join("../../raftcore", filepath.FromSlash(m.file)))
		if err != nil {
			t.Errorf("%s: %v", m.name, err)
			continue
		}
		if n := strings.Count(string(src), m.find); n != 1 {
			t.Errorf("%s: its find text occurs %d times in raftcore/%s", m.name, n, m.file)
		}
	}
}

// TestBadMutantFilesAreNamed: a malformed file is reported with its name
// and what is missing.
func TestBadMutantFilesAreNamed(t *testing.T) {
	cases := map[string]string{
		"why: x\n--- find\na\n--- replace\nb\n":                     `no "file:" line`,
		"file: raft.go\n--- find\na\n--- replace\nb\n":              `no "why:" line`,
		"why: x\nfile: raft.go\n--- replace\nb\n":                   `no "--- find" block`,
		"why: x\nfile: raft.go\n--- find\na\n--- replace\na\n":      "changes nothing",
		"why: x\nfile: raft.go\nstray\n--- find\na\n":               `:3: want`,
		"why: x\nfile: ../main.go\n--- find\na\n--- replace\nb\n":   "not a plain path inside",
		"why: x\nfile: /raft.go\n--- find\na\n--- replace\nb\n":     "not a plain path inside",
		"why: x\nfile: quorum//a.go\n--- find\na\n--- replace\nb\n": "not a plain path inside",
	}
	dir := t.TempDir()
	for text, want := range cases {
		_, err := parse(writeFile(t, dir, "bad.mutant", text))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "bad.mutant") {
			t.Errorf("%q: got %v, want an error naming the file and saying %s", text, err, want)
		}
	}
	m, err := parse(writeFile(t, dir, "ok.mutant", "why: w\nfile: raft.go\n--- find\n\ta\n\tb\n--- replace\n\tc\n"))
	if err != nil || m.name != "ok" || m.find != "\ta\n\tb" || m.replace != "\tc" || m.file != "raft.go" || m.why != "w" {
		t.Fatalf("got %+v, %v", m, err)
	}
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMutantOfASubpackage: a mutant may name a file below the source
// directory (quorum/majority.go under raftcore); the overlay substitutes
// the changed copy for exactly that file, and a file at the top still works
// as before.
func TestMutantOfASubpackage(t *testing.T) {
	src := t.TempDir()
	writeFile(t, src, "top.go", "package top\nconst n = 1\n")
	if err := os.Mkdir(filepath.Join(src, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "sub"), "a.go", "package sub\nconst q = 2\n")
	for _, m := range []mutant{
		{name: "sub", file: "sub/a.go", find: "q = 2", replace: "q = 3"},
		{name: "top", file: "top.go", find: "n = 1", replace: "n = 0"},
	} {
		tmp := t.TempDir()
		path, err := overlay(m, src, tmp)
		if err != nil {
			t.Fatalf("%s: %v", m.name, err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var o struct{ Replace map[string]string }
		if err := json.Unmarshal(data, &o); err != nil {
			t.Fatal(err)
		}
		target, _ := filepath.Abs(filepath.Join(src, filepath.FromSlash(m.file)))
		changed, ok := o.Replace[target]
		if !ok || len(o.Replace) != 1 {
			t.Fatalf("%s: overlay %v does not replace exactly %s", m.name, o.Replace, target)
		}
		got, err := os.ReadFile(changed)
		if err != nil || !strings.Contains(string(got), m.replace) || strings.Contains(string(got), m.find) {
			t.Errorf("%s: the changed copy reads %q (%v), want %q in place of %q", m.name, got, err, m.replace, m.find)
		}
	}
	if _, err := overlay(mutant{name: "gone", file: "sub/a.go", find: "absent", replace: "x"}, src, t.TempDir()); err == nil || !strings.Contains(err.Error(), "occurs 0 times in sub/a.go") {
		t.Errorf("a find text that is not there: got %v", err)
	}
}
