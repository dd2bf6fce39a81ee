package words

import (
	"strings"
	"testing"

	"raftlab/raftcore"
)

// TestARefusalSaysWhy: each reason a refusal carries shows in its label and
// its sentence in Raft's words, and in the chapter's words without Raft's
// vocabulary; a refusal with no reason keeps the bare words.
func TestARefusalSaysWhy(t *testing.T) {
	cfg := threeMachines()
	raft := Voice{Cfg: &cfg}
	plain := Voice{Cfg: &cfg, Level: LevelCopies}
	cases := []struct {
		m              raftcore.Message
		label, sayHint string
	}{
		{raftcore.Message{Type: raftcore.MsgVoteResp, From: 3, To: 1, Term: 2, Reject: true, Why: raftcore.RejectAlreadyVoted},
			"vote no: voted", "already voted for another candidate in term 2"},
		{raftcore.Message{Type: raftcore.MsgVoteResp, From: 3, To: 1, Term: 2, Reject: true, Why: raftcore.RejectHasLeader},
			"vote no: has leader", "already follows a leader in term 2"},
		{raftcore.Message{Type: raftcore.MsgPreVoteResp, From: 3, To: 1, Term: 2, Reject: true, Why: raftcore.RejectLogBehind},
			"pre-vote no: log behind", "C refuses A its pre-vote: A's log is not as up to date as C's"},
		{raftcore.Message{Type: raftcore.MsgPreVoteResp, From: 3, To: 1, Term: 5, Reject: true, Why: raftcore.RejectLowerTerm},
			"pre-vote no: old term", "older than C's term 5"},
		{raftcore.Message{Type: raftcore.MsgAppResp, From: 3, To: 1, Index: 4, Reject: true, Why: raftcore.RejectLogMismatch},
			"append no: no match at 4", "no entry matching index 4"},
		{raftcore.Message{Type: raftcore.MsgAppResp, From: 3, To: 1, Term: 6, Why: raftcore.RejectLowerTerm},
			"newer term 6", "tells it of term 6: A is no longer leader"},
		{raftcore.Message{Type: raftcore.MsgVoteResp, From: 3, To: 1, Term: 2, Reject: true},
			"vote no", "A is refused by C."},
	}
	for _, c := range cases {
		if got := raft.MsgLabel(&c.m); got != c.label {
			t.Errorf("%v %v: label %q, want %q", c.m.Type, c.m.Why, got, c.label)
		}
		if got := raft.MsgSentence(&c.m); !strings.Contains(got, c.sayHint) {
			t.Errorf("%v %v: sentence %q lacks %q", c.m.Type, c.m.Why, got, c.sayHint)
		}
		for _, said := range []string{plain.MsgLabel(&c.m), plain.MsgSentence(&c.m)} {
			if raftWords.MatchString(said) {
				t.Errorf("%v %v: %q speaks Raft's words before the chapter does", c.m.Type, c.m.Why, said)
			}
		}
	}
	if got := plain.MsgSentence(&cases[0].m); !strings.Contains(got, "backs another") {
		t.Errorf("the chapter's words give no reason: %q", got)
	}
	if got := raft.Ignored(raftcore.MsgPreVote); got != "pre-vote ignored: leader alive" {
		t.Errorf("an ignored pre-vote is tagged %q", got)
	}
}

// TestSettingsAndClusterWritesInWords: a setting changed midway and a
// write sent to the cluster are told as such on the timeline and in the
// banner.
func TestSettingsAndClusterWritesInWords(t *testing.T) {
	cfg := threeMachines()
	for _, c := range []struct {
		a    raftcore.Action
		want string
	}{
		{raftcore.Action{Do: raftcore.DoSet, Setting: raftcore.SettingPreVote, Value: "off"}, "PreVote turned off"},
		{raftcore.Action{Do: raftcore.DoSet, Setting: "commit-old-term", Value: "on"}, "The bug commit-old-term turned on"},
		{raftcore.Action{Do: raftcore.DoWrite, Key: "k", Value: "v"}, "Client asked the cluster to write k = v"},
	} {
		if got := Action(cfg, c.a); got != c.want {
			t.Errorf("%v: %q, want %q", c.a, got, c.want)
		}
	}
	if got := SettingChanged(raftcore.SettingCheckQuorum, false, 1_500_000); !strings.HasPrefix(got, "CheckQuorum is off from 1.500 s on") {
		t.Errorf("the note says %q", got)
	}
}
