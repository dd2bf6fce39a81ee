// Package quorum is the arithmetic of agreement in raftlab's Raft: which log
// index a group of voters has committed, and whether an election among them
// is won, lost or still open. It has etcd-io/raft's shape: a MajorityConfig
// decides by simple majority, and a JointConfig, the pair of configurations
// that a membership change runs under (§6 of the Raft paper), decides only
// with a majority of each.
//
// The package knows nothing of machines, logs or messages. The engine
// (raftcore) hands it each voter's acknowledged index through an
// AckedIndexer, or each voter's answer through Votes, and converts its own
// machine numbers to ID at the call. Nothing here iterates a map, so every
// answer is the same on every run and platform; and the calls the engine
// makes on every acknowledgement do not allocate for clusters of up to
// stackVoters machines.
package quorum

import (
	"math"
	"strconv"
)

// ID names a voter. raftcore numbers its machines from 1 and converts its
// NodeID to ID where it asks this package.
type ID uint64

// Index is a log index. The largest Index, printed ∞, is what an empty
// configuration commits (see MajorityConfig.CommittedIndex).
type Index uint64

func (i Index) String() string {
	if i == math.MaxUint64 {
		return "∞"
	}
	return strconv.FormatUint(uint64(i), 10)
}

// AckedIndexer tells the highest log index a voter is known to hold: for a
// leader, the match index of each follower and its own last index. found is
// false for a voter nothing is known of yet, which counts as holding nothing.
type AckedIndexer interface {
	AckedIndex(voter ID) (idx Index, found bool)
}

// Votes tells a voter's answer: voted is false while it has not answered,
// and granted says whether it said yes. The same shape serves anything
// counted like a vote: a heartbeat answered for a read, a follower heard
// from within an election timeout, a machine holding an entry.
type Votes func(voter ID) (granted, voted bool)

// VoteResult is the outcome of a vote so far.
type VoteResult uint8

const (
	// VotePending: neither side has a majority yet; the voters still to
	// answer can decide it.
	VotePending VoteResult = 1 + iota
	// VoteLost: so many said no that a majority of yes can no longer form.
	VoteLost
	// VoteWon: a majority said yes.
	VoteWon
)

func (r VoteResult) String() string {
	switch r {
	case VotePending:
		return "pending"
	case VoteLost:
		return "lost"
	case VoteWon:
		return "won"
	}
	return "VoteResult(" + strconv.Itoa(int(r)) + ")"
}

// majority is the smallest number of voters out of n that is more than half
// of them: any two such groups share a voter, which is what makes a decision
// of one majority binding on every other.
func majority(n int) int { return n/2 + 1 }
