package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"raftlab/raftcore"
	"raftlab/scenarios"
)

// scenarioSummary is the run summary of a scenario's autoplay: the same
// keys as a schedule run, then what the story reached.
type scenarioSummary struct {
	raftcore.Summary
	Scenario string            `json:"scenario"`
	Settings map[string]string `json:"settings"`
	// StepsReached counts the story's steps reached, of Steps.
	StepsReached int           `json:"steps_reached"`
	Steps        int           `json:"steps"`
	Reached      []reachedStep `json:"reached"`
	Final        string        `json:"final"`
	// Expect is "ok" when the run made the figure's point, else what was
	// missing.
	Expect string `json:"expect"`
}

type reachedStep struct {
	Step int     `json:"step"`
	AtMs float64 `json:"at_ms"`
	Text string  `json:"text"`
}

// settingsFlag collects repeated -set name=value flags.
type settingsFlag []string

func (s *settingsFlag) String() string { return strings.Join(*s, ",") }

func (s *settingsFlag) Set(v string) error {
	if name, value, ok := strings.Cut(v, "="); !ok || name == "" || value == "" {
		return fmt.Errorf("want name=value, e.g. protocol=raft")
	}
	*s = append(*s, v)
	return nil
}

// scenario finds scenario id with the given settings applied, and the seed
// to run it with: -seed if given, else the scenario's own.
func (c *cli) scenario(cmd, id string, sets settingsFlag, seed int64, seedSet bool) (*scenarios.Scenario, int64, int, bool) {
	s, err := scenarios.Get(id)
	if err != nil {
		return nil, 0, c.inputError(cmd, "-scenario: %v", strings.TrimPrefix(err.Error(), "scenario: ")), false
	}
	for _, kv := range sets {
		name, value, _ := strings.Cut(kv, "=")
		if s, err = s.With(name, value); err != nil {
			return nil, 0, c.inputError(cmd, "-set %v", err), false
		}
	}
	if !seedSet {
		seed = s.Base.Seed
	}
	return s, seed, exitOK, true
}

// runScenario is `raftsim run -scenario`.
func (c *cli) runScenario(id string, sets settingsFlag, seed int64, seedSet bool, tracePath string, strict bool) int {
	s, seed, code, ok := c.scenario("run", id, sets, seed, seedSet)
	if !ok {
		return code
	}
	trace, code, ok := c.createTrace("run", tracePath)
	if !ok {
		return code
	}
	if trace != nil {
		// Keep every event for the file; the trace hash covers all of
		// them either way, so the run is the same.
		s.Base.TraceLimit = 0
	}
	w, res, err := s.Run(seed)
	if err != nil {
		trace.abandon()
		fmt.Fprintf(c.stderr, "raftsim run: scenario %s cannot be played: %v\n", s.ID, err)
		return exitViolation
	}
	if err := trace.writeKept(w); err != nil {
		return c.inputError("run", "%v", err)
	}
	out := scenarioSummary{
		Summary:      summarize(w),
		Scenario:     s.ID,
		Settings:     map[string]string{},
		StepsReached: len(res.StepsReached),
		Steps:        len(s.Steps),
		Reached:      []reachedStep{},
		Final:        res.Final,
		Expect:       "ok",
	}
	for _, st := range s.Settings {
		out.Settings[st.Knob] = st.Value
	}
	for i, step := range res.StepsReached {
		out.Reached = append(out.Reached, reachedStep{Step: step, AtMs: res.ReachedAtMs[i], Text: res.Texts[i]})
	}
	if res.Expect != nil {
		out.Expect = res.Expect.Error()
	}
	if code := c.writeJSON(out); code != exitOK {
		return code
	}
	if !strict && res.Expect == nil && onlyShown(out.Summary, s.Shows) {
		fmt.Fprintf(c.stderr, "raftsim: %s, as scenario %s sets out to show; -strict makes this exit 1\n", rulesBroken(out.Summary), s.ID)
		return exitOK
	}
	code = c.verdict(out.Summary, strict)
	if res.Expect != nil {
		fmt.Fprintf(c.stderr, "raftsim: scenario %s did not show what it is for: %v\n", s.ID, res.Expect)
		code = exitViolation
	}
	return code
}

// list is `raftsim list`.
func (c *cli) list(args []string) int {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	if _, code, ok := c.parse(fs, args); !ok {
		return code
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	for _, s := range scenarios.All() {
		fmt.Fprintf(tw, "%s\t%s\n", s.ID, s.Title)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(c.stderr, "raftsim list: %v\n", err)
		return exitInput
	}
	return exitOK
}

// export is `raftsim export`: a scenario's autoplay as a schedule file.
func (c *cli) export(args []string) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	id := fs.String("scenario", "", "")
	seed := fs.Int64("seed", 0, "")
	var sets settingsFlag
	fs.Var(&sets, "set", "")
	set, code, ok := c.parse(fs, args)
	if !ok {
		return code
	}
	if !set["scenario"] {
		return c.inputError("export", "-scenario ID is required; 'raftsim list' prints the ids")
	}
	s, runSeed, code, ok := c.scenario("export", *id, sets, *seed, set["seed"])
	if !ok {
		return code
	}
	return c.writeJSON(s.Schedule(runSeed))
}

// onlyShown reports whether every rule the run broke is one the scenario
// sets out to show broken (and some rule was broken).
func onlyShown(s raftcore.Summary, shows []raftcore.Rule) bool {
	if len(s.ViolationCounts) == 0 {
		return false
	}
	for r := range s.ViolationCounts {
		if !slices.Contains(shows, r) {
			return false
		}
	}
	return true
}
