package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
)

// Exit codes. They are part of the documented interface: scripts and CI
// tell a broken rule (1) from a mistake in what they passed in (2).
const (
	exitOK        = 0
	exitViolation = 1
	exitInput     = 2
)

const usage = `raftsim runs raftlab's Raft simulation without a screen and prints JSON.

Usage:
  raftsim run -f FILE [-snapshot-count N] [-catch-up-entries N] [-trace FILE] [-strict]
  raftsim run -scenario ID [-set NAME=VALUE]... [-seed N] [-trace FILE] [-strict]
  raftsim list
  raftsim export -scenario ID [-set NAME=VALUE]... [-seed N]
  raftsim random -seed N [-nodes N] [-protocol P] [-run [-strict]]
  raftsim explore [-nodes N] [-terms N] [-writes N] [-reads N] [-depth N] [-faults N]
                  [-max-states N] [-members N] [-reconfigs N] [-snapshot-count N]
                  [-bug NAME | -from FILE] [-schedule FILE]
                  [-base URL]
  raftsim help

Commands:
  run      play a schedule file or a book scenario; print a JSON summary
  list     print the scenario ids and titles
  export   print a scenario as a schedule file to edit and run with -f
  random   play a random fault run; print the schedule it played
           (or, with -run, its summary)
  explore  try every choice of a small cluster within bounds, checking every
           safety rule in every state; print the count of states and the
           shortest run that breaks a rule, if one does
  help     print this text (so do -h and --help)

Flags:
  -f FILE           schedule in JSON; - reads standard input
  -scenario ID      a scenario id, as 'raftsim list' prints them
  -set NAME=VALUE   a scenario setting, e.g. -set protocol=raft; repeatable
  -seed N           random seed (a schedule file names its own; a scenario
                    has a default)
  -snapshot-count N run -f: entries each machine applies between snapshots
                    (0: none), over the file's snapshot_count (default 100;
                    etcd's --snapshot-count is 100000); explore: snapshot
                    every N+1 applied entries and compact at once, so that
                    short runs send and restore snapshots (default 0: none)
  -catch-up-entries N
                    run -f: entries kept before a snapshot for followers a
                    little behind, over the file's catch_up_entries
                    (default 20; etcd keeps 5000)
  -trace FILE       also write every trace event to FILE, one JSON object a line
  -strict           exit 1 on any violation, also for naive-copy and failover
                    and for the rule a figure sets out to show broken
  -nodes N          random: cluster size, 1 to 9 (default: 2 to 9 by seed)
  -protocol P       random: raft, naive-copy or failover (default raft)
  -run              random: print the summary instead of the schedule
  -terms N          explore: highest term a machine may reach (default 2)
  -writes N         explore: client writes along a run (default 1)
  -reads N          explore: client reads, linearizable or lease, along a run
                    (default 1)
  -depth N          explore: actions along a run (default 9)
  -faults N         explore: drops, repeats and crashes along a run (default 1)
  -max-states N     explore: give up after N distinct states (default 10000000)
  -members N        explore: machines 1..N start as voters, the rest as spares
                    (default 0: every machine a voter)
  -reconfigs N      explore: membership actions (add, add-learner, promote,
                    remove, joint, transfer-leader) along a run (default 0)
  -bug NAME         explore: break one rule of Raft on purpose, to see the
                    shortest run that shows it (vote-twice, skip-up-to-date,
                    commit-old-term, commit-without-majority, no-truncate,
                    keep-commit-on-restart, read-without-confirm,
                    direct-switch, count-learners, second-pending-change,
                    apply-on-append, snapshot-uncommitted,
                    restore-old-snapshot, compact-without-snapshot)
  -from FILE        explore: start from the end of this schedule instead of
                    a fresh cluster
  -schedule FILE    explore: save the shortest failing run for 'run -f'
  -base URL         explore: the lab's address to put before the share link

Exit status:
  0  no rule was broken; naive-copy and failover runs exit 0 even when they
     break rules (that is what they show), unless -strict is given, and so
     does a figure that breaks only the rule it sets out to show
  1  a rule was broken in a raft run (any run with -strict), a raft
     run was not live once calm (the summary's liveness), a scenario
     did not show what it is for, or explore found a broken rule or
     stopped at -max-states
  2  bad input: flags, an unreadable file, invalid JSON, a field out of
     range, or an unknown scenario; the message names the field

Examples:
  raftsim run -f docs/examples/partition-3-2.json
  raftsim run -f - < schedule.json
  raftsim run -f schedule.json -trace trace.jsonl
  raftsim run -scenario majority
  raftsim export -scenario majority > mine.json && raftsim run -f mine.json
  raftsim random -seed 42 -nodes 5 > seed42.json
  raftsim random -seed 42 -protocol failover -run -strict
  raftsim explore -terms 2 -writes 1 -faults 1 -depth 9
  raftsim explore -bug vote-twice -writes 0 -depth 8 -schedule cex.json

docs/raftsim.md describes the schedule format and every summary key.
`

