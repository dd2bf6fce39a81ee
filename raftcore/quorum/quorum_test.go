package quorum

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// voters is the configuration of machines 1..n.
func voters(n int) MajorityConfig {
	ids := make([]ID, n)
	for i := range ids {
		ids[i] = ID(i + 1)
	}
	return NewMajorityConfig(ids...)
}

// eachAssignment calls f with every way of giving each of n voters one of
// k values (0..k-1), in a fixed order.
func eachAssignment(n, k int, f func(vals []int)) {
	vals := make([]int, n)
	for {
		f(vals)
		i := 0
		for ; i < n; i++ {
			vals[i]++
			if vals[i] < k {
				break
			}
			vals[i] = 0
		}
		if i == n {
			return
		}
	}
}

// acksOf reads an assignment as acknowledged indexes: 0 is a voter nothing
// is known of, v > 0 one that holds index v-1.
func acksOf(vals []int, ids []ID) ackMap {
	acks := ackMap{}
	for i, v := range vals {
		if v > 0 {
			acks[ids[i]] = Index(v - 1)
		}
	}
	return acks
}

// votesOf reads an assignment as answers: 0 not yet, 1 yes, 2 no.
func votesOf(vals []int, ids []ID) map[ID]bool {
	votes := map[ID]bool{}
	for i, v := range vals {
		if v > 0 {
			votes[ids[i]] = v == 1
		}
	}
	return votes
}

// §5.3: "A log entry is committed once the leader that created the entry has
// replicated it on a majority of the servers." For every way up to seven
// voters can hold indexes 0 to 3, or be unknown, the committed index is the
// highest index held by a majority.
func TestLeaderCommitsHighestIndexStoredOnMajority(t *testing.T) {
	for n := 1; n <= 7; n++ {
		c := voters(n)
		eachAssignment(n, 5, func(vals []int) {
			acks := acksOf(vals, c.ids)
			if got, want := c.CommittedIndex(acks), definedCommit([]MajorityConfig{c}, acks); got != want {
				t.Fatalf("%v: committed %s, but the highest index on a majority is %s\n%s", c, got, want, c.Describe(acks))
			}
		})
	}
}

// §5.2: "A candidate wins an election if it receives votes from a majority of
// the servers in the full cluster for the same term." It has lost once a
// majority can no longer say yes, and waits otherwise. Every way up to seven
// voters can answer.
func TestCandidateWinsWithVotesFromMajority(t *testing.T) {
	for n := 1; n <= 7; n++ {
		c := voters(n)
		eachAssignment(n, 3, func(vals []int) {
			votes := votesOf(vals, c.ids)
			if got, want := c.VoteResult(voteMap(votes)), definedVote([]MajorityConfig{c}, votes); got != want {
				t.Fatalf("%v with votes %v: %s, want %s", c, votes, got, want)
			}
		})
	}
}

// §6: "Agreement (for elections and entry commitment) requires separate
// majorities from both the old and new configurations." Every pair of
// configurations drawn from four machines, overlapping, disjoint, equal or
// empty, and every way the four can hold indexes or answer a vote.
func TestJointAgreementNeedsBothMajorities(t *testing.T) {
	all := []ID{1, 2, 3, 4}
	var subsets []MajorityConfig
	for mask := 0; mask < 1<<len(all); mask++ {
		var ids []ID
		for i, id := range all {
			if mask&(1<<i) != 0 {
				ids = append(ids, id)
			}
		}
		subsets = append(subsets, NewMajorityConfig(ids...))
	}
	for _, in := range subsets {
		for _, out := range subsets {
			j := JointConfig{in, out}
			halves := []MajorityConfig{in, out}
			eachAssignment(len(all), 4, func(vals []int) {
				acks := acksOf(vals, all)
				if got, want := j.CommittedIndex(acks), definedCommit(halves, acks); got != want {
					t.Fatalf("%v: committed %s, want %s\n%s", j, got, want, j.Describe(acks))
				}
			})
			eachAssignment(len(all), 3, func(vals []int) {
				votes := votesOf(vals, all)
				if got, want := j.VoteResult(voteMap(votes)), definedVote(halves, votes); got != want {
					t.Fatalf("%v with votes %v: %s, want %s", j, votes, got, want)
				}
			})
		}
	}
}

// A nil AckedIndexer or Votes is a round in which nothing is known yet:
// nothing is committed and the vote is open.
func TestNothingKnownYet(t *testing.T) {
	c := voters(3)
	if got := c.CommittedIndex(nil); got != 0 {
		t.Errorf("committed %s with no acknowledgements, want 0", got)
	}
	if got := c.VoteResult(nil); got != VotePending {
		t.Errorf("vote %s with no answers, want pending", got)
	}
}

// matchIndexes is an AckedIndexer like the engine's: a slice by voter, read
// through a pointer so that passing it as an interface allocates nothing.
type matchIndexes []Index

func (m *matchIndexes) AckedIndex(id ID) (Index, bool) {
	if int(id) >= len(*m) {
		return 0, false
	}
	return (*m)[id], true
}

