package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryMutantStillApplies keeps the list current in `go test`: each
// mutant's search text occurs exactly once in the raftcore file it names,
// so `make mutants` will not stop on a stale entry.
func TestEveryMutantStillApplies(t *testing.T) {
	mutants, err := load("../../raftcore/testdata/mutants")
	if err != nil {
		t.Fatal(err)
	}
	if len(mutants) < 3 {
		t.Fatalf("only %d mutants", len(mutants))
	}
	for _, m := range mutants {
		src, err := os.ReadFile(filepath.Join("../../raftcore", m.file))
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
		"why: x\n--- find\na\n--- replace\nb\n":                `no "file:" line`,
		"file: raft.go\n--- find\na\n--- replace\nb\n":         `no "why:" line`,
		"why: x\nfile: raft.go\n--- replace\nb\n":              `no "--- find" block`,
		"why: x\nfile: raft.go\n--- find\na\n--- replace\na\n": "changes nothing",
		"why: x\nfile: raft.go\nstray\n--- find\na\n":          `:3: want`,
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