// cli is one invocation: its streams stand in for the process's so that
// tests can run commands in-process.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// raftsim runs the command line args and returns the exit code.
func raftsim(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitInput
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "run":
		return c.run(rest)
	case "list":
		return c.list(rest)
	case "export":
		return c.export(rest)
	case "random":
		return c.random(rest)
	case "explore":
		return c.explore(rest)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	return c.inputError("", "unknown command %q; use run, list, export, random, explore or help", cmd)
}

// inputError reports bad input on stderr and returns exitInput.
func (c *cli) inputError(cmd, format string, a ...any) int {
	prefix := "raftsim"
	if cmd != "" {
		prefix += " " + cmd
	}
	fmt.Fprintf(c.stderr, "%s: %s\nRun 'raftsim help' for usage.\n", prefix, fmt.Sprintf(format, a...))
	return exitInput
}

// parse parses a command's flags. When it returns false, the command is
// over and code is its exit code (help was printed, or the flags were bad).
func (c *cli) parse(fs *flag.FlagSet, args []string) (set map[string]bool, code int, ok bool) {
	// The flag package's own messages and usage are replaced by ours.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(c.stdout, usage)
		return nil, exitOK, false
	}
	if err != nil {
		return nil, c.inputError(fs.Name(), "%v", err), false
	}
	if fs.NArg() > 0 {
		return nil, c.inputError(fs.Name(), "unexpected argument %q (flags come as -name value)", fs.Arg(0)), false
	}
	set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set, exitOK, true
}

// writeJSON prints v indented, as every command's output is. Characters
// like < and > are written as they are: the output is read by people and
// tools, never embedded in HTML.
func (c *cli) writeJSON(v any) int {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		// Only a bug in this program could make a summary unencodable.
		fmt.Fprintf(c.stderr, "raftsim: encoding output: %v\n", err)
		return exitViolation
	}
	if _, err := c.stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(c.stderr, "raftsim: writing output: %v\n", err)
		return exitInput
	}
	return exitOK
}

// verdict is the exit code for a finished run: a broken rule fails a raft
// run, while naive-copy and failover break rules by design and only fail
// with -strict. A raft run that the liveness judge finds not live fails
// too: a machine that never catches up breaks no safety rule. A lost update is not a broken rule: Raft does not promise
// to prevent it (it is the lesson of the figure versioned-truth), so it is
// reported and fails the run only with -strict; so are the reconcile
// checks' findings (an object created twice, a cache that diverged).
func (c *cli) verdict(s raftcore.Summary, strict bool) int {
	code := exitOK
	if n := s.LostUpdateCount; n > 0 {
		code = c.notARule(code, strict, fmt.Sprintf("%d lost %s (%s): a read-modify-write overwrote a change it had not read; not a violation of Raft's rules", n, plural(n, "update", "updates"), raftcore.RuleLostUpdate))
	}
	if k := s.Reconcile; k != nil && len(k.Facts) > 0 {
		n := k.Counts.Duplicates + k.Counts.Diverged
		code = c.notARule(code, strict, fmt.Sprintf("%d reconcile %s (%s): a controller's cache or what it created disagrees with the store; not a violation of Raft's rules", n, plural(n, "finding", "findings"), reconcileRules(k.Counts)))
	}
	if s.Liveness.Verdict == raftcore.NotLive {
		// Only raft is judged: the naive protocols promise no progress.
		fmt.Fprintf(c.stderr, "raftsim: not live: %s\n", strings.Join(s.Liveness.Problems, "; "))
		code = exitViolation
	}
	if len(s.ViolationCounts) == 0 {
		return code
	}
	what := rulesBroken(s)
	if s.Protocol != raftcore.ProtocolRaft && !strict {
		fmt.Fprintf(c.stderr, "raftsim: %s in a %s run, as that protocol allows; -strict makes this exit 1\n", what, s.Protocol)
		return code
	}
	fmt.Fprintf(c.stderr, "raftsim: %s%s\n", what, staleVerdicts(s))
	return exitViolation
}

