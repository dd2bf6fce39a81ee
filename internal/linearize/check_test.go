package linearize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
)

// Hand-made histories pin down the rules one at a time; times are in
// microseconds.

func put(id int, key, value string, from, to int64) raftcore.Op {
	return raftcore.Op{ID: id, Kind: raftcore.DoWrite, Key: key, Value: value, InvokeUs: from, CompleteUs: to, Result: raftcore.OpOK}
}

func get(id int, key, value string, from, to int64) raftcore.Op {
	return raftcore.Op{ID: id, Kind: raftcore.DoRead, Key: key, ReadValue: value, ReadFound: value != "", InvokeUs: from, CompleteUs: to, Result: raftcore.OpOK}
}

func timedOut(op raftcore.Op) raftcore.Op {
	op.Result, op.CompleteUs = raftcore.OpTimeout, op.InvokeUs+5_000_000
	return op
}

func verdictOf(t *testing.T, r Result, op int) ReadVerdict {
	t.Helper()
	v, ok := r.Verdict(op)
	require.True(t, ok, "no verdict for op %d", op)
	return v
}

func TestReadOfAnOlderValueIsStaleAndNamesTheMissedWrite(t *testing.T) {
	r := Check([]raftcore.Op{
		put(1, "k", "a", 0, 10),
		put(2, "k", "b", 20, 30),
		get(3, "k", "a", 40, 41),
		get(4, "k", "b", 40, 45),
	})
	assert.Equal(t, ReadVerdict{Op: 3, Verdict: Stale, Missed: 2}, verdictOf(t, r, 3))
	assert.Equal(t, ReadVerdict{Op: 4, Verdict: Linearizable}, verdictOf(t, r, 4))
	assert.False(t, r.Linearizable())
	assert.Len(t, r.Stale(), 1)
}

func TestReadConcurrentWithAWriteMaySeeEitherValue(t *testing.T) {
	for _, seen := range []string{"a", "b"} {
		r := Check([]raftcore.Op{
			put(1, "k", "a", 0, 10),
			put(2, "k", "b", 20, 50),
			get(3, "k", seen, 30, 40),
		})
		assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict, "saw %s", seen)
		assert.True(t, r.Linearizable())
	}
}

// Intervals are closed, as porcupine reads them: a read sent at the very
// microsecond a write was acknowledged overlaps it.
func TestTouchingIntervalsOverlap(t *testing.T) {
	r := Check([]raftcore.Op{put(1, "k", "a", 0, 10), get(2, "k", "", 10, 12)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 2).Verdict)
	// Without a time bound the answer is the same.
	assert.Equal(t, r, CheckWithin([]raftcore.Op{put(1, "k", "a", 0, 10), get(2, "k", "", 10, 12)}, -1))
}

