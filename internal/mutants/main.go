// Command mutants is raftcore's mutation test (`make mutants`). Each file in
// raftcore/testdata/mutants describes one single-rule bug as a search and
// replace on one source file of raftcore or of a package below it (the file
// is named relative to raftcore, as raft.go or quorum/majority.go). For
// each, in turn, it compiles the
// tests with the bug in place and runs them, bounded in time, and reports
// which test caught the bug and how long that took. It exits 1 if any bug
// survives (no test failed), and 2 if the list is out of date (a search text
// is no longer found exactly once, or the changed code does not compile).
//
// The bug goes in through `go test -overlay`, so the working tree is never
// changed: an interrupted run leaves nothing behind.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// mutant is one deliberate bug.
type mutant struct {
	name, why, file string
	find, replace   string
}

// outcome is what the tests did with one mutant.
type outcome struct {
	caughtBy []string // the failing tests, first failure first
	elapsed  time.Duration
	timedOut bool
	// broken says why the mutant could not be tried at all.
	broken string
}

func main() {
	dir := flag.String("dir", "raftcore/testdata/mutants", "directory of .mutant files")
	src := flag.String("src", "raftcore", "directory the mutants' files are named relative to")
	only := flag.String("only", "", "try only the mutants whose name contains this")
	bound := flag.Duration("bound", 6*time.Minute, "time allowed for the tests of one mutant")
	pkgs := flag.String("pkgs", "./raftcore/ ./raftcore/quorum/ ./internal/indepcheck/", "packages whose tests must catch each mutant")
	flag.Parse()
	mutants, err := load(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	fmt.Printf("%-28s %7s  %s\n", "mutant", "time", "caught by (first failure of each package)")
	survived, broken := 0, 0
	for _, m := range mutants {
		if *only != "" && !strings.Contains(m.name, *only) {
			continue
		}
		o := try(m, *src, strings.Fields(*pkgs), *bound)
		verdict := ""
		switch {
		case o.broken != "":
			broken++
			verdict = "LIST OUT OF DATE: " + o.broken
		case o.timedOut && len(o.caughtBy) == 0:
			survived++
			verdict = fmt.Sprintf("SURVIVED (no test failed within %s)", *bound)
		case len(o.caughtBy) == 0:
			survived++
			verdict = "SURVIVED"
		default:
			verdict = caughtBy(o.caughtBy)
		}
		fmt.Printf("%-28s %6.1fs  %s\n", m.name, o.elapsed.Seconds(), verdict)
	}
	switch {
	case broken > 0:
		fmt.Fprintf(os.Stderr, "mutants: %d mutant(s) no longer apply: update %s\n", broken, *dir)
		os.Exit(2)
	case survived > 0:
		fmt.Fprintf(os.Stderr, "mutants: %d mutant(s) survived: no test notices the bug\n", survived)
		os.Exit(1)
	}
}

// caughtBy names the first few tests that failed and counts the rest, so
// that a mutant that breaks everything still fits on a line.
func caughtBy(tests []string) string {
	const shown = 4
	if len(tests) <= shown {
		return strings.Join(tests, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(tests[:shown], ", "), len(tests)-shown)
}

// load reads every .mutant file in dir, in name order. A file is a few
// "key: value" lines (why, file) followed by "--- find" and "--- replace"
// blocks, each running to the next marker or the end of the file.
func load(dir string) ([]mutant, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.mutant"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no .mutant files in %s", dir)
	}
	sort.Strings(paths)
	var out []mutant
	for _, p := range paths {
		m, err := parse(p)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

func parse(path string) (mutant, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return mutant{}, err
	}
	m := mutant{name: strings.TrimSuffix(filepath.Base(path), ".mutant")}
	var block *string
	var find, replace []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		t := sc.Text()
		switch {
		case t == "--- find":
			block = &m.find
			continue
		case t == "--- replace":
			block = &m.replace
			continue
		}
		if block == &m.find {
			find = append(find, t)
			continue
		}
		if block == &m.replace {
			replace = append(replace, t)
			continue
		}
		key, value, ok := strings.Cut(t, ": ")
		switch {
		case ok && key == "why":
			m.why = value
		case ok && key == "file":
			m.file = value
		case strings.TrimSpace(t) == "":
		default:
			return mutant{}, fmt.Errorf("%s:%d: want \"why: ...\", \"file: ...\", \"--- find\" or \"--- replace\", got %q", path, line, t)
		}
	}
	m.find, m.replace = strings.Join(find, "\n"), strings.Join(replace, "\n")
	switch {
	case m.file == "":
		return mutant{}, fmt.Errorf("%s: no \"file:\" line", path)
	case !filepath.IsLocal(filepath.FromSlash(m.file)) || filepath.ToSlash(filepath.Clean(m.file)) != m.file:
		return mutant{}, fmt.Errorf("%s: file %q is not a plain path inside the source directory, as raft.go or quorum/majority.go", path, m.file)
	case m.why == "":
		return mutant{}, fmt.Errorf("%s: no \"why:\" line saying what the bug breaks", path)
	case m.find == "":
		return mutant{}, fmt.Errorf("%s: no \"--- find\" block", path)
	case m.find == m.replace:
		return mutant{}, fmt.Errorf("%s: the replacement changes nothing", path)
	}
	return m, nil
}

