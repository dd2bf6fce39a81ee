package words

import (
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// run is a timeline of cfg played by the actions given at their moments
// (µs after the previous one), ended by after µs more.
type step struct {
	waitUs int64
	act    raftcore.Action
}

func run(t *testing.T, cfg raftcore.Config, steps []step, afterUs int64) *timeline.Timeline {
	t.Helper()
	tl, err := timeline.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range steps {
		tl.Advance(s.waitUs)
		if err := tl.Act(s.act); err != nil {
			t.Fatalf("act %v: %v", s.act, err)
		}
	}
	tl.Advance(afterUs)
	return tl
}

// said is every mark's words, in order.
func said(cfg raftcore.Config, tl *timeline.Timeline) []string {
	var out []string
	for _, m := range tl.Marks() {
		out = append(out, MarkText(cfg, m))
	}
	return out
}

// saysSome fails unless some of texts starts with each of want.
func saysSome(t *testing.T, texts []string, want ...string) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, s := range texts {
			found = found || strings.HasPrefix(s, w)
		}
		if !found {
			t.Errorf("no mark says %q; the marks say:\n%s", w, strings.Join(texts, "\n"))
		}
	}
}

func threeMachines() raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Seed = 7
	cfg.Nodes, cfg.Names = 3, []string{"A", "B", "C"}
	return cfg
}

// TestMarksSayTheRun: a machine elected, a write asked, answered and
// committed, a split and a heal, each told from its mark's facts.
func TestMarksSayTheRun(t *testing.T) {
	cfg := threeMachines()
	tl := run(t, cfg, []step{
		{0, raftcore.Action{Do: raftcore.DoTimeout, Node: 1}},
		{1_000_000, raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "deployments/web", Value: "v1"}},
		{1_000_000, raftcore.Action{Do: raftcore.DoPartition, Groups: [][]int{{1}, {2, 3}}}},
		{4_000_000, raftcore.Action{Do: raftcore.DoHeal}},
	}, 2_000_000)
	saysSome(t, said(cfg, tl),
		"A won the election for term ",
		"a client asks A to write deployments/web = v1",
		"write deployments/web = v1 at A: done, rev 2, after ",
		"leader A committed the log up to entry ",
		"network split into A | B C",
		"network healed: every link works again")
}

// TestMarksSayABrokenRuleAndATakeover: under failover a second authority
// takes over and the checker's words say which rule broke.
func TestMarksSayABrokenRuleAndATakeover(t *testing.T) {
	cfg := threeMachines()
	cfg.Protocol = raftcore.ProtocolFailover
	tl := run(t, cfg, []step{
		{1_000_000, raftcore.Action{Do: raftcore.DoPause, Node: 1}},
		{5_000_000, raftcore.Action{Do: raftcore.DoResume, Node: 1}},
	}, 2_000_000)
	texts := said(cfg, tl)
	saysSome(t, texts, "rule broken (single-authority): ")
	if !strings.Contains(strings.Join(texts, "\n"), " took over as an authority") {
		t.Errorf("no mark says a machine took over; the marks say:\n%s", strings.Join(texts, "\n"))
	}
}

