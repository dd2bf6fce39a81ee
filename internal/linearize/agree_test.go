package linearize

import (
	"testing"

	"raftlab/raftcore"
)

// The engine's stale-read rule (raftcore.RuleStaleRead) and porcupine judge
// the same reads from two sides: the rule knows log indexes and flags a
// linearizable or lease read whose state is older than the index of a write
// acknowledged before the read began; porcupine knows only what clients saw.
//
// They agree, read by read, in this exact sense. For each answered read that
// is not local, judged by porcupine against the writes on its key:
//
//  1. every read porcupine calls stale is flagged by the rule, and the write
//     porcupine says it missed was acknowledged before the read began and
//     sits past the state the read returned, as the rule requires; and
//  2. every read the rule flags and porcupine passes returned the value of a
//     write that overlapped the missed one (it was not acknowledged before
//     the missed write was sent), so no client could tell which came first;
//     only the log could.
//
// Local reads are outside the rule by design and are left out. The runs are
// the general random runs and runs built to stress reads, the latter also
// with Raft serving reads without confirming leadership, so that both judges
// have stale reads to agree on, not only fresh ones.
func TestStaleReadRuleAgreesWithPorcupine(t *testing.T) {
	both, explained, checked := 0, 0, 0
	for seed := int64(1); seed <= runs(); seed++ {
		for _, w := range []*raftcore.World{
			raftcore.RandomRun(seed, raftcore.RandomOptions{}),
			readRun(seed, 0),
			readRun(seed, raftcore.BugReadWithoutConfirm),
		} {
			b, e, c := agree(t, w)
			both += b
			explained += e
			checked += c
		}
	}
	if both == 0 {
		t.Fatalf("no read of %d was stale to both judges: nothing to compare", checked)
	}
	t.Logf("%d reads compared: %d stale to both, %d flagged by the rule only and explained by overlapping writes", checked, both, explained)
}

// agree checks the agreement on one run and returns how many reads both
// judges called stale, how many only the rule flagged (with the overlap that
// explains it), and how many reads were compared.
func agree(t *testing.T, w *raftcore.World) (both, explained, checked int) {
	t.Helper()
	missedIndex := map[int]uint64{} // read op -> index of the write the rule says it missed
	for _, v := range w.Violations() {
		if v.Rule == raftcore.RuleStaleRead {
			missedIndex[v.Op] = v.Index
		}
	}
	ops := w.Ops()
	for _, r := range ops {
		if r.Kind != raftcore.DoRead || r.Mode == raftcore.ReadLocal || r.Result != raftcore.OpOK {
			continue
		}
		checked++
		var history []raftcore.Op
		for _, op := range ops {
			if op.Key == r.Key && op.Kind != raftcore.DoRead {
				history = append(history, op)
			}
		}
		v, _ := Check(append(history, r)).Verdict(r.ID)
		index, ruled := missedIndex[r.ID]
		switch {
		case v.Verdict == Stale && !ruled:
			t.Fatalf("seed %d: porcupine calls read %d stale (missed write %d) but the rule passed it\nschedule: %s", w.Config().Seed, r.ID, v.Missed, schedule(w))
		case v.Verdict == Stale:
			// The rule names the first such write it finds, porcupine the
			// latest; each must be one the other would accept.
			if m, _ := w.Op(v.Missed); m.Result != raftcore.OpOK || !m.FinishedBefore(r) || m.Index <= r.ReadAt {
				t.Fatalf("seed %d: read %d (state as of index %d): porcupine names write %d (index %d), which the rule would not", w.Config().Seed, r.ID, r.ReadAt, v.Missed, m.Index)
			}
			both++
		case v.Verdict == Linearizable && ruled:
			if !overlapsMissed(history, r, index) {
				t.Fatalf("seed %d: the rule flags read %d (missed index %d) but porcupine passes it, and no overlapping write explains it\nschedule: %s", w.Config().Seed, r.ID, index, schedule(w))
			}
			explained++
		case v.Verdict != Linearizable && v.Verdict != Stale:
			t.Fatalf("seed %d: read %d judged %s", w.Config().Seed, r.ID, v.Verdict)
		}
	}
	return both, explained, checked
}

// overlapsMissed reports whether a write that could have produced read r's
// value was not acknowledged before the write at missedIndex was sent.
func overlapsMissed(writes []raftcore.Op, r raftcore.Op, missedIndex uint64) bool {
	var missed raftcore.Op
	for _, w := range writes {
		if w.Result == raftcore.OpOK && w.Index == missedIndex {
			missed = w
		}
	}
	if missed.ID == 0 {
		return false
	}
	rv, rf := value(r)
	for _, w := range writes {
		if wv, wf := value(w); rv == wv && rf == wf && (w.Result != raftcore.OpOK || !w.FinishedBefore(missed)) {
			return true
		}
	}
	return false
}