// notARule reports a finding that breaks none of Raft's rules: it fails
// the run (code becomes exitViolation) only under -strict.
func (c *cli) notARule(code int, strict bool, what string) int {
	if !strict {
		fmt.Fprintf(c.stderr, "raftsim: %s; -strict makes this exit 1\n", what)
		return code
	}
	fmt.Fprintf(c.stderr, "raftsim: %s\n", what)
	return exitViolation
}

// reconcileRules names the reconcile checks that found something.
func reconcileRules(c raftcore.ReconcileCounts) string {
	var rules []string
	if c.Duplicates > 0 {
		rules = append(rules, string(raftcore.RuleCreatedTwice))
	}
	if c.Diverged > 0 {
		rules = append(rules, string(raftcore.RuleCacheDiverged))
	}
	return strings.Join(rules, ", ")
}

// staleVerdicts names the reads and compare-and-swaps porcupine found not
// linearizable, if any, after the rules a run broke: the client's side of
// a stale read, from what clients saw rather than from the logs.
func staleVerdicts(s raftcore.Summary) string {
	var reads []string
	for _, op := range s.Ops {
		switch {
		case op.Verdict != string(linearize.Stale):
		case op.Missed != 0:
			reads = append(reads, fmt.Sprintf("%s %d (it missed write %d)", op.Kind, op.ID, op.Missed))
		default:
			reads = append(reads, fmt.Sprintf("%s %d", op.Kind, op.ID))
		}
	}
	if len(reads) == 0 {
		return ""
	}
	return "; not linearizable (porcupine): " + strings.Join(reads, ", ")
}

// rulesBroken says how many violations a run had, of which rules.
func rulesBroken(s raftcore.Summary) string {
	total := 0
	rules := make([]string, 0, len(s.ViolationCounts))
	for r, n := range s.ViolationCounts {
		total += n
		rules = append(rules, string(r))
	}
	sort.Strings(rules)
	return fmt.Sprintf("%d %s (%s)", total, plural(total, "violation", "violations"), strings.Join(rules, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// traceFile is an output file for -trace. It is created before the run so
// that an unwritable path fails at once, as bad input, not after a long run.
// Events are written as the run records them, through a buffer: the run
// itself keeps only its newest events, so a virtual day fits in memory.
type traceFile struct {
	path string
	f    *os.File
	buf  *bufio.Writer
	enc  *json.Encoder
	err  error // the first write that failed; later events are not written
}

func (c *cli) createTrace(cmd, path string) (*traceFile, int, bool) {
	if path == "" {
		return nil, exitOK, true
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, c.inputError(cmd, "-trace: %v", err), false
	}
	t := &traceFile{path: path, f: f, buf: bufio.NewWriter(f)}
	t.enc = json.NewEncoder(t.buf)
	t.enc.SetEscapeHTML(false)
	return t, exitOK, true
}

// sink is what the run hands its events to: nil without -trace.
func (t *traceFile) sink() func(raftcore.TraceEvent) {
	if t == nil {
		return nil
	}
	return t.event
}

// event writes one event as one JSON object a line.
func (t *traceFile) event(e raftcore.TraceEvent) {
	if t.err == nil {
		t.err = t.enc.Encode(e)
	}
}

// abandon closes and removes a trace file whose run did not happen.
func (t *traceFile) abandon() {
	if t == nil {
		return
	}
	t.f.Close()
	os.Remove(t.path)
}

// writeKept writes the events w kept, which must be all of them: a
// scenario's run keeps its whole trace.
func (t *traceFile) writeKept(w *raftcore.World) error {
	if t == nil {
		return nil
	}
	events := w.Trace()
	if uint64(len(events)) != w.TraceCount() {
		t.abandon()
		return fmt.Errorf("-trace: the run kept only the last %d of its %d events", len(events), w.TraceCount())
	}
	for _, e := range events {
		t.event(e)
	}
	return t.finish()
}

// finish flushes and closes the file once the run's events are written.
func (t *traceFile) finish() error {
	if t == nil {
		return nil
	}
	if t.err == nil {
		t.err = t.buf.Flush()
	}
	if err := t.f.Close(); t.err == nil {
		t.err = err
	}
	if t.err != nil {
		return fmt.Errorf("-trace: %v", t.err)
	}
	return nil
}
