package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/scenarios"
)

func scenarioOut(t *testing.T, stdout string) scenarioSummary {
	t.Helper()
	var s scenarioSummary
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("scenario summary is not the documented JSON: %v\n%s", err, stdout)
	}
	return s
}

func TestListAlignsEveryScenario(t *testing.T) {
	out := mustRun(t, exitOK, "", "list")
	all := scenarios.All()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(all) || len(all) == 0 {
		t.Fatalf("%d lines for %d scenarios:\n%s", len(lines), len(all), out)
	}
	col := -1
	for i, s := range all {
		if !strings.HasPrefix(lines[i], s.ID+" ") || !strings.HasSuffix(lines[i], s.Title) {
			t.Errorf("line %d is %q, want %s and %q", i+1, lines[i], s.ID, s.Title)
			continue
		}
		at := len(lines[i]) - len(s.Title)
		if col == -1 {
			col = at
		}
		if at != col {
			t.Errorf("title of %s starts at column %d, others at %d", s.ID, at, col)
		}
	}
}

// TestEveryScenarioRunsAndExportReplays plays every scenario, with every
// value of every setting it offers, and replays its export through run -f:
// the two must be the same run.
func TestEveryScenarioRunsAndExportReplays(t *testing.T) {
	for _, sc := range scenarios.All() {
		variants := [][]string{nil}
		for _, k := range sc.Knobs {
			for _, v := range k.Values {
				if v != k.Default {
					variants = append(variants, []string{"-set", k.Name + "=" + v})
				}
			}
		}
		for _, sets := range variants {
			name := sc.ID + strings.Join(sets[min(1, len(sets)):], "")
			t.Run(name, func(t *testing.T) {
				variant := sc
				if len(sets) > 0 {
					name, value, _ := strings.Cut(sets[1], "=")
					var err error
					if variant, err = sc.With(name, value); err != nil {
						t.Fatal(err)
					}
				}
				args := append([]string{"run", "-scenario", sc.ID}, sets...)
				code, out, errOut := cmd(t, "", args...)
				got := scenarioOut(t, out)
				if got.Scenario != sc.ID || got.Steps != len(variant.Steps) || got.StepsReached > got.Steps ||
					got.StepsReached != len(got.Reached) || got.Final == "" || got.Expect == "" {
					t.Fatalf("scenario keys: %+v", got)
				}
				if len(sets) > 0 {
					kv := strings.SplitN(sets[1], "=", 2)
					if got.Settings[kv[0]] != kv[1] {
						t.Errorf("settings %v do not show %s", got.Settings, sets[1])
					}
				}
				// A raft run that breaks a rule fails, unless breaking it
				// is the figure's point.
				unshown := 0
				for _, v := range got.Violations {
					if !slices.Contains(variant.Shows, v.Rule) {
						unshown++
					}
				}
				want := exitOK
				if got.Expect != "ok" || (unshown > 0 && got.Protocol == raftcore.ProtocolRaft) {
					want = exitViolation
				}
				if code != want {
					t.Fatalf("exit %d, want %d (expect %q, %d violations under %s); stderr: %s",
						code, want, got.Expect, len(got.Violations), got.Protocol, errOut)
				}
				if got.Expect != "ok" {
					t.Errorf("autoplay did not make its point: %s", got.Expect)
				}

				schedule := mustRun(t, exitOK, "", append([]string{"export", "-scenario", sc.ID}, sets...)...)
				if _, err := raftcore.ParseSchedule([]byte(schedule)); err != nil {
					t.Fatalf("export printed an invalid schedule: %v", err)
				}
				code, replayOut, errOut := cmd(t, schedule, "run", "-f", "-")
				replay := summary(t, replayOut)
				if replay.TraceHash != got.TraceHash || replay.TraceEvents != got.TraceEvents {
					t.Fatalf("export replays to trace %s (%d events), the scenario ran %s (%d)",
						replay.TraceHash, replay.TraceEvents, got.TraceHash, got.TraceEvents)
				}
				if !reflect.DeepEqual(replay, got.Summary) {
					t.Error("same trace, different summaries")
				}
				if code != exitOK && code != exitViolation {
					t.Fatalf("replay exit %d: %s", code, errOut)
				}
			})
		}
	}
}

