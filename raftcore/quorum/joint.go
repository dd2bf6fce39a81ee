package quorum

import (
	"slices"
	"strings"
)

// JointConfig is the pair of configurations a cluster runs under while its
// membership changes (joint consensus, §6 of the Raft paper): [0] is the
// incoming configuration and [1] the outgoing one. A decision needs a
// majority of each, so neither the old voters nor the new ones can decide
// alone. Outside a change, [1] is empty and the pair decides as [0] does.
type JointConfig [2]MajorityConfig

// String shows the halves joined by "&&", as in "(1 2 3)&&(3 4 5)", or only
// the first when the second is empty.
func (c JointConfig) String() string {
	if c[1].Len() == 0 {
		return c[0].String()
	}
	return c[0].String() + "&&" + c[1].String()
}

// IDs lists every voter of either half once, in ascending order.
func (c JointConfig) IDs() []ID {
	ids := append(c[0].IDs(), c[1].ids...)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// CommittedIndex is the highest index that a majority of each half has
// acknowledged: the smaller of the two halves' committed indexes.
func (c JointConfig) CommittedIndex(l AckedIndexer) Index {
	return min(c[0].CommittedIndex(l), c[1].CommittedIndex(l))
}

// VoteResult is won when both halves have won, lost as soon as either has
// lost (a majority of it can no longer say yes), and pending otherwise.
func (c JointConfig) VoteResult(votes Votes) VoteResult {
	incoming, outgoing := c[0].VoteResult(votes), c[1].VoteResult(votes)
	switch {
	case incoming == VoteLost || outgoing == VoteLost:
		return VoteLost
	case incoming == VoteWon && outgoing == VoteWon:
		return VoteWon
	}
	return VotePending
}

// Describe shows each half as MajorityConfig.Describe does, then the
// committed index of the pair.
func (c JointConfig) Describe(l AckedIndexer) string {
	var b strings.Builder
	for i, half := range c {
		b.WriteString([2]string{"incoming ", "outgoing "}[i] + half.String() + ":\n")
		b.WriteString(half.Describe(l))
	}
	b.WriteString("committed " + c.CommittedIndex(l).String() + ": the lower of the two\n")
	return b.String()
}
