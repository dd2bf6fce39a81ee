package raftcore

import "strconv"

// RejectReason says why a machine refused a vote or a pre-vote, or turned
// down an append. The refusing machine knows why; putting the reason on its
// answer lets a reader see it where the answer is drawn, rather than guess
// it from the two machines' states. The protocol never reads it: a
// candidate counts a refusal and a leader moves its next index back the
// same way whatever the reason, as in etcd.
type RejectReason uint8

const (
	// RejectNone: the answer is no refusal.
	RejectNone RejectReason = iota
	// RejectLowerTerm: the request carried a term older than the
	// receiver's (§5.1). A stale leader's append is answered with the
	// newer term, which makes it step down; a stale pre-vote is refused.
	RejectLowerTerm
	// RejectAlreadyVoted: the voter already gave its vote in this term to
	// another candidate (§5.2: one vote per term).
	RejectAlreadyVoted
	// RejectHasLeader: the voter has cast no vote in this term but already
	// follows a leader of it, so there is nothing to elect.
	RejectHasLeader
	// RejectLogBehind: the candidate's log is less up to date than the
	// voter's (§5.4.1): its last term is lower, or equal with fewer
	// entries.
	RejectLogBehind
	// RejectLogMismatch: the follower's log holds no entry matching the
	// append's previous index and term (§5.3); the answer's Index names
	// that index.
	RejectLogMismatch
	// RejectLeaderAlive: the receiver heard its leader within the election
	// timeout and ignores a request for a higher term (the CheckQuorum
	// lease, which keeps a machine rejoining with a high term from
	// disrupting a healthy cluster). As in etcd no answer is sent: the
	// reason is on the trace's deliver event (Cause CauseLeaderAlive),
	// not on a message.
	RejectLeaderAlive
)

var rejectNames = [...]string{
	"", "lower term", "already voted", "has a leader", "log not up to date",
	"log does not match", "leader alive",
}

func (r RejectReason) String() string {
	if int(r) < len(rejectNames) {
		return rejectNames[r]
	}
	return "reject(" + strconv.Itoa(int(r)) + ")"
}

// MarshalText lets JSON show the reason by name.
func (r RejectReason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a reason by name.
func (r *RejectReason) UnmarshalText(b []byte) error {
	return parseName(r, "reject reason", rejectNames[:], b)
}

// voteRefusal is why the machine would refuse m, a vote or pre-vote
// request that passed the term checks, or RejectNone if it would grant it.
// The vote is looked at before the log, in the order of Figure 2's rule.
func (n *Node) voteRefusal(m Message) RejectReason {
	canVote := n.vote == m.From ||
		(n.vote == None && n.lead == None) ||
		(m.Type == MsgPreVote && m.Term > n.term) ||
		(n.cfg.has(BugVoteTwice) && m.Type == MsgVote)
	switch {
	case !canVote && n.vote != None:
		return RejectAlreadyVoted
	case !canVote:
		return RejectHasLeader
	case !n.log.isUpToDate(m.Index, m.LogTerm) && !n.cfg.has(BugSkipUpToDate):
		return RejectLogBehind
	}
	return RejectNone
}

// ignoresInLease reports whether the machine ignores m, a vote or pre-vote
// request of a higher term, because it heard a live leader within the
// election timeout (CheckQuorum). An election the leader asked for (a
// transfer) is answered.
func (n *Node) ignoresInLease(m Message) bool {
	if (m.Type != MsgVote && m.Type != MsgPreVote) || m.Term <= n.term || n.cfg.protocol != ProtocolRaft {
		return false
	}
	force := m.Type == MsgVote && m.Context == campaignTransfer
	inLease := n.cfg.checkQuorum && n.lead != None && n.electionElapsed < n.cfg.electionTicks
	return inLease && !force
}
