package raftcore

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Message-level tests: one machine, no world, messages built by hand. They
// pin single rules of the protocol the way etcd-io/raft's raft_test.go does,
// where a cluster run could pass by luck.

// loneNode is machine id of a cluster of size, holding a log with the given
// terms (index 1 upward), a follower of leader lead in term.
func loneNode(id NodeID, size int, term uint64, lead NodeID, logTerms ...uint64) *Node {
	cfg := &nodeConfig{protocol: ProtocolRaft, size: size, electionTicks: 10, heartbeatTicks: 1,
		preVote: true, checkQuorum: true, maxEntries: 64, maxInflight: 256, voters: allVoters(size),
		boot: newConfState(firstN(size), 0, 0, false)}
	rng := NewRand(1)
	n := newNode(id, cfg, &rng)
	for _, t := range logTerms {
		n.log.appendAfter(n.log.lastIndex(), Entry{Term: t, Data: Command{Kind: OpPut, Key: "k", Value: "v"}})
	}
	n.becomeFollower(term, lead, CauseStart)
	n.msgs = nil
	return n
}

// takeMsgs returns and clears what the machine sent.
func takeMsgs(n *Node) []Message {
	out := n.msgs
	n.msgs = nil
	return out
}

// termsOf lists the terms of n's log.
func termsOf(n *Node) []uint64 {
	out := []uint64{}
	for i := uint64(1); i <= n.log.lastIndex(); i++ {
		out = append(out, n.log.term(i))
	}
	return out
}

func ents(index uint64, terms ...uint64) []Entry {
	out := make([]Entry, len(terms))
	for i, t := range terms {
		out[i] = Entry{Index: index + uint64(i), Term: t, Data: Command{Kind: OpPut, Key: "k", Value: "w"}}
	}
	return out
}

// TestFollowerAppendAndCommitRules steps a follower whose log holds
// entries of terms 1 and 2 with one AppendEntries at a time. It checks the
// consistency check (§5.3), the replacement of conflicting entries, the
// answer's index, and the commit rule: the follower commits up to the
// leader's commit index but never past the last entry this append vouched
// for, since what follows in its log may not be the leader's.
func TestFollowerAppendAndCommitRules(t *testing.T) {
	cases := []struct {
		name              string
		prevIndex, prevTm uint64
		entries           []Entry
		leaderCommit      uint64
		reject            bool
		answer            uint64 // the answer's Index
		commit            uint64
		log               []uint64
	}{
		{"previous term differs", 2, 3, nil, 3, true, 2, 0, []uint64{1, 2}},
		{"previous index past the end", 3, 3, nil, 3, true, 3, 0, []uint64{1, 2}},
		{"matches; commit stops at the previous entry", 1, 1, nil, 1, false, 1, 1, []uint64{1, 2}},
		{"replaces the entry at 1 and what follows", 0, 0, ents(1, 2), 1, false, 1, 1, []uint64{2}},
		{"appends two; commit is the leader's", 2, 2, ents(3, 2, 2), 3, false, 4, 3, []uint64{1, 2, 2, 2}},
		{"appends one; leader commit is past it", 2, 2, ents(3, 2), 4, false, 3, 3, []uint64{1, 2, 2}},
		{"replaces index 2; commit stops there", 1, 1, ents(2, 3), 4, false, 2, 2, []uint64{1, 3}},
		{"empty append after index 1: only 1 is vouched for", 1, 1, nil, 3, false, 1, 1, []uint64{1, 2}},
		{"an entry already there keeps the rest", 1, 1, ents(2, 2), 3, false, 2, 2, []uint64{1, 2}},
		{"empty append at the end", 2, 2, nil, 3, false, 2, 2, []uint64{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := loneNode(2, 3, 3, 1, 1, 2)
			n.step(Message{Type: MsgApp, From: 1, To: 2, Term: 3, Index: c.prevIndex, LogTerm: c.prevTm, Entries: c.entries, Commit: c.leaderCommit})
			msgs := takeMsgs(n)
			require.Len(t, msgs, 1)
			m := msgs[0]
			assert.Equal(t, MsgAppResp, m.Type)
			assert.Equal(t, NodeID(1), m.To)
			assert.Equal(t, c.reject, m.Reject)
			assert.Equal(t, c.answer, m.Index, "the answer's index")
			assert.Equal(t, c.commit, n.commit, "commit index")
			assert.Equal(t, c.log, termsOf(n))
		})
	}
}

