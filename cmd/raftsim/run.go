package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"raftlab/raftcore"
)

// runTraceKeep is how many of its newest trace events a schedule's run
// keeps in memory: nothing reads them after the run (the summary's counters
// are counted as events are recorded, and -trace streams them to its file),
// and a virtual day of nine machines records 27 million.
const runTraceKeep = 1024

// run is `raftsim run`: a schedule file (-f) or a scenario (-scenario).
func (c *cli) run(args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	file := fs.String("f", "", "")
	scenario := fs.String("scenario", "", "")
	seed := fs.Int64("seed", 0, "")
	tracePath := fs.String("trace", "", "")
	strict := fs.Bool("strict", false, "")
	snapCount := fs.Int("snapshot-count", 0, "")
	catchUp := fs.Int("catch-up-entries", 0, "")
	var sets settingsFlag
	fs.Var(&sets, "set", "")
	set, code, ok := c.parse(fs, args)
	if !ok {
		return code
	}
	switch {
	case set["f"] && set["scenario"]:
		return c.inputError("run", "-f and -scenario cannot be used together: run a file or a scenario")
	case !set["f"] && !set["scenario"]:
		return c.inputError("run", "nothing to run: give -f FILE (- for standard input) or -scenario ID")
	case set["f"] && set["seed"]:
		return c.inputError("run", "-seed goes with -scenario; a schedule file sets its own \"seed\"")
	case set["f"] && set["set"]:
		return c.inputError("run", "-set goes with -scenario; a schedule file sets its own options")
	case set["f"] && *file == "":
		return c.inputError("run", "-f: empty file name (use - for standard input)")
	case set["scenario"] && (set["snapshot-count"] || set["catch-up-entries"]):
		return c.inputError("run", "-snapshot-count and -catch-up-entries go with -f; a scenario sets its own")
	case set["scenario"]:
		return c.runScenario(*scenario, sets, *seed, set["seed"], *tracePath, *strict)
	}
	s, code, ok := c.readSchedule("run", "f", *file)
	if !ok {
		return code
	}
	if set["snapshot-count"] || set["catch-up-entries"] {
		if s, ok = c.snapshotFlags(s, set, *snapCount, *catchUp); !ok {
			return exitInput
		}
	}
	trace, code, ok := c.createTrace("run", *tracePath)
	if !ok {
		return code
	}
	w, err := s.RunTraced(runTraceKeep, trace.sink())
	if err != nil {
		trace.abandon()
		return c.inputError("run", "%s: %v", displayName(*file), err)
	}
	if err := trace.finish(); err != nil {
		return c.inputError("run", "%v", err)
	}
	sum := summarize(w)
	if code := c.writeJSON(sum); code != exitOK {
		return code
	}
	return c.verdict(sum, *strict)
}

// snapshotFlags sets the schedule's snapshot options from -snapshot-count
// and -catch-up-entries, which win over the file's, and checks them.
func (c *cli) snapshotFlags(s raftcore.Schedule, set map[string]bool, count, catchUp int) (raftcore.Schedule, bool) {
	o := raftcore.ScheduleOptions{}
	if s.Options != nil {
		o = *s.Options
	}
	if set["snapshot-count"] {
		o.SnapshotCount = &count
	}
	if set["catch-up-entries"] {
		o.CatchUpEntries = &catchUp
	}
	s.Options = &o
	cfg := s.Config()
	switch {
	case cfg.SnapshotCount < 0 || cfg.SnapshotCount > raftcore.MaxSnapshotCount:
		c.inputError("run", "-snapshot-count: %d is out of range: use 0 (no snapshots) to %d", cfg.SnapshotCount, raftcore.MaxSnapshotCount)
		return s, false
	case cfg.CatchUpEntries < 0 || cfg.CatchUpEntries > raftcore.MaxSnapshotCount:
		c.inputError("run", "-catch-up-entries: %d is out of range: use 0 to %d", cfg.CatchUpEntries, raftcore.MaxSnapshotCount)
		return s, false
	}
	return s, true
}

// readSchedule reads and validates the schedule in file ("-" is stdin),
// given to command cmd with flag -name.
func (c *cli) readSchedule(cmd, name, file string) (raftcore.Schedule, int, bool) {
	var r io.Reader = c.stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return raftcore.Schedule{}, c.inputError(cmd, "-%s: %v", name, err), false
		}
		defer f.Close()
		r = f
	}
	s, err := raftcore.DecodeSchedule(r)
	if err != nil {
		return raftcore.Schedule{}, c.inputError(cmd, "%s: %v", displayName(file), err), false
	}
	return s, exitOK, true
}

func displayName(file string) string {
	if file == "-" {
		return "standard input"
	}
	return file
}

// random is `raftsim random`: a reproducible random fault run.
func (c *cli) random(args []string) int {
	fs := flag.NewFlagSet("random", flag.ContinueOnError)
	seed := fs.Int64("seed", 0, "")
	nodes := fs.Int("nodes", 0, "")
	protocol := fs.String("protocol", string(raftcore.ProtocolRaft), "")
	summary := fs.Bool("run", false, "")
	strict := fs.Bool("strict", false, "")
	set, code, ok := c.parse(fs, args)
	if !ok {
		return code
	}
	if !set["seed"] {
		// A random run is only worth printing if it can be found again.
		return c.inputError("random", "-seed N is required, so that the run can be reproduced")
	}
	if *nodes < 0 || *nodes > raftcore.MaxNodes {
		return c.inputError("random", "-nodes: %d is out of range: use 1 to %d (or leave it out to pick 2 to 9)", *nodes, raftcore.MaxNodes)
	}
	p, err := raftcore.ParseProtocol(*protocol)
	if err != nil {
		return c.inputError("random", "-protocol: %v", err)
	}
	if set["strict"] && !*summary {
		return c.inputError("random", "-strict goes with -run: without it nothing is judged, the schedule is printed")
	}
	w := raftcore.RandomRun(*seed, raftcore.RandomOptions{Nodes: *nodes, Protocol: p})
	if !*summary {
		return c.writeJSON(w.Schedule())
	}
	sum := summarize(w)
	if code := c.writeJSON(sum); code != exitOK {
		return code
	}
	code = c.verdict(sum, *strict)
	if code == exitViolation {
		// The summary alone cannot replay a failure; the schedule can.
		fmt.Fprintf(c.stderr, "raftsim: reproduce with: raftsim random -seed %d%s%s > run.json && raftsim run -f run.json\n",
			*seed, optFlag("nodes", *nodes, set["nodes"]), optFlag("protocol", *protocol, set["protocol"]))
	}
	return code
}

func optFlag(name string, v any, set bool) string {
	if !set {
		return ""
	}
	return fmt.Sprintf(" -%s %v", name, v)
}
