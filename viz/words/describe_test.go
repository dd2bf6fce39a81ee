package words

import (
	"testing"

	"raftlab/raftcore"
)

// TestTheDescriptionTellsTheScene: a figure with a crashed machine, a
// leader, a link cut one way and a machine behind, in a few sentences.
func TestTheDescriptionTellsTheScene(t *testing.T) {
	cfg := threeMachines()
	v := Voice{Cfg: &cfg}
	all := []raftcore.NodeID{1, 2, 3}
	got := v.Describe(Scene{Title: "Majority", Machines: all, Crashed: []raftcore.NodeID{3}, Leader: 1, Term: 2,
		Cut: []CutLink{{From: 2, To: 1, OneWay: true}}, Committed: 3, Behind: []raftcore.NodeID{3}, Violations: 1})
	want := "Majority. 3 machines: A, B and C. C is crashed. A leads (term 2). Cut link: B→A. Committed: entries 1 to 3. C does not know it yet. 1 safety rule broken."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	got = v.Describe(Scene{Machines: all, Leader: raftcore.None, Sides: [][]raftcore.NodeID{{1, 2}, {3}}, Committed: 1, Behind: all})
	want = "3 machines: A, B and C. No machine leads. The network is split into 2 sides: A and B; C. Committed: entry 1."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// TestTheDescriptionClimbsTheLadder: who leads is told in each rung's
// words, with an old leader that has not heard of the new one told as
// still believing; the failover's authorities are told together, and
// naive-copy, where none leads, says nothing of it.
func TestTheDescriptionClimbsTheLadder(t *testing.T) {
	cfg := threeMachines()
	all := []raftcore.NodeID{1, 2, 3}
	split := Scene{Machines: all, Leader: 3, Term: 2, Believers: []Believer{{Node: 1, Term: 1}}, Sides: [][]raftcore.NodeID{{1}, {2, 3}}}
	for _, c := range []struct {
		level Level
		want  string
	}{
		{LevelRaft, "C leads (term 2). A still believes it leads (term 1)."},
		{LevelContract, "C is in charge. A still believes it is in charge."},
		{LevelInCharge, "C is in charge. A still believes it is in charge."},
		{LevelCopies, "C takes the writes. A still believes it takes the writes."},
	} {
		v := Voice{Cfg: &cfg, Level: c.level}
		want := "3 machines: A, B and C. " + c.want + " The network is split into 2 sides: A; B and C. Nothing is committed yet."
		if got := v.Describe(split); got != want {
			t.Errorf("level %d:\n got %q\nwant %q", c.level, got, want)
		}
	}
	failover := threeMachines()
	failover.Protocol = raftcore.ProtocolFailover
	v := Voice{Cfg: &failover, Level: LevelInCharge}
	if got, want := v.Describe(split), "3 machines: A, B and C. C and A both act as the authority. The network is split into 2 sides: A; B and C. Nothing is committed yet."; got != want {
		t.Errorf("two authorities:\n got %q\nwant %q", got, want)
	}
	if got, want := v.AuthoritiesNow([]raftcore.NodeID{1, 3}), "A and C both act as the authority now."; got != want {
		t.Errorf("announcing two authorities: %q, want %q", got, want)
	}
	naive := threeMachines()
	naive.Protocol = raftcore.ProtocolNaiveCopy
	v = Voice{Cfg: &naive, Level: LevelCopies}
	if got, want := v.Describe(Scene{Machines: all, Leader: raftcore.None}), "3 machines: A, B and C. Every link is up. Nothing is committed yet."; got != want {
		t.Errorf("naive-copy:\n got %q\nwant %q", got, want)
	}
}

// TestNotesSayWhatWasDone: the notes a stroke across links and the timer
// keys leave.
func TestNotesSayWhatWasDone(t *testing.T) {
	cfg := threeMachines()
	for _, c := range []struct{ got, want string }{
		{CutNote(cfg, []raftcore.Action{{Do: raftcore.DoCut, From: 1, To: 2}, {Do: raftcore.DoCut, From: 1, To: 3}}), "Cut A–B, A–C."},
		{CutNote(cfg, []raftcore.Action{{Do: raftcore.DoRestore, From: 2, To: 3}}), "Restored B–C."},
		{Spread("B", 150_000, 900_000, true, ""), "B's timer runs out first, in 150 ms; every other one 900 ms or more later, once its request has reached them."},
		{Spread("B", 150_000, -1, false, "A"), "B's timer runs out first, in 150 ms; the others hear A."},
		{Spread("B", 150_000, -1, false, ""), "B's timer runs out first, in 150 ms; no other timer is running."},
		{Forked("", 2_500_000), "Acting at 2.500 s started a new run from there; the run you left is kept on the timeline."},
	} {
		if c.got != c.want {
			t.Errorf("got  %q\nwant %q", c.got, c.want)
		}
	}
}
