package words

import (
	"strings"
	"testing"

	"raftlab/internal/linearize"
	"raftlab/raftcore"
)

// TestAMachineIsDescribedFromItsFacts: the Node panel's lines for a slowed,
// drifting machine with messages waiting, a follower not heard from, a
// waiting write and an answered read.
func TestAMachineIsDescribedFromItsFacts(t *testing.T) {
	cfg := threeMachines()
	v := Voice{Cfg: &cfg}
	for _, c := range []struct{ got, want string }{
		{Running(raftcore.StatusPaused, 20, 0.5, 3), "paused, 20x slower, clock at 0.5x, 3 messages queued"},
		{Running(raftcore.StatusUp, 1, 1, 0), "up"},
		{Progress("B", raftcore.Progress{Match: 4, Next: 5, State: raftcore.ProgressReplicate, RecentActive: true}), "B: match 4, next 5, replicate"},
		{Progress("C", raftcore.Progress{Match: 0, Next: 3}), "C: match 0, next 3, probe, not heard lately"},
		{v.EntryRow(raftcore.Entry{Index: 3, Term: 2, Data: put("k", "v")}), "3 (term 2): k=v"},
		{Tally(3, 1, 2, 1, 2), "3 done, 1 waiting, 2 failed, 1 swap refused, 2 stale reads"},
		{SentAt(1_500_000, 2, 3), "sent at t = 1.500 s, held by 2 of 3"},
		{SentAt(1_500_000, -1, 3), "sent at t = 1.500 s"},
		{v.ClientRow(raftcore.Op{ID: 7, Kind: raftcore.DoRead, Key: "k", Mode: raftcore.ReadLocal, Node: 2, Result: raftcore.OpOK, ReadFound: true, ReadValue: "v", ReadRev: 3},
			"20 ms", linearize.ReadVerdict{Verdict: linearize.Stale, Missed: 5}, true),
			"#7 read k locally at B: v (rev 3) (20 ms), stale: missed #5"},
		{Answer(raftcore.Answer{Name: "A", Answered: true, Exists: true, Value: "replicas=3", ModIndex: 1, Applied: 2}), "A: YES: replicas=3 (set at index 1; applied up to 2)"},
		{Answer(raftcore.Answer{Name: "C", Answered: true, Paused: true, Applied: 0}), "C: NO (applied up to 0), paused: answering from what it had when it stopped"},
		{Answer(raftcore.Answer{Name: "B"}), "B: no answer: the machine is down"},
		{ClockLine(-150_000, true, 2, 3_200_000), "150 ms behind, alert (runs at 2x); leads, lease to 3.200 s"},
		{ClockLine(0, false, 1, -1), "exact"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// TestTheDiagramNamesEveryMove: every arrow of the roles diagram, and
// every cause of a move, has its words; the causes read as the trace
// names them.
func TestTheDiagramNamesEveryMove(t *testing.T) {
	F, P, C, L := raftcore.RoleFollower, raftcore.RolePreCandidate, raftcore.RoleCandidate, raftcore.RoleLeader
	for _, e := range []struct {
		from, to raftcore.Role
		want     string
	}{{F, P, "timeout"}, {F, C, "timeout"}, {P, C, "pre-vote won"}, {C, L, "majority votes"}, {P, F, "gave up"}, {C, F, "higher term, or another machine won"}, {L, F, "discovered a higher term"}, {C, C, "new election"}} {
		if got := RoleEdge(e.from, e.to); got != e.want {
			t.Errorf("%s → %s: %q, want %q", e.from, e.to, got, e.want)
		}
	}
	for c := raftcore.CauseStart; c <= raftcore.CauseAuthoritySilent; c++ {
		if got := Cause(c); got != c.String() {
			t.Errorf("cause %d: the diagram says %q, the trace %q", c, got, c)
		}
	}
}

// TestRulesInPlainWords: a rule with plain words says them where the
// screen speaks plainly, and Raft's words otherwise; one without keeps
// its words.
func TestRulesInPlainWords(t *testing.T) {
	cfg := threeMachines()
	raft, plain := Voice{Cfg: &cfg}, Voice{Cfg: &cfg, Level: LevelInCharge}
	if got := raft.RuleText(raftcore.RuleElectionSafety); got != "At most one leader per term" {
		t.Errorf("election safety: %q", got)
	}
	if got := plain.RuleText(raftcore.RuleElectionSafety); got != "At most one machine is put in charge at each handover" {
		t.Errorf("election safety in plain words: %q", got)
	}
	if got := plain.RuleBroken(raftcore.RuleMajority, "A applied x held by 1 of 3"); got != "Only what a majority holds is committed: A applied x held by 1 of 3" {
		t.Errorf("a broken rule: %q", got)
	}
	copies := Voice{Cfg: &cfg, Level: LevelCopies}
	if got := copies.RuleText(raftcore.RuleElectionSafety); got != "At most one machine is given the writes at each handover" {
		t.Errorf("election safety before a machine is in charge: %q", got)
	}
	hidden := Voice{Cfg: &cfg, Level: LevelContract, HideRule: true}
	for _, v := range []Voice{copies, hidden} {
		if got := v.RuleText(raftcore.RuleMajority); got != "Only what enough machines hold is committed" {
			t.Errorf("the majority rule, kept from the reader: %q", got)
		}
	}
	seen := map[raftcore.Rule]bool{}
	for _, r := range Rules() {
		if seen[r] || raft.RuleText(r) == string(r) {
			t.Errorf("rule %s is listed twice or has no words", r)
		}
		seen[r] = true
	}
}

// TestRefusalsReadAsTheTraceSaysThem: a refused request's reason, in
// Raft's words, is the trace's; in plain words, those that name leaders
// or elections say neither.
func TestRefusalsReadAsTheTraceSaysThem(t *testing.T) {
	for r := raftcore.RefusedNoLeader; r <= raftcore.RefusedCrashed; r++ {
		if got := Refusal(r, LevelRaft); got != r.String() {
			t.Errorf("refusal %d: %q, the trace says %q", r, got, r)
		}
		if got := Refusal(r, LevelInCharge); raftWords.MatchString(got) {
			t.Errorf("refusal %d in plain words: %q", r, got)
		}
		if got := Refusal(r, LevelCopies); raftWords.MatchString(got) || strings.Contains(got, "in charge") {
			t.Errorf("refusal %d before a machine is in charge: %q", r, got)
		}
	}
}