// overlay writes, under tmp, the file m names with the bug in place and a
// `go build -overlay` file that substitutes it for the original under src,
// and returns the overlay file's path.
func overlay(m mutant, src, tmp string) (string, error) {
	target, err := filepath.Abs(filepath.Join(src, filepath.FromSlash(m.file)))
	if err != nil {
		return "", err
	}
	orig, err := os.ReadFile(target)
	if err != nil {
		return "", err
	}
	if n := strings.Count(string(orig), m.find); n != 1 {
		return "", fmt.Errorf("the find text occurs %d times in %s", n, m.file)
	}
	changed := filepath.Join(tmp, "src", filepath.FromSlash(m.file))
	if err := os.MkdirAll(filepath.Dir(changed), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(changed, []byte(strings.Replace(string(orig), m.find, m.replace, 1)), 0o644); err != nil {
		return "", err
	}
	data, _ := json.Marshal(map[string]map[string]string{"Replace": {target: changed}})
	overlayPath := filepath.Join(tmp, "overlay.json")
	return overlayPath, os.WriteFile(overlayPath, data, 0o644)
}

// try runs the tests with mutant m in place.
func try(m mutant, src string, pkgs []string, bound time.Duration) outcome {
	tmp, err := os.MkdirTemp("", "mutant-")
	if err != nil {
		return outcome{broken: err.Error()}
	}
	defer os.RemoveAll(tmp)
	overlayPath, err := overlay(m, src, tmp)
	if err != nil {
		return outcome{broken: err.Error()}
	}

	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	// -failfast: a package's tests stop at their first failure. Running
	// the rest would only lengthen the report, and some tests meant for a
	// sound engine can take far longer on a broken one.
	args := append([]string{"test", "-count=1", "-failfast", "-json", "-overlay", overlayPath,
		"-timeout", bound.String()}, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	// A stuck test binary must die with the go command, not linger.
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return outcome{broken: err.Error()}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return outcome{broken: err.Error()}
	}
	failed, buildFailed := readEvents(out)
	err = cmd.Wait()
	o := outcome{caughtBy: failed, elapsed: time.Since(start), timedOut: errors.Is(ctx.Err(), context.DeadlineExceeded)}
	if buildFailed || (err != nil && len(failed) == 0 && !o.timedOut) {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i > 0 {
			msg = msg[:i]
		}
		o.broken = "the tests did not build or run: " + msg
	}
	return o
}

// readEvents reads `go test -json` output and returns the top-level tests
// that failed, in the order they failed, and whether a package failed to
// build.
func readEvents(r io.Reader) (failed []string, buildFailed bool) {
	dec := json.NewDecoder(r)
	for {
		var e struct {
			Action, Package, Test, Output string
		}
		if err := dec.Decode(&e); err != nil {
			return failed, buildFailed
		}
		switch {
		case e.Action == "fail" && e.Test != "":
			top, _, _ := strings.Cut(e.Test, "/")
			if !slices.Contains(failed, top) {
				failed = append(failed, top)
			}
		case e.Action == "build-fail", e.Action == "output" && strings.Contains(e.Output, "[build failed]"):
			buildFailed = true
		}
	}
}