func TestTimedOutWriteMayTakeEffectAnyTimeLater(t *testing.T) {
	lost := timedOut(put(2, "k", "b", 20, 0))
	// Seen long after the client gave up: allowed.
	r := Check([]raftcore.Op{put(1, "k", "a", 0, 10), lost, get(3, "k", "b", 9_000_000, 9_000_001)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
	// Never seen: allowed too.
	r = Check([]raftcore.Op{put(1, "k", "a", 0, 10), lost, get(3, "k", "a", 9_000_000, 9_000_001)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
	// Seen, then unseen: the write cannot be undone.
	r = Check([]raftcore.Op{put(1, "k", "a", 0, 10), lost, get(3, "k", "b", 100, 110), get(4, "k", "a", 200, 210)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
	assert.Equal(t, ReadVerdict{Op: 4, Verdict: Stale, Missed: 2}, verdictOf(t, r, 4))
}

func TestWriteRefusedBeforeProposalNeverHappened(t *testing.T) {
	refused := put(2, "k", "b", 20, 25)
	refused.Result, refused.Refusal = raftcore.OpRefused, raftcore.RefusedNoLeader
	r := Check([]raftcore.Op{put(1, "k", "a", 0, 10), refused, get(3, "k", "b", 100, 110)})
	assert.Equal(t, Stale, verdictOf(t, r, 3).Verdict, "a refused write's value cannot be read")
	// A crash while the write waited leaves its fate open.
	refused.Refusal = raftcore.RefusedCrashed
	r = Check([]raftcore.Op{put(1, "k", "a", 0, 10), refused, get(3, "k", "b", 100, 110)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
}

func TestDeleteAndMissingKey(t *testing.T) {
	del := raftcore.Op{ID: 2, Kind: raftcore.DoDelete, Key: "k", InvokeUs: 20, CompleteUs: 30, Result: raftcore.OpOK}
	r := Check([]raftcore.Op{put(1, "k", "a", 0, 10), del, get(3, "k", "", 40, 50), get(4, "k", "a", 60, 70), get(5, "x", "", 0, 5)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
	assert.Equal(t, ReadVerdict{Op: 4, Verdict: Stale, Missed: 2}, verdictOf(t, r, 4))
	assert.Equal(t, Linearizable, verdictOf(t, r, 5).Verdict)
	assert.Equal(t, []KeyResult{{Key: "k", Result: "Illegal"}, {Key: "x", Result: "Ok"}}, r.Keys)
}

// Two reads may disagree even when each alone fits the writes: once one read
// has returned a value, no later read may return an older one.
func TestReadOlderThanAnEarlierReadIsStale(t *testing.T) {
	pending := timedOut(put(2, "k", "b", 20, 0))
	r := Check([]raftcore.Op{put(1, "k", "a", 0, 10), pending, get(3, "k", "b", 30, 40), get(4, "k", "a", 50, 60)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
	assert.Equal(t, ReadVerdict{Op: 4, Verdict: Stale, Missed: 2}, verdictOf(t, r, 4))
}

func TestUnansweredReadsAreNotJudged(t *testing.T) {
	lost := timedOut(get(2, "k", "", 20, 0))
	refused := get(3, "k", "", 30, 31)
	refused.Result = raftcore.OpRefused
	r := Check([]raftcore.Op{put(1, "k", "a", 0, 10), lost, refused})
	assert.Equal(t, Unanswered, verdictOf(t, r, 2).Verdict)
	assert.Equal(t, Unanswered, verdictOf(t, r, 3).Verdict)
	assert.True(t, r.Linearizable())
	_, ok := r.Verdict(1)
	assert.False(t, ok, "writes get no verdict")
}

func TestCacheMatchesAFreshCheck(t *testing.T) {
	ops := []raftcore.Op{put(1, "k", "a", 0, 10), put(2, "j", "x", 0, 10), put(3, "k", "b", 20, 30), get(4, "k", "a", 40, 41), get(5, "j", "x", 40, 41)}
	var c Cache
	for n := 1; n <= len(ops); n++ {
		assert.Equal(t, Check(ops[:n]), c.Check(ops[:n]), "after %d ops", n)
	}
	// A changed operation is noticed, not served from the cache.
	changed := append([]raftcore.Op(nil), ops...)
	changed[3].ReadValue = "b"
	assert.Equal(t, Check(changed), c.Check(changed))
	assert.Equal(t, Linearizable, verdictOf(t, c.Check(changed), 4).Verdict)
}

// At one instant, as in an exploration where the clock stands still, the
// trace events order the operations: a write acknowledged (event 5) before
// a read was sent (event 6) must be seen; one acknowledged after the read
// was sent overlaps it; and without events the two overlap, as times alone
// say.
func TestOneInstantIsOrderedByTraceEvents(t *testing.T) {
	at := func(op raftcore.Op, invoke, complete uint64) raftcore.Op {
		op.InvokeEvent, op.CompleteEvent = invoke, complete
		return op
	}
	old := put(1, "k", "a", 0, 0)
	acked := put(2, "k", "b", 0, 0)
	read := get(3, "k", "a", 0, 0)
	r := Check([]raftcore.Op{at(old, 1, 2), at(acked, 3, 5), at(read, 6, 7)})
	assert.Equal(t, ReadVerdict{Op: 3, Verdict: Stale, Missed: 2}, verdictOf(t, r, 3))
	assert.False(t, r.Linearizable())

	r = Check([]raftcore.Op{at(old, 1, 2), at(acked, 3, 7), at(read, 6, 8)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict, "acknowledged after the read was sent")
	r = Check([]raftcore.Op{old, acked, read})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict, "no events: one instant")

	// Time still comes first: an earlier time wins over a higher event.
	r = Check([]raftcore.Op{at(old, 1, 2), at(put(2, "k", "b", 0, 10), 3, 9), at(get(3, "k", "a", 20, 30), 4, 8)})
	assert.Equal(t, Stale, verdictOf(t, r, 3).Verdict)

	// The cache sees a change of events alone.
	var c Cache
	assert.Equal(t, Linearizable, verdictOf(t, c.Check([]raftcore.Op{at(old, 1, 2), at(acked, 3, 7), at(read, 6, 8)}), 3).Verdict)
	assert.Equal(t, Stale, verdictOf(t, c.Check([]raftcore.Op{at(old, 1, 2), at(acked, 3, 5), at(read, 6, 7)}), 3).Verdict)
}

// Revisions and compare-and-swap, as etcd's transactions behave: a write
// gives the key the revision of its entry; a swap compares the key's
// revision with the one it expects, then puts, or fails, changing nothing
// and returning the revision it found.

func putAt(id int, key, value string, rev uint64, from, to int64) raftcore.Op {
	op := put(id, key, value, from, to)
	op.Index = rev
	return op
}

func getAt(id int, key, value string, rev uint64, from, to int64) raftcore.Op {
	op := get(id, key, value, from, to)
	op.ReadRev = rev
	return op
}

func swapAt(id int, key, value string, ifRev, rev uint64, from, to int64) raftcore.Op {
	op := putAt(id, key, value, rev, from, to)
	op.Cas, op.IfRev = true, ifRev
	return op
}

func conflicted(op raftcore.Op, found uint64) raftcore.Op {
	op.Result, op.Index, op.FoundRev = raftcore.OpConflict, 0, found
	return op
}

// TestSwapFailsOnAnotherRevisionAndChangesNothing: the history of
// raftcore/testdata/cas-conflict.json's first key. A swap expecting a
// revision the key never had fails, returning the key's revision, and a
// later read still sees the value before it; the swap expecting the
// current revision succeeds.
func TestSwapFailsOnAnotherRevisionAndChangesNothing(t *testing.T) {
	ops := []raftcore.Op{
		putAt(1, "k", "a", 2, 0, 10),
		conflicted(swapAt(2, "k", "b", 9, 0, 20, 30), 2),
		getAt(3, "k", "a", 2, 40, 50),
		swapAt(4, "k", "c", 2, 4, 60, 70),
		getAt(5, "k", "c", 4, 80, 90),
	}
	r := Check(ops)
	assert.True(t, r.Linearizable())
	for _, id := range []int{2, 3, 4, 5} {
		assert.Equal(t, Linearizable, verdictOf(t, r, id).Verdict, "op %d", id)
	}
	// A failed swap is a definite answer, not a write that may yet
	// happen: its value can never be read.
	r = Check([]raftcore.Op{ops[0], ops[1], getAt(3, "k", "b", 3, 40, 50)})
	assert.Equal(t, ReadVerdict{Op: 3, Verdict: Stale, Missed: 1}, verdictOf(t, r, 3))
	// And it must return the revision the key was at.
	r = Check([]raftcore.Op{ops[0], conflicted(swapAt(2, "k", "b", 9, 0, 20, 30), 7)})
	assert.Equal(t, Stale, verdictOf(t, r, 2).Verdict)
}

// TestSwapExpectingANewerRevisionCannotSucceed: a swap that succeeds
// although it expected a revision newer than the key's is not
// linearizable, and it is the swap that is named, not the read after it.
func TestSwapExpectingANewerRevisionCannotSucceed(t *testing.T) {
	r := Check([]raftcore.Op{
		putAt(1, "k", "a", 2, 0, 10),
		swapAt(2, "k", "b", 9, 3, 20, 30),
		getAt(3, "k", "b", 3, 40, 50),
	})
	assert.False(t, r.Linearizable())
	assert.Equal(t, ReadVerdict{Op: 2, Verdict: Stale, Missed: 1}, verdictOf(t, r, 2))
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict, "the read sees what the swap did")
	assert.Equal(t, []ReadVerdict{{Op: 2, Verdict: Stale, Missed: 1}}, r.Stale())
	// An absent key is at revision 0: only a swap expecting 0 may create it.
	r = Check([]raftcore.Op{swapAt(1, "k", "a", 5, 3, 0, 10)})
	assert.Equal(t, Stale, verdictOf(t, r, 1).Verdict)
	r = Check([]raftcore.Op{swapAt(1, "k", "a", 0, 3, 0, 10)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 1).Verdict)
}

// TestReadsSeeRevisions: a read returns the value and its revision, so a
// read of the right value at an old revision is stale too.
func TestReadsSeeRevisions(t *testing.T) {
	r := Check([]raftcore.Op{putAt(1, "k", "a", 2, 0, 10), putAt(2, "k", "a", 5, 20, 30), getAt(3, "k", "a", 2, 40, 50)})
	assert.Equal(t, ReadVerdict{Op: 3, Verdict: Stale, Missed: 2}, verdictOf(t, r, 3))
}

// TestSwapOfUnknownOutcome: a swap whose client never learned its outcome
// may have succeeded (if the revision matched) or not, at any time after
// it was sent; the revision it gave the key, if it did, is learned from
// whoever observes it.
func TestSwapOfUnknownOutcome(t *testing.T) {
	lost := timedOut(swapAt(2, "k", "b", 2, 0, 20, 0))
	r := Check([]raftcore.Op{putAt(1, "k", "a", 2, 0, 10), lost, getAt(3, "k", "b", 7, 9_000_000, 9_000_001),
		swapAt(4, "k", "c", 7, 8, 9_000_010, 9_000_020)})
	assert.True(t, r.Linearizable())
	// Where the comparison could not pass, it changed nothing.
	lost = timedOut(swapAt(2, "k", "b", 1, 0, 20, 0))
	r = Check([]raftcore.Op{putAt(1, "k", "a", 2, 0, 10), lost, getAt(3, "k", "b", 7, 9_000_000, 9_000_001)})
	assert.Equal(t, Stale, verdictOf(t, r, 3).Verdict)
	// A revision no acknowledged write gave, observed by a failed swap,
	// keeps the plain write that may have given it.
	maybe := timedOut(putAt(2, "k", "b", 0, 20, 0))
	r = Check([]raftcore.Op{putAt(1, "k", "a", 2, 0, 10), maybe, conflicted(swapAt(3, "k", "c", 2, 0, 9_000_000, 9_000_001), 6)})
	assert.True(t, r.Linearizable())
}

// TestDeleteOfUnknownOutcomeMayExplainAnAbsence: a swap expecting the key
// absent succeeds after a delete whose client never heard back (its
// machine was paused); the delete must be kept in the history, since it
// explains the absence the swap found, though no read returned it (seed
// 37939 of the random runs).
func TestDeleteOfUnknownOutcomeMayExplainAnAbsence(t *testing.T) {
	del := timedOut(raftcore.Op{ID: 2, Kind: raftcore.DoDelete, Key: "k", InvokeUs: 20, Result: raftcore.OpOK})
	r := Check([]raftcore.Op{putAt(1, "k", "a", 2, 0, 10), del, swapAt(3, "k", "b", 0, 7, 9_000_000, 9_000_010)})
	assert.True(t, r.Linearizable())
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
	// So does a failed swap that found the key absent.
	r = Check([]raftcore.Op{putAt(1, "k", "a", 2, 0, 10), del, conflicted(swapAt(3, "k", "b", 2, 0, 9_000_000, 9_000_010), 0)})
	assert.Equal(t, Linearizable, verdictOf(t, r, 3).Verdict)
}