// TestFollowerCommitStopsAtTheLastNewEntry: a follower holding stale
// entries past what the leader sent must not commit them, however far the
// leader's commit index reaches: the leader vouched only for its prefix.
func TestFollowerCommitStopsAtTheLastNewEntry(t *testing.T) {
	// Entries 3 and 4 of term 1 were never committed; the leader of term 2
	// has its own entry at 3 and has committed up to 4.
	n := loneNode(2, 3, 2, 1, 1, 1, 1, 1)
	n.step(Message{Type: MsgApp, From: 1, Term: 2, Index: 2, LogTerm: 1, Commit: 4})
	assert.Equal(t, uint64(2), n.commit, "only up to the previous entry the append matched")
	n.step(Message{Type: MsgApp, From: 1, Term: 2, Index: 2, LogTerm: 1, Entries: ents(3, 2), Commit: 4})
	assert.Equal(t, uint64(3), n.commit, "up to the new entry, not the stale one after it")
	assert.Equal(t, []uint64{1, 1, 2}, termsOf(n), "the conflicting entry and all after it go")
	n.step(Message{Type: MsgApp, From: 1, Term: 2, Index: 3, LogTerm: 2, Entries: ents(4, 2), Commit: 4})
	assert.Equal(t, uint64(4), n.commit)
	// A late, shorter append never lowers the commit index.
	n.step(Message{Type: MsgApp, From: 1, Term: 2, Index: 4, LogTerm: 2, Commit: 2})
	assert.Equal(t, uint64(4), n.commit)
}

// TestFollowerAnswersAnAppendBelowItsCommitWithTheCommit: what is committed
// already matches the leader, so an old append is answered with the commit
// index rather than checked again.
func TestFollowerAnswersAnAppendBelowItsCommitWithTheCommit(t *testing.T) {
	n := loneNode(2, 3, 2, 1, 1, 1, 2)
	n.commit = 3
	n.step(Message{Type: MsgApp, From: 1, Term: 2, Index: 1, LogTerm: 1, Entries: ents(2, 1), Commit: 2})
	msgs := takeMsgs(n)
	require.Len(t, msgs, 1)
	assert.False(t, msgs[0].Reject)
	assert.Equal(t, uint64(3), msgs[0].Index)
	assert.Equal(t, []uint64{1, 1, 2}, termsOf(n), "the log is left alone")
}

// newLeader makes machine 1 of a cluster of size the leader of term, with
// entries of the given (earlier) terms already in its log and commit index
// commit, as if it had just won an election.
func newLeader(t *testing.T, size int, term, commit uint64, logTerms ...uint64) *Node {
	t.Helper()
	n := loneNode(1, size, term-1, None, logTerms...)
	n.commit = commit
	n.term = term
	n.vote = 1
	n.becomeLeader()
	takeMsgs(n)
	require.Equal(t, RoleLeader, n.role)
	require.Equal(t, term, n.log.lastTerm(), "the empty entry of the new term")
	return n
}

// ack answers the leader's append as follower from, holding everything up
// to index.
func ack(n *Node, from NodeID, index uint64) {
	n.step(Message{Type: MsgAppResp, From: from, To: n.ID, Term: n.term, Index: index})
}

// TestLeaderCommitsOnlyItsOwnTermByCounting: an entry of an earlier term
// on a majority is not committed by counting (the paper's Figure 8); it is
// committed with the first entry of the leader's own term.
func TestLeaderCommitsOnlyItsOwnTermByCounting(t *testing.T) {
	n := newLeader(t, 5, 3, 1, 1, 2) // index 3 is the new term's empty entry
	ack(n, 2, 2)
	ack(n, 3, 2)
	assert.Equal(t, uint64(1), n.commit, "index 2, of term 2, is on 3 of 5 but not committed")
	ack(n, 2, 3)
	assert.Equal(t, uint64(1), n.commit, "index 3 is on 2 of 5")
	ack(n, 3, 3)
	assert.Equal(t, uint64(3), n.commit, "index 3 on a majority commits 2 with it")
}

// readStatesOf returns and clears the reads the machine confirmed.
func readStatesOf(n *Node) []ReadState {
	out := n.readStates
	n.readStates = nil
	return out
}

// TestNewLeaderServesNoReadIndexBeforeItsTermCommits: a new leader's
// commit index may be behind its predecessor's, so a ReadIndex request
// waits, with no heartbeat round, until an entry of the leader's own term
// commits; the read index it then fixes is that commit index.
func TestNewLeaderServesNoReadIndexBeforeItsTermCommits(t *testing.T) {
	n := newLeader(t, 3, 2, 0, 1, 1) // the predecessor may have committed 1 and 2
	n.step(Message{Type: MsgReadIndex, From: 1, To: 1, Context: 7, Origin: 1})
	assert.Empty(t, readStatesOf(n))
	for _, m := range takeMsgs(n) {
		assert.Zero(t, m.Context, "no read round may start yet: %v", m.Type)
	}
	ack(n, 2, 3) // the empty entry of term 2 commits on machines 1 and 2
	require.Equal(t, uint64(3), n.commit)
	assert.Empty(t, readStatesOf(n), "the read still needs a heartbeat round")
	sawRound := false
	for _, m := range takeMsgs(n) {
		if m.Type == MsgHeartbeat && m.Context == 7 {
			sawRound = true
		}
	}
	require.True(t, sawRound, "the read's heartbeat round starts once the term's entry commits")
	n.step(Message{Type: MsgHeartbeatResp, From: 3, To: 1, Term: 2, Context: 7})
	assert.Equal(t, []ReadState{{Index: 3, Ctx: 7, Term: 2}}, readStatesOf(n))
}