// The engine asks for the committed index on every acknowledgement and
// counts votes, read answers and CheckQuorum the same way: none of it may
// allocate for the clusters raftcore runs.
func TestCountingDoesNotAllocate(t *testing.T) {
	for _, n := range []int{1, 3, 4, stackVoters} {
		c := voters(n)
		j := JointConfig{c, voters(n - 1)}
		acks := make(matchIndexes, n+1)
		for i := range acks {
			acks[i] = Index(i * 3 % 7)
		}
		granted := make([]bool, n+1)
		votes := func(id ID) (bool, bool) { return granted[id], true }
		if a := testing.AllocsPerRun(100, func() { c.CommittedIndex(&acks); j.CommittedIndex(&acks) }); a != 0 {
			t.Errorf("%d voters: CommittedIndex allocates %.0f times", n, a)
		}
		if a := testing.AllocsPerRun(100, func() { c.VoteResult(votes); j.VoteResult(votes) }); a != 0 {
			t.Errorf("%d voters: VoteResult allocates %.0f times", n, a)
		}
	}
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		s    fmt.Stringer
		want string
	}{
		{MajorityConfig{}, "()"},
		{NewMajorityConfig(3, 1, 2, 1), "(1 2 3)"},
		{JointConfig{NewMajorityConfig(1, 2)}, "(1 2)"},
		{JointConfig{NewMajorityConfig(2, 3), NewMajorityConfig(1, 2)}, "(2 3)&&(1 2)"},
		{JointConfig{{}, NewMajorityConfig(1)}, "()&&(1)"},
		{Index(7), "7"},
		{Index(^uint64(0)), "∞"},
		{VotePending, "pending"},
		{VoteResult(0), "VoteResult(0)"},
	} {
		if got := tc.s.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		c    JointConfig
		acks ackMap
		want string
	}{
		{JointConfig{NewMajorityConfig(1, 2, 3)}, ackMap{1: 8, 3: 5}, `
incoming (1 2 3):
voter  acked
    1      8
    2      -
    3      5
committed 5: held by 2 of 3 voters, and 2 make a majority
outgoing ():
no voters: committed ∞
committed 5: the lower of the two
`},
		{JointConfig{NewMajorityConfig(2, 3, 4), NewMajorityConfig(1, 2)}, ackMap{1: 4, 4: 4}, `
incoming (2 3 4):
voter  acked
    2      -
    3      -
    4      4
committed 0: no entry is held by a majority (2 of 3 voters)
outgoing (1 2):
voter  acked
    1      4
    2      -
committed 0: no entry is held by a majority (2 of 2 voters)
committed 0: the lower of the two
`},
	} {
		if got := tc.c.Describe(tc.acks); got != strings.TrimPrefix(tc.want, "\n") {
			t.Errorf("%v:\n%s\nwant\n%s", tc.c, got, tc.want)
		}
	}
}

// A line of a table that cannot be read stops the test with the file, the
// line and what is wrong, rather than being skipped.
func TestBadTableLinesAreNamed(t *testing.T) {
	for text, want := range map[string]string{
		"committed (1 2) 1=3":          "no \"=> answer\"",
		"committed 1 2 => 0":           "no configuration",
		"committed (1 x) => 0":         "voter \"x\"",
		"committed (1)&&(2)&&(3) => 0": "more than two",
		"committed (1 2) 1=3 1=4 => 3": "given twice",
		"committed (1 2) 1=a => 3":     "index \"a\"",
		"committed (1 2) => won":       "not an index",
		"vote (1 2) 1=maybe => won":    "not y or n",
		"vote (1 2) => 3":              "not won, lost or pending",
		"elect (1 2) => won":           "unknown command",
	} {
		if _, err := parseCase(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want an error saying %s", text, err, want)
		}
	}
}

func BenchmarkCommittedIndex(b *testing.B) {
	for _, n := range []int{3, 5, 9} {
		b.Run(fmt.Sprint("voters=", n), func(b *testing.B) {
			c := voters(n)
			acks := make(matchIndexes, n+1)
			for i := range acks {
				acks[i] = Index(i * 7 % 11)
			}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.CommittedIndex(&acks)
			}
		})
	}
}

// TestMajorityOfAscendingKeepsItsVoters: a configuration made of an
// ascending list is the one NewMajorityConfig makes of it, shares the
// list's array without reaching past its end, and a list out of order or
// with a voter twice is refused.
func TestMajorityOfAscendingKeepsItsVoters(t *testing.T) {
	all := []ID{1, 2, 4, 7, 9}
	for _, ids := range [][]ID{nil, all[:0], all[:1], all[1:3], all} {
		c := MajorityOfAscending(ids)
		if !reflect.DeepEqual(c, NewMajorityConfig(ids...)) {
			t.Errorf("%v: %#v, want %#v", ids, c, NewMajorityConfig(ids...))
		}
		if len(ids) > 0 && (&c.ids[0] != &ids[0] || cap(c.ids) != len(ids)) {
			t.Errorf("%v: the configuration copied its voters or reaches past them", ids)
		}
	}
	for _, ids := range [][]ID{{2, 1}, {1, 1}, {1, 3, 2}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%v: taken", ids)
				}
			}()
			MajorityOfAscending(ids)
		}()
	}
}
