package quorum

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// MajorityConfig is a set of voters that decides by simple majority. The
// zero value is the empty configuration. It is immutable: build it with
// NewMajorityConfig.
type MajorityConfig struct {
	ids []ID // ascending, each once
}

// NewMajorityConfig is the configuration of the given voters; a voter named
// more than once counts once.
func NewMajorityConfig(ids ...ID) MajorityConfig {
	s := slices.Clone(ids)
	slices.Sort(s)
	return MajorityConfig{ids: slices.Compact(s)}
}

// MajorityOfAscending is the configuration of the voters ids, which must
// be in ascending order, each once (it panics otherwise). Unlike
// NewMajorityConfig it keeps ids rather than a copy, so that many
// configurations can share one array: the caller must not change them.
func MajorityOfAscending(ids []ID) MajorityConfig {
	for i := 1; i < len(ids); i++ {
		if ids[i] <= ids[i-1] {
			panic(fmt.Sprintf("quorum: voters %v are not ascending, each once", ids))
		}
	}
	if ids == nil {
		return MajorityConfig{}
	}
	return MajorityConfig{ids: ids[:len(ids):len(ids)]}
}

// Len is the number of voters.
func (c MajorityConfig) Len() int { return len(c.ids) }

// IDs lists the voters in ascending order (a copy).
func (c MajorityConfig) IDs() []ID { return slices.Clone(c.ids) }

// String lists the voters, as in "(1 2 3)"; the empty configuration is "()".
func (c MajorityConfig) String() string {
	var b strings.Builder
	b.WriteByte('(')
	for i, id := range c.ids {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, id)
	}
	b.WriteByte(')')
	return b.String()
}

// stackVoters is how many voters CommittedIndex sorts in an array on the
// stack; a larger configuration costs one allocation. raftcore runs at most
// 9 machines.
const stackVoters = 9

// CommittedIndex is the highest index that a majority of the voters have
// acknowledged (§5.3: an entry is committed once it is stored on a majority
// of the servers). A voter whose index is not found counts as holding
// nothing, so it can only hold the result down. It does not apply the rule
// that only entries of the leader's current term are committed by counting
// (§5.4.2): that needs the log, and is the caller's.
//
// The empty configuration commits everything (∞): a JointConfig whose
// second half is empty, the state outside a membership change, then
// commits exactly what its first half commits, since the smaller of the two
// is taken.
func (c MajorityConfig) CommittedIndex(l AckedIndexer) Index {
	n := len(c.ids)
	if n == 0 {
		return math.MaxUint64
	}
	var stack [stackVoters]Index
	var acked []Index
	if n <= len(stack) {
		acked = stack[:n]
	} else {
		acked = make([]Index, n)
	}
	if l != nil {
		for i, id := range c.ids {
			if idx, found := l.AckedIndex(id); found {
				acked[i] = idx
			}
		}
	}
	sortDescending(acked)
	// The k-th highest acknowledged index is held by at least k voters
	// (itself and those above it), and no higher index is: with k a
	// majority, it is the highest index a majority holds.
	return acked[majority(n)-1]
}

// sortDescending sorts a handful of indexes, highest first. Insertion sort
// is the quickest for the few voters a cluster has, and keeps the slice
// from escaping to the heap.
func sortDescending(s []Index) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] > s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// VoteResult counts the answers so far: won once a majority said yes, lost
// once so many said no that the rest cannot make a majority of yes, and
// pending otherwise (§5.2: a candidate wins an election if it receives votes
// from a majority of the servers). A nil Votes is a vote no one has
// answered yet.
//
// The empty configuration wins every vote, so that a JointConfig whose
// second half is empty decides exactly as its first half does.
func (c MajorityConfig) VoteResult(votes Votes) VoteResult {
	if len(c.ids) == 0 {
		return VoteWon
	}
	granted, unanswered := 0, 0
	for _, id := range c.ids {
		var yes, voted bool
		if votes != nil {
			yes, voted = votes(id)
		}
		switch {
		case !voted:
			unanswered++
		case yes:
			granted++
		}
	}
	q := majority(len(c.ids))
	switch {
	case granted >= q:
		return VoteWon
	case granted+unanswered >= q:
		return VotePending
	}
	return VoteLost
}

// Describe shows each voter's acknowledged index ("-" when not found) and
// the committed index, with how many voters hold it and how many make a
// majority; it is meant for test failures and debugging.
func (c MajorityConfig) Describe(l AckedIndexer) string {
	committed := c.CommittedIndex(l)
	if len(c.ids) == 0 {
		return fmt.Sprintf("no voters: committed %s\n", committed)
	}
	var b strings.Builder
	b.WriteString("voter  acked\n")
	holders := 0
	for _, id := range c.ids {
		idx, found := Index(0), false
		if l != nil {
			idx, found = l.AckedIndex(id)
		}
		if !found {
			fmt.Fprintf(&b, "%5d  %5s\n", id, "-")
			continue
		}
		if idx >= committed {
			holders++
		}
		fmt.Fprintf(&b, "%5d  %5d\n", id, idx)
	}
	if committed == 0 {
		fmt.Fprintf(&b, "committed 0: no entry is held by a majority (%d of %d voters)\n", majority(len(c.ids)), len(c.ids))
		return b.String()
	}
	fmt.Fprintf(&b, "committed %s: held by %d of %d voters, and %d make a majority\n",
		committed, holders, len(c.ids), majority(len(c.ids)))
	return b.String()
}