// TestNewLeaderServesNoLeaseReadBeforeItsTermCommits: a lease read skips
// the heartbeat round but not the wait for the term's first commit.
func TestNewLeaderServesNoLeaseReadBeforeItsTermCommits(t *testing.T) {
	n := newLeader(t, 3, 2, 0, 1, 1)
	n.step(Message{Type: MsgReadIndex, From: 1, To: 1, Context: 9, Lease: true, Origin: 1})
	n.step(Message{Type: MsgReadIndex, From: 3, To: 1, Context: 10, Lease: true, Origin: 3})
	assert.Empty(t, readStatesOf(n))
	for _, m := range takeMsgs(n) {
		assert.NotEqual(t, MsgReadIndexResp, m.Type, "no lease read may be answered yet")
	}
	ack(n, 2, 3)
	require.Equal(t, uint64(3), n.commit)
	assert.Equal(t, []ReadState{{Index: 3, Ctx: 9, Term: 2}}, readStatesOf(n), "answered at once, at the new commit index")
	var resp []Message
	for _, m := range takeMsgs(n) {
		if m.Type == MsgReadIndexResp {
			resp = append(resp, m)
		}
	}
	require.Len(t, resp, 1, "the read machine 3 passed on is answered to machine 3")
	assert.Equal(t, NodeID(3), resp[0].To)
	assert.Equal(t, uint64(3), resp[0].Index)
	assert.Equal(t, uint64(10), resp[0].Context)
}

// TestLeaderOfOneServesReadsAtOnce: alone, a leader commits its term's
// entry when it appends it, so reads need not wait.
func TestLeaderOfOneServesReadsAtOnce(t *testing.T) {
	n := newLeader(t, 1, 2, 0, 1)
	require.Equal(t, uint64(2), n.commit)
	n.step(Message{Type: MsgReadIndex, From: 1, To: 1, Context: 4, Origin: 1})
	assert.Equal(t, []ReadState{{Index: 2, Ctx: 4, Term: 2}}, readStatesOf(n))
}

// TestRestartKeepsTermVoteAndLog: term, vote, commit index and log are on
// disk (etcd's HardState and WAL), so a machine that voted in a term and
// restarts refuses another candidate of that term and keeps what it knew
// committed.
func TestRestartKeepsTermVoteAndLog(t *testing.T) {
	n := loneNode(1, 3, 4, None, 1, 4)
	n.commit = 2
	stepVote(t, n, Message{Type: MsgVote, From: 2, To: 1, Term: 5, Index: 2, LogTerm: 4}, false)
	n.restart()
	assert.Equal(t, uint64(5), n.term)
	assert.Equal(t, NodeID(2), n.vote)
	assert.Equal(t, []uint64{1, 4}, termsOf(n))
	assert.Equal(t, uint64(2), n.commit, "the commit index is kept, as etcd keeps it in its HardState")
	stepVote(t, n, Message{Type: MsgVote, From: 3, To: 1, Term: 5, Index: 2, LogTerm: 4}, true)
	stepVote(t, n, Message{Type: MsgVote, From: 2, To: 1, Term: 5, Index: 2, LogTerm: 4}, false)
}

// stepVote steps a vote request and checks whether it was refused.
func stepVote(t *testing.T, n *Node, m Message, refused bool) {
	t.Helper()
	n.step(m)
	msgs := takeMsgs(n)
	require.Len(t, msgs, 1)
	assert.Equal(t, MsgVoteResp, msgs[0].Type)
	assert.Equal(t, m.From, msgs[0].To)
	assert.Equal(t, refused, msgs[0].Reject, "vote for %d in term %d", m.From, m.Term)
}

// servingLeader is newLeader of term 2 in a cluster of size, with the
// term's empty entry committed by a majority, so that it serves reads.
func servingLeader(t *testing.T, size int) *Node {
	t.Helper()
	n := newLeader(t, size, 2, 0)
	for f := NodeID(2); int(f) <= size/2+1; f++ {
		ack(n, f, 1)
	}
	require.Equal(t, uint64(1), n.commit, "the term's empty entry is committed")
	takeMsgs(n)
	return n
}

