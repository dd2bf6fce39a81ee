package explore

import (
	"fmt"

	"raftlab/raftcore"
)

// The read rule. In an exploration every operation begins and ends at
// time 0, so the rule orders a write's acknowledgement and a read's
// invocation by the trace events that recorded them (Op.CompleteEvent,
// Op.InvokeEvent), as the world's own checker and porcupine's verdicts
// (internal/linearize) do at one instant too. It differs from the world's
// checker only in classifying a deposed leader's lease reads (below), so
// the search leaves stale reads to it (withoutStaleReads).
//
// Stated precisely: for a linearizable or lease read R that was answered,
// let W be, among the writes and deletes of R's key whose client was told
// "ok" before R was invoked (W.CompleteEvent < R.InvokeEvent), the one at
// the highest log index. R is stale when
//
//   - it was answered from a state that does not hold W: its applied index
//     R.ReadAt is below W.Index; or
//   - it returned a value older than W's: W wrote the key and R found the
//     key absent or at a revision below W.Index, or W deleted the key and R
//     found it at a revision no later than W.Index.
//
// With the explorer's single key and distinct values (v1, v2, ...) this
// says: a read must not return a value older than the last write
// acknowledged before it began. A stale linearizable read always breaks
// the rule. A stale lease read breaks it unless a leader of a later term
// than the one that served it had been elected by the time it was
// answered: the leader had been deposed and its lease trusted a clock
// that, in a world where a forced timeout stands for time passing at one
// machine only, no longer held. That is the classification
// internal/indepcheck makes of lease reads (stale by design), so correct
// behaviour is not flagged. A local read promises nothing and is not
// judged.
//
// A read is judged once, in the state in which it was answered: whether it
// is stale cannot change later (its invocation, W and what it returned are
// fixed), and a later leader elected after the answer must not excuse it.

// checkReads judges the reads answered after trace event since (0: every
// answered read).
func checkReads(w *raftcore.World, since uint64) (raftcore.Violation, bool) {
	ops := w.Ops()
	for i := len(ops) - 1; i >= 0; i-- {
		r := ops[i]
		if r.Kind != raftcore.DoRead || r.Mode == raftcore.ReadLocal || r.Result != raftcore.OpOK || r.CompleteEvent <= since {
			continue
		}
		last, ok := lastAcknowledged(ops, r)
		if !ok || !staleAgainst(r, last) {
			continue
		}
		if r.Mode == raftcore.ReadLease && electedAfter(w, r.ReadTerm) {
			continue
		}
		return raftcore.Violation{Rule: raftcore.RuleStaleRead, Nodes: []raftcore.NodeID{r.Node}, Index: last.Index, Term: r.ReadTerm, Op: r.ID,
			Text: fmt.Sprintf("a %s read of %s at machine %d (read %d) returned %s as of index %d, older than %s at index %d, acknowledged before the read began",
				r.Mode, r.Key, r.Node, r.ID, readWords(r), r.ReadAt, writeWords(last), last.Index)}, true
	}
	return raftcore.Violation{}, false
}

// lastAcknowledged is the write or delete of r's key at the highest log
// index whose client was told "ok" before r was invoked.
func lastAcknowledged(ops []raftcore.Op, r raftcore.Op) (raftcore.Op, bool) {
	var last raftcore.Op
	found := false
	for _, w := range ops {
		if (w.Kind != raftcore.DoWrite && w.Kind != raftcore.DoDelete) || w.Key != r.Key || w.Result != raftcore.OpOK ||
			!w.FinishedBefore(r) || (found && w.Index <= last.Index) {
			continue
		}
		last, found = w, true
	}
	return last, found
}

// staleAgainst reports whether read r misses w, the last write or delete
// acknowledged before it began.
func staleAgainst(r, w raftcore.Op) bool {
	if r.ReadAt < w.Index {
		return true
	}
	if w.Kind == raftcore.DoDelete {
		return r.ReadFound && r.ReadRev <= w.Index
	}
	return !r.ReadFound || r.ReadRev < w.Index
}

// electedAfter reports whether a leader of a term later than term has been
// elected: the checker remembers every term's leader, and no term beyond
// the highest any machine has reached can have one.
func electedAfter(w *raftcore.World, term uint64) bool {
	top := uint64(0)
	for id := raftcore.NodeID(1); int(id) <= w.Size(); id++ {
		top = max(top, w.Node(id).Term())
	}
	for t := term + 1; t <= top; t++ {
		if _, ok := w.ElectedLeader(t); ok {
			return true
		}
	}
	return false
}

func readWords(r raftcore.Op) string {
	if !r.ReadFound {
		return "nothing"
	}
	return fmt.Sprintf("%q (revision %d)", r.ReadValue, r.ReadRev)
}

func writeWords(w raftcore.Op) string {
	if w.Kind == raftcore.DoDelete {
		return fmt.Sprintf("the delete of %s (op %d)", w.Key, w.ID)
	}
	return fmt.Sprintf("the write %s=%s (op %d)", w.Key, w.Value, w.ID)
}

// clientKey extends a state's key with what of the clients can still steer
// the read rule; it is 0 when nothing can (no read left to make and none
// waiting), so a search without reads keeps the states it always had.
//
// Kept: for each read still waiting, its machine, mode, key, the read
// index and term its leader fixed (once known), and the last write it
// must see (index and kind); while reads may still be made, the last
// write of the explored key acknowledged so far and the writes still
// waiting (one of them may be acknowledged next). Left out: answered reads
// (each was judged when answered, and a verdict never changes) and the
// order numbers themselves, which name events rather than steer them.
func clientKey(w *raftcore.World, readsLeft bool) uint64 {
	ops := w.Ops()
	h := uint64(0)
	for _, op := range ops {
		if op.Kind != raftcore.DoRead || op.Done() {
			continue
		}
		last, _ := lastAcknowledged(ops, op)
		h = fnv(h, uint64(op.ID)|uint64(op.Node)<<32|uint64(readModeCode(op.Mode))<<40|uint64(verbCode(last.Kind))<<48)
		h = fnv(h, op.ReadIndex)
		h = fnv(h, op.ReadTerm)
		h = fnv(h, last.Index)
		h = fnvString(h, op.Key)
	}
	if readsLeft {
		h = fnv(h, 1)
		future := raftcore.Op{Kind: raftcore.DoRead, Key: writeKey, InvokeEvent: w.TraceCount() + 1}
		last, _ := lastAcknowledged(ops, future)
		h = fnv(h, last.Index|uint64(verbCode(last.Kind))<<56)
		for _, op := range ops {
			if op.Kind != raftcore.DoRead && !op.Done() {
				h = fnv(h, uint64(op.ID))
			}
		}
	}
	return h
}

// readModes are the read modes the explorer tries, by their code in a
// step.
var readModes = []raftcore.ReadMode{raftcore.ReadLinearizable, raftcore.ReadLease}

func readModeCode(m raftcore.ReadMode) uint8 {
	for i, x := range readModes {
		if x == m {
			return uint8(i + 1)
		}
	}
	return 0 // local: not tried by the explorer, but a -from start may hold one
}

func verbCode(v raftcore.Verb) uint8 {
	switch v {
	case raftcore.DoWrite:
		return 1
	case raftcore.DoDelete:
		return 2
	}
	return 0
}

// fnv and fnvString fold a value into a hash, FNV-1a style, a byte at a
// time.
func fnv(h, v uint64) uint64 {
	for i := 0; i < 8; i++ {
		h ^= v & 0xff
		h *= 0x100000001b3
		v >>= 8
	}
	return h
}

func fnvString(h uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}
