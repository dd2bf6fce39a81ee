package words

import (
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/raftcore/timeline"
)

// TestSnapshotMessagesAreSaid: a snapshot on the wire has a tag and a
// sentence of its own, in Raft's words and in the plain ones, naming the
// index it brings the follower to; the plain words speak of no leader.
func TestSnapshotMessagesAreSaid(t *testing.T) {
	cfg := raftcore.DefaultConfig()
	cfg.Names = []string{"A", "B", "C", "D", "E"}
	m := &raftcore.Message{Type: raftcore.MsgSnap, From: 1, To: 3, Term: 2, Snapshot: &raftcore.Snapshot{Index: 120, Term: 2}}
	raft, plain := Voice{Cfg: &cfg}, Voice{Cfg: &cfg, Level: LevelCopies}
	if got := raft.MsgLabel(m); got != "snapshot" {
		t.Errorf("Raft's tag: %q", got)
	}
	if got := plain.MsgLabel(m); got != "whole state" {
		t.Errorf("plain tag: %q", got)
	}
	rs := raft.MsgSentence(m)
	for _, want := range []string{"A (leader, term 2)", "C", "snapshot", "index 120 (term 2)", "compacted"} {
		if !strings.Contains(rs, want) {
			t.Errorf("Raft's sentence %q lacks %q", rs, want)
		}
	}
	ps := plain.MsgSentence(m)
	if !strings.Contains(ps, "entry 120") || raftWords.MatchString(ps) {
		t.Errorf("plain sentence %q: wants entry 120 and none of Raft's words", ps)
	}
}

// TestRestoreMarkIsSaid: the timeline's mark of a machine restoring a
// snapshot says who and up to which entry, and the plain words name no
// leader.
func TestRestoreMarkIsSaid(t *testing.T) {
	cfg := raftcore.DefaultConfig()
	cfg.Names = []string{"A", "B", "C", "D", "E"}
	m := timeline.Mark{Kind: timeline.MarkRestore, Node: 3, Index: 103, Count: 1}
	if got := (Voice{Cfg: &cfg}).MarkText(m); !strings.Contains(got, "C restored") || !strings.Contains(got, "entry 103") {
		t.Errorf("Raft's words: %q", got)
	}
	if got := (Voice{Cfg: &cfg, Level: LevelCopies}).MarkText(m); !strings.Contains(got, "entry 103") || raftWords.MatchString(got) {
		t.Errorf("plain words: %q", got)
	}
	m.Count = 4
	if got := MarkText(cfg, m); !strings.HasPrefix(got, "4 snapshots restored") {
		t.Errorf("merged: %q", got)
	}
}