// readIndex asks leader n for a ReadIndex read with context ctx.
func readIndex(n *Node, ctx uint64) {
	n.step(Message{Type: MsgReadIndex, From: 1, To: 1, Context: ctx, Origin: 1})
}

// answerRound answers the heartbeat round of read ctx as follower from.
func answerRound(n *Node, from NodeID, ctx uint64) {
	n.step(Message{Type: MsgHeartbeatResp, From: from, To: 1, Term: 2, Context: ctx})
}

// TestReadIndexWaitsForAMajorityOfAnswers: a ReadIndex read is confirmed
// when the leader and enough followers to make a majority have answered
// the read's heartbeat round: in a cluster of five, two followers.
func TestReadIndexWaitsForAMajorityOfAnswers(t *testing.T) {
	n := servingLeader(t, 5)
	readIndex(n, 5)
	answerRound(n, 4, 5)
	answerRound(n, 4, 5)
	assert.Empty(t, readStatesOf(n), "the leader and one follower are two of five, whatever that follower repeats")
	answerRound(n, 5, 5)
	assert.Equal(t, []ReadState{{Index: 1, Ctx: 5, Term: 2}}, readStatesOf(n))
}

// The leader counts its majority on every acknowledgement (advanceCommitIndex)
// and at every CheckQuorum: for every cluster size raftcore runs, neither
// count allocates.
func TestLeaderCountsMajoritiesWithoutAllocating(t *testing.T) {
	for size := 1; size <= MaxNodes; size++ {
		n := newLeader(t, size, 2, 0)
		if a := testing.AllocsPerRun(50, func() { n.advanceCommitIndex(); n.quorumActive() }); a != 0 {
			t.Errorf("%d machines: %.0f allocations per count", size, a)
		}
	}
}

// TestReadIndexRoundConfirmsOnlyTheReadsBeforeIt: a majority's answers to
// one read's heartbeat round show that the machine still led when that
// round began, so they confirm that read and the reads that came before
// it, never a read that arrived later: by then a new leader may have been
// elected and taken writes the old one has not seen (§6.4 of Ongaro's
// thesis). The later read waits for answers to its own round.
func TestReadIndexRoundConfirmsOnlyTheReadsBeforeIt(t *testing.T) {
	n := servingLeader(t, 3)
	readIndex(n, 5)
	readIndex(n, 6)
	answerRound(n, 2, 5)
	assert.Equal(t, []ReadState{{Index: 1, Ctx: 5, Term: 2}}, readStatesOf(n), "only the read whose round was answered")
	answerRound(n, 3, 5)
	assert.Empty(t, readStatesOf(n), "more answers to the first round confirm nothing more")
	answerRound(n, 3, 6)
	assert.Equal(t, []ReadState{{Index: 1, Ctx: 6, Term: 2}}, readStatesOf(n))

	// The other way round, answers to a later round confirm the earlier
	// read as well: the machine led when the later round began, so also
	// when the earlier read arrived.
	readIndex(n, 7)
	readIndex(n, 8)
	answerRound(n, 2, 8)
	assert.Equal(t, []ReadState{{Index: 1, Ctx: 7, Term: 2}, {Index: 1, Ctx: 8, Term: 2}}, readStatesOf(n))
}

// TestFollowerIgnoresVotesForAnElectionTimeoutAfterItsLeader: with
// CheckQuorum, a follower that heard from its leader within the last
// election timeout ignores a request for votes of a higher term, to the
// last tick of that timeout: the leader's lease, which lease reads rely
// on, lasts exactly that long. Once the timeout has passed, it answers.
func TestFollowerIgnoresVotesForAnElectionTimeoutAfterItsLeader(t *testing.T) {
	for _, pre := range []bool{true, false} {
		typ := MsgVote
		if pre {
			typ = MsgPreVote
		}
		n := loneNode(2, 3, 2, 1, 1, 2)
		n.electionElapsed = n.cfg.electionTicks - 1
		n.step(Message{Type: typ, From: 3, To: 2, Term: 3, Index: 2, LogTerm: 2})
		assert.Empty(t, takeMsgs(n), "%v on the timeout's last tick is ignored", typ)
		assert.Equal(t, uint64(2), n.term)
		assert.Equal(t, NodeID(1), n.lead)

		n.electionElapsed = n.cfg.electionTicks
		n.step(Message{Type: typ, From: 3, To: 2, Term: 3, Index: 2, LogTerm: 2})
		msgs := takeMsgs(n)
		require.Len(t, msgs, 1, "%v once the timeout has passed", typ)
		assert.False(t, msgs[0].Reject, "%v once the timeout has passed", typ)
	}
}
