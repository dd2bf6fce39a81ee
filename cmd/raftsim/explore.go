package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"raftlab/raftcore"
	"raftlab/raftcore/explore"
	"raftlab/raftcore/timeline"
)

// exploreReport is what `raftsim explore` prints.
type exploreReport struct {
	explore.Bounds
	Bug         string `json:"bug,omitempty"`
	States      int    `json:"states"`
	Transitions int    `json:"transitions"`
	Levels      []int  `json:"levels"`
	Exhausted   bool   `json:"exhausted"`
	// Seconds and StatesPerSecond are measured on the wall clock: they
	// vary from run to run, unlike everything else here.
	Seconds         float64                `json:"seconds"`
	StatesPerSecond float64                `json:"states_per_second"`
	Violations      []raftcore.Violation   `json:"violations"`
	Counterexample  *exploreCounterexample `json:"counterexample,omitempty"`
}

// exploreCounterexample is a shortest run to a broken rule, three ways: the
// steps in words, a schedule for `raftsim run -f`, and a share link.
type exploreCounterexample struct {
	Steps    []string          `json:"steps"`
	Schedule raftcore.Schedule `json:"schedule"`
	Link     string            `json:"link"`
}

func (c *cli) explore(args []string) int {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	b := explore.Bounds{}
	fs.IntVar(&b.Nodes, "nodes", 3, "")
	fs.IntVar(&b.Terms, "terms", 2, "")
	fs.IntVar(&b.Writes, "writes", 1, "")
	fs.IntVar(&b.Reads, "reads", 1, "")
	fs.IntVar(&b.Depth, "depth", 9, "")
	fs.IntVar(&b.Faults, "faults", 1, "")
	fs.IntVar(&b.MaxStates, "max-states", 10_000_000, "")
	fs.IntVar(&b.Members, "members", 0, "")
	fs.IntVar(&b.Reconfigs, "reconfigs", 0, "")
	fs.IntVar(&b.SnapshotCount, "snapshot-count", 0, "")
	bugName := fs.String("bug", "", "")
	schedulePath := fs.String("schedule", "", "")
	base := fs.String("base", "", "")
	from := fs.String("from", "", "")
	set, code, ok := c.parse(fs, args)
	if !ok {
		return code
	}
	if err := b.Validate(); err != nil {
		return c.inputError("explore", "-%v", err)
	}
	var start *raftcore.World
	if set["from"] {
		if start, code, ok = c.startState(*from, &b, set["nodes"]); !ok {
			return code
		}
	}
	bug, err := bugNamed(*bugName)
	if err != nil {
		return c.inputError("explore", "-bug: %v", err)
	}
	began := time.Now()
	var res explore.Result
	if start != nil {
		if bug != 0 {
			return c.inputError("explore", "-bug goes without -from: the schedule names its own bugs in options.bugs")
		}
		res, err = explore.ExploreFrom(start, b)
	} else {
		res, err = explore.Explore(b, bug)
	}
	if err != nil {
		return c.inputError("explore", "%v", err)
	}
	secs := time.Since(began).Seconds()
	rep := exploreReport{Bounds: b, Bug: *bugName, States: res.States, Transitions: res.Transitions, Levels: res.Levels,
		Exhausted: res.Exhausted, Seconds: secs, StatesPerSecond: float64(res.States) / max(secs, 1e-9), Violations: []raftcore.Violation{}}
	ce := res.Counterexample
	if ce != nil {
		if code, ok := c.keepCounterexample(&rep, ce, *base, *schedulePath); !ok {
			return code
		}
	}
	if code := c.writeJSON(rep); code != exitOK {
		return code
	}
	switch {
	case ce != nil:
		c.tellCounterexample(ce, *schedulePath)
		return exitViolation
	case !res.Exhausted:
		fmt.Fprintf(c.stderr, "raftsim explore: stopped at -max-states %d before the space within %s was exhausted\n", b.MaxStates, b)
		return exitViolation
	}
	fmt.Fprintf(c.stderr, "raftsim explore: %s: %d distinct states, no rule broken (%.0f states/s)\n", b, res.States, rep.StatesPerSecond)
	return exitOK
}