// A figure that sets out to show a broken rule exits 0 when its run breaks
// it, saying so, and 1 under -strict; with the setting under which the rule
// holds, the run breaks nothing.
func TestScenarioThatShowsABrokenRule(t *testing.T) {
	code, out, errOut := cmd(t, "", "run", "-scenario", "clock-drift")
	if code != exitOK || !strings.Contains(errOut, "stale-read") || !strings.Contains(errOut, "sets out to show") {
		t.Fatalf("clock-drift: exit %d, stderr %q; want 0 and the stale reads named", code, errOut)
	}
	if s := scenarioOut(t, out); s.ViolationCounts[raftcore.RuleStaleRead] == 0 || s.Expect != "ok" {
		t.Fatalf("clock-drift: %v violations, expect %q", s.ViolationCounts, s.Expect)
	}
	if code, _, _ := cmd(t, "", "run", "-scenario", "clock-drift", "-strict"); code != exitViolation {
		t.Fatalf("clock-drift -strict: exit %d, want 1", code)
	}
	s := scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "clock-drift", "-set", "reads=ReadIndex", "-strict"))
	if len(s.Violations) != 0 {
		t.Fatalf("clock-drift with ReadIndex broke %v", s.ViolationCounts)
	}
}

func TestScenarioSeedChangesTheRun(t *testing.T) {
	a := scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "majority"))
	b := scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "majority", "-seed", "9"))
	if a.Seed == 9 || b.Seed != 9 || a.TraceHash == b.TraceHash {
		t.Fatalf("seed %d trace %s, seed %d trace %s", a.Seed, a.TraceHash, b.Seed, b.TraceHash)
	}
	export := mustRun(t, exitOK, "", "export", "-scenario", "majority", "-seed", "9")
	if r := summary(t, mustRun(t, exitOK, export, "run", "-f", "-")); r.TraceHash != b.TraceHash {
		t.Fatalf("export -seed 9 replays to %s, run -seed 9 gave %s", r.TraceHash, b.TraceHash)
	}
}

func TestScenarioStrictFailsNaiveProtocols(t *testing.T) {
	tried := 0
	for _, sc := range scenarios.All() {
		out := mustRun(t, exitOK, "", "run", "-scenario", sc.ID)
		s := scenarioOut(t, out)
		if s.Protocol == raftcore.ProtocolRaft || len(s.Violations) == 0 {
			continue
		}
		tried++
		code, strictOut, _ := cmd(t, "", "run", "-scenario", sc.ID, "-strict")
		if code != exitViolation || strictOut != out {
			t.Errorf("%s with -strict: exit %d, want 1 and the same summary", sc.ID, code)
		}
	}
	if tried == 0 {
		t.Fatal("no scenario runs a naive protocol that breaks a rule")
	}
}

func TestScenarioTraceFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "trace.jsonl")
	s := scenarioOut(t, mustRun(t, exitOK, "", "run", "-scenario", "majority", "-trace", path))
	if lines := readTrace(t, path); uint64(len(lines)) != s.TraceEvents {
		t.Fatalf("trace file has %d events, the summary counts %d", len(lines), s.TraceEvents)
	}
}

func TestScenarioBadInput(t *testing.T) {
	ids := scenarios.All()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"run", "-scenario", "nope"}, []string{`-scenario: unknown id "nope"; use one of`}},
		{[]string{"run", "-scenario", ""}, []string{"-scenario: no id given"}},
		{[]string{"export", "-scenario", "nope"}, []string{`unknown id "nope"`}},
		{[]string{"export"}, []string{"-scenario ID is required"}},
		{[]string{"run", "-scenario", "two-leaders", "-set", "protocol"}, []string{"want name=value"}},
		{[]string{"run", "-scenario", "two-leaders", "-set", "speed=2"}, []string{"-set speed: scenario two-leaders has no such setting; it has protocol"}},
		{[]string{"export", "-scenario", "two-leaders", "-set", "protocol=paxos"}, []string{`-set protocol: "paxos" is not offered`}},
		{[]string{"run", "-f", "x.json", "-set", "protocol=raft"}, []string{"-set goes with -scenario"}},
		{[]string{"list", "extra"}, []string{`unexpected argument "extra"`}},
	}
	for _, tc := range tests {
		code, out, errOut := cmd(t, "", tc.args...)
		if code != exitInput || out != "" {
			t.Errorf("raftsim %s: exit %d, stdout %q; want 2 and nothing", strings.Join(tc.args, " "), code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("raftsim %s: stderr %q lacks %q", strings.Join(tc.args, " "), errOut, w)
			}
		}
		if strings.Contains(errOut, "unknown id") {
			for _, s := range ids {
				if !strings.Contains(errOut, s.ID) {
					t.Errorf("unknown id message does not list %s", s.ID)
				}
			}
		}
	}
}
