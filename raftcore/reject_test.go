package raftcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRejectReasonsNameTheirSituation steps one machine into each situation
// a reason names and checks that its answer carries that reason, and that a
// granted vote or a matching append carries none.
func TestRejectReasonsNameTheirSituation(t *testing.T) {
	cases := []struct {
		name   string
		node   func() *Node
		msg    Message
		typ    MsgType
		reject bool
		why    RejectReason
	}{
		{"a second candidate of the same term", func() *Node {
			n := loneNode(3, 3, 2, None)
			n.vote = 1
			return n
		}, Message{Type: MsgVote, From: 2, To: 3, Term: 2}, MsgVoteResp, true, RejectAlreadyVoted},
		{"a candidate of a term that has a leader", func() *Node { return loneNode(3, 3, 2, 1) },
			Message{Type: MsgVote, From: 2, To: 3, Term: 2}, MsgVoteResp, true, RejectHasLeader},
		{"a candidate whose last term is lower", func() *Node { return loneNode(3, 3, 1, None, 1, 2) },
			Message{Type: MsgVote, From: 2, To: 3, Term: 3, Index: 5, LogTerm: 1}, MsgVoteResp, true, RejectLogBehind},
		{"a candidate with fewer entries of the same last term", func() *Node { return loneNode(3, 3, 1, None, 1, 1) },
			Message{Type: MsgPreVote, From: 2, To: 3, Term: 2, Index: 1, LogTerm: 1}, MsgPreVoteResp, true, RejectLogBehind},
		{"a pre-vote for a term older than the voter's", func() *Node { return loneNode(3, 3, 5, None) },
			Message{Type: MsgPreVote, From: 2, To: 3, Term: 3}, MsgPreVoteResp, true, RejectLowerTerm},
		{"an append from a leader of an older term", func() *Node { return loneNode(3, 3, 5, None) },
			Message{Type: MsgApp, From: 1, To: 3, Term: 3}, MsgAppResp, false, RejectLowerTerm},
		{"an append whose previous entry is of another term", func() *Node { return loneNode(3, 3, 3, 1, 1, 2) },
			Message{Type: MsgApp, From: 1, To: 3, Term: 3, Index: 2, LogTerm: 3}, MsgAppResp, true, RejectLogMismatch},
		{"an append whose previous entry is past the log's end", func() *Node { return loneNode(3, 3, 3, 1, 1) },
			Message{Type: MsgApp, From: 1, To: 3, Term: 3, Index: 4, LogTerm: 3}, MsgAppResp, true, RejectLogMismatch},
		{"a vote granted", func() *Node { return loneNode(3, 3, 1, None, 1) },
			Message{Type: MsgVote, From: 2, To: 3, Term: 2, Index: 1, LogTerm: 1}, MsgVoteResp, false, RejectNone},
		{"an append that matches", func() *Node { return loneNode(3, 3, 3, 1, 1) },
			Message{Type: MsgApp, From: 1, To: 3, Term: 3, Index: 1, LogTerm: 1}, MsgAppResp, false, RejectNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := c.node()
			require.False(t, n.ignoresInLease(c.msg))
			n.step(c.msg)
			msgs := takeMsgs(n)
			require.Len(t, msgs, 1)
			m := msgs[0]
			assert.Equal(t, c.typ, m.Type)
			assert.Equal(t, c.reject, m.Reject)
			assert.Equal(t, c.why, m.Why, "the answer's reason")
			if c.why == RejectLogMismatch {
				assert.Equal(t, c.msg.Index, m.Index, "a mismatch names the index it was checked at")
			}
		})
	}
}

// TestALiveLeadersFollowerIgnoresAHigherTerm: a follower that heard its
// leader within the election timeout sends no answer to a pre-vote or vote
// of a higher term (CheckQuorum's lease); it answers once the timeout has
// passed without word from the leader, or with CheckQuorum off.
func TestALiveLeadersFollowerIgnoresAHigherTerm(t *testing.T) {
	for _, typ := range []MsgType{MsgPreVote, MsgVote} {
		m := Message{Type: typ, From: 2, To: 3, Term: 3}
		n := loneNode(3, 3, 2, 1)
		require.True(t, n.ignoresInLease(m), "%v within the lease", typ)
		n.step(m)
		assert.Empty(t, takeMsgs(n), "no answer to a %v within the lease", typ)

		n = loneNode(3, 3, 2, 1)
		n.electionElapsed = n.cfg.electionTicks
		assert.False(t, n.ignoresInLease(m), "%v once the leader was silent for a timeout", typ)

		n = loneNode(3, 3, 2, 1)
		n.cfg.checkQuorum = false
		assert.False(t, n.ignoresInLease(m), "%v without CheckQuorum", typ)
	}
}

// TestRejoiningMachineMeetsItsReasons plays two machines that lose touch
// with the leader. With the defaults, one that stops hearing the leader
// while the others still hear it (the link from the leader cut one way)
// sends pre-votes to followers in the leader's lease, which ignore them:
// the trace says so on their delivery. With PreVote and CheckQuorum off, a
// machine cut off while the others committed a write comes back with a
// higher term and a shorter log, and the refusals it gets say its log is
// not up to date.
func TestRejoiningMachineMeetsItsReasons(t *testing.T) {
	w := newTestWorld(t, func(c *Config) { c.Nodes, c.Seed = 5, 1 })
	w.RunUntil(msToUs(2000))
	leader := NodeID(0)
	for id := NodeID(1); id <= 5; id++ {
		if w.Node(id).Role() == RoleLeader {
			leader = id
		}
	}
	require.NotZero(t, leader)
	deaf := leader%5 + 1
	require.NoError(t, w.Apply(Action{AtMs: 2000, Do: DoCut, From: int(leader), To: int(deaf), OneWay: true}))
	w.RunUntil(msToUs(6000))
	ignored := 0
	for _, e := range w.Trace() {
		if e.Kind == TraceDeliver && e.Cause == CauseLeaderAlive {
			ignored++
			assert.Equal(t, deaf, e.Peer, "only the machine that stopped hearing the leader asks")
			assert.Equal(t, MsgPreVote, e.MsgType)
		}
	}
	assert.Positive(t, ignored, "its pre-votes are ignored in the lease")
	assert.Equal(t, RoleLeader, w.Node(leader).Role(), "the leader is not disrupted")

	s := loadScript(t, "no-prevote-rejoin.txt")
	cfg := s.cfg
	cfg.CheckQuorum = false
	w, _ = s.run(t, cfg, 8000)
	seen := map[RejectReason]int{}
	for w.Now() < msToUs(11000) && w.Step() {
		for _, m := range w.InFlight() {
			if m.From != 5 && m.To == 5 && m.Type == MsgVoteResp && m.Reject {
				seen[m.Why]++
			}
		}
	}
	assert.Positive(t, seen[RejectLogBehind], "machines holding the write refuse the shorter log: %v", seen)
}