// bugNamed is the deliberate bug -bug names: none for "", an error listing
// the known names for any other unknown name.
func bugNamed(name string) (raftcore.Bug, error) {
	if name == "" {
		return 0, nil
	}
	var names []string
	for _, x := range raftcore.Bugs {
		if x.Name == name {
			return x.Bug, nil
		}
		names = append(names, x.Name)
	}
	return 0, fmt.Errorf("unknown bug %q; use one of %s", name, strings.Join(names, ", "))
}

// keepCounterexample puts a shortest run to a broken rule into the report,
// with its share link, and saves it as a schedule where -schedule asks.
func (c *cli) keepCounterexample(rep *exploreReport, ce *explore.Counterexample, base, schedulePath string) (int, bool) {
	rep.Violations = ce.Violations
	link, err := timeline.EncodeLink(timeline.Link{Config: ce.Schedule.Config(), Actions: ce.Schedule.Actions})
	if err != nil {
		fmt.Fprintf(c.stderr, "raftsim explore: making the share link: %v\n", err)
		return exitViolation, false
	}
	rep.Counterexample = &exploreCounterexample{Schedule: ce.Schedule, Link: base + "?link=" + link}
	for _, a := range ce.Schedule.Actions {
		rep.Counterexample.Steps = append(rep.Counterexample.Steps, a.String())
	}
	if schedulePath != "" {
		data, _ := json.MarshalIndent(ce.Schedule, "", "  ")
		if err := os.WriteFile(schedulePath, append(data, '\n'), 0o644); err != nil {
			return c.inputError("explore", "-schedule: %v", err), false
		}
	}
	return exitOK, true
}

// tellCounterexample says on stderr which rule broke, the steps that broke
// it, and how to replay them.
func (c *cli) tellCounterexample(ce *explore.Counterexample, schedulePath string) {
	v := ce.Violations[0]
	fmt.Fprintf(c.stderr, "raftsim explore: %s after %d steps: %s\n", v.Rule, ce.Steps(), v.Text)
	for i, a := range ce.Schedule.Actions {
		fmt.Fprintf(c.stderr, "  %2d. %s\n", i+1, a.String())
	}
	if schedulePath != "" {
		fmt.Fprintf(c.stderr, "raftsim explore: replay with: raftsim run -f %s\n", schedulePath)
	} else {
		fmt.Fprintf(c.stderr, "raftsim explore: add -schedule FILE to save the run for raftsim run -f\n")
	}
}

// startState plays the schedule in file to its end, the state -from
// explores from, and sets the bounds' machine count from it.
func (c *cli) startState(file string, b *explore.Bounds, nodesSet bool) (*raftcore.World, int, bool) {
	if file == "" {
		return nil, c.inputError("explore", "-from: empty file name (use - for standard input)"), false
	}
	s, code, ok := c.readSchedule("explore", "from", file)
	if !ok {
		return nil, code, false
	}
	cfg := s.Config()
	if nodesSet && b.Nodes != cfg.Nodes {
		return nil, c.inputError("explore", "-nodes %d does not match the %d machines of %s", b.Nodes, cfg.Nodes, displayName(file)), false
	}
	b.Nodes = cfg.Nodes
	cfg.TraceLimit = explore.Config(cfg.Nodes, cfg.Bugs).TraceLimit
	w, err := raftcore.NewWorld(cfg)
	if err == nil {
		err = w.Play(s.Actions)
	}
	if err != nil {
		return nil, c.inputError("explore", "%s: %v", displayName(file), err), false
	}
	w.RunUntil(int64(math.Round(s.UntilMs * 1000)))
	return w, exitOK, true
}