// TestAClientOperationIsSaidOnce: a client mark's answer says what the
// client panel's line says, and how long it took; a controller's swap that
// found a newer revision says so in the same words in both.
func TestAClientOperationIsSaidOnce(t *testing.T) {
	cfg := threeMachines()
	tl := run(t, cfg, []step{
		{0, raftcore.Action{Do: raftcore.DoTimeout, Node: 1}},
		{1_000_000, raftcore.Action{Do: raftcore.DoWrite, Node: 1, Key: "obj", Value: "replicas=2"}},
		{1_000_000, raftcore.Action{Do: raftcore.DoControl, Node: 2, Key: "obj", Change: "replicas+1", ThinkMs: 900, Cas: true}},
		{300_000, raftcore.Action{Do: raftcore.DoControl, Node: 3, Key: "obj", Change: "image=web:2", ThinkMs: 100, Cas: true}},
	}, 3_000_000)
	answers := 0
	for _, m := range tl.Marks() {
		if m.Kind != timeline.MarkClient || !m.Answer {
			continue
		}
		answers++
		line := OpLine(cfg, *m.Op)
		if got := MarkText(cfg, m); !strings.HasPrefix(got, line+", after ") {
			t.Errorf("the mark says %q, the client panel %q", got, line)
		}
	}
	if answers < 5 {
		t.Fatalf("%d answers; want the write and both controllers' reads and writes", answers)
	}
	saysSome(t, said(cfg, tl),
		"controller 1 asks B to read obj linearizably",
		"controller 1: read obj linearizably at B: replicas=2 (rev 2), after ",
		"controller 2: write obj = replicas=2 image=web:2 if at rev 2 at C: done, rev 3, after ",
		"controller 1: write obj = replicas=3 if at rev 2 at B: swap failed, found rev 3, after ")

	// Controllers the configuration names go by their names.
	cfg.Controllers = []string{"the scaler", "the deployer"}
	saysSome(t, said(cfg, tl),
		"the scaler asks B to read obj linearizably",
		"the deployer: write obj = replicas=2 image=web:2 if at rev 2 at C: done, rev 3, after ")
	f := raftcore.Finding{Op: 5, Controller: 1, ReadRev: 2, OverwroteRev: 3, LostValue: "replicas=2 image=web:2"}
	if got, want := LostUpdate(cfg, f), "#5, the scaler's write, was computed from rev 2 but replaced rev 3 (replicas=2 image=web:2)"; got != want {
		t.Errorf("the lost update is said %q, want %q", got, want)
	}
}

// TestMergedMarksSayHowManyAndWhen: a mark standing for several moments
// counts them and gives their span.
func TestMergedMarksSayHowManyAndWhen(t *testing.T) {
	cfg := threeMachines()
	m := timeline.Mark{Kind: timeline.MarkCommit, Count: 4, At: timeline.Position{AtUs: 1_500_000}, End: timeline.Position{AtUs: 3_000_000}}
	if got, want := MarkText(cfg, m), "4 commits from 1.5 s to 3.0 s"; got != want {
		t.Errorf("merged commits: %q, want %q", got, want)
	}
	m.Kind = timeline.MarkElection
	plain := Voice{Cfg: &cfg, Level: LevelInCharge}
	if got, want := plain.MarkText(m), "4 times a machine took charge from 1.5 s to 3.0 s"; got != want {
		t.Errorf("merged elections in plain words: %q, want %q", got, want)
	}
	copies := Voice{Cfg: &cfg, Level: LevelCopies}
	if got, want := copies.MarkText(m), "4 times a machine began taking the writes from 1.5 s to 3.0 s"; got != want {
		t.Errorf("merged elections before a machine is in charge: %q, want %q", got, want)
	}
}

// TestActionWordsForExplorationActions: the actions an exploration takes
// read as words in the app's list of moments, not as raw action text.
func TestActionWordsForExplorationActions(t *testing.T) {
	cfg := threeMachines()
	for a, want := range map[raftcore.Verb]string{
		raftcore.DoDeliver:   "message 7 was delivered at once",
		raftcore.DoRepeat:    "message 7 was sent a second time",
		raftcore.DoHeartbeat: "B's heartbeat timer was made to fire",
	} {
		m := timeline.Mark{Kind: timeline.MarkFault, Count: 1, Action: &raftcore.Action{Do: a, ID: 7, Node: 2}}
		if got := MarkText(cfg, m); got != want {
			t.Errorf("%s: %q, want %q", a, got, want)
		}
	}
}

// TestTimerActionInWords: a timer set by hand reads the same in the
// banner's note (as a sentence) and on the timeline.
func TestTimerActionInWords(t *testing.T) {
	cfg := raftcore.DefaultConfig()
	cfg.Names = []string{"A", "B", "C", "D", "E"}
	x := raftcore.Action{Do: raftcore.DoTimer, Node: 2, Ms: 250}
	if got, want := Action(cfg, x), "B's election timer was set to run out in 250 ms"; got != want {
		t.Errorf("Action = %q, want %q", got, want)
	}
	m := timeline.Mark{Kind: timeline.MarkFault, Count: 1, Node: 2, Action: &x}
	if got, want := MarkText(cfg, m), "B's election timer was set to run out in 250 ms"; got != want {
		t.Errorf("MarkText = %q, want %q", got, want)
	}
}
