package linearize

import (
	"math"
	"slices"
	"sort"

	"github.com/anishathalye/porcupine"

	"raftlab/raftcore"
)

// never is the completion time of a write whose outcome the client never
// learned. Porcupine reads it as "still running at the end of the history",
// so the write may take effect at any point after it was sent, or not at all
// (a write ordered after every read changes nothing anyone saw).
const never = math.MaxInt64

// Outcome says what a client operation contributes to the history.
type Outcome uint8

const (
	// Ignored: a read that was never answered, or a write the machine
	// turned away before proposing it. Neither can have changed or shown
	// anything.
	Ignored Outcome = iota
	// Happened: an acknowledged write, a compare-and-swap refused on its
	// revision, or an answered read.
	Happened
	// MaybeHappened: a write that timed out, is still waiting, or whose
	// machine crashed while it waited. It may have been committed, so it
	// is kept with no end: free to take effect at any later time.
	MaybeHappened
)

// OutcomeOf applies the rule above to one operation.
func OutcomeOf(op raftcore.Op) Outcome {
	if op.Kind == raftcore.DoRead {
		if op.Result == raftcore.OpOK {
			return Happened
		}
		return Ignored
	}
	switch op.Result {
	case raftcore.OpOK, raftcore.OpConflict:
		// A conflict is a definite answer: the compare-and-swap's entry
		// was applied and changed nothing.
		return Happened
	case raftcore.OpRefused:
		// A crash while the write waited breaks the client's connection,
		// but the write may already be in the log; every other refusal
		// comes before the write is proposed.
		if op.Refusal == raftcore.RefusedCrashed {
			return MaybeHappened
		}
		return Ignored
	default:
		return MaybeHappened
	}
}

// moment is a point of a run as its clients saw it: the virtual time and,
// among moments at one instant, the trace event that recorded it. The trace
// is the order in which things happened, so an acknowledgement recorded
// before a read was sent came before it even when the clock stood still
// (raftcore/explore runs everything at time 0). Moments without events (an
// Op built by hand) at one instant are one moment.
type moment struct {
	us    int64
	event uint64
}

func (m moment) before(o moment) bool {
	if m.us != o.us {
		return m.us < o.us
	}
	return m.event < o.event
}

func invoked(op raftcore.Op) moment   { return moment{op.InvokeUs, op.InvokeEvent} }
func completed(op raftcore.Op) moment { return moment{op.CompleteUs, op.CompleteEvent} }

// clock numbers the distinct moments of a history in order: porcupine's
// call and return times, so that it orders operations as the trace does.
type clock []moment

func clockOf(ops []raftcore.Op) clock {
	var c clock
	for _, op := range ops {
		c = append(c, invoked(op))
		if op.Done() {
			c = append(c, completed(op))
		}
	}
	sort.Slice(c, func(i, j int) bool { return c[i].before(c[j]) })
	return slices.Compact(c)
}

// at is m's number: its place among the history's moments.
func (c clock) at(m moment) int64 {
	return int64(sort.Search(len(c), func(i int) bool { return !c[i].before(m) }))
}

// operation turns a client operation into porcupine's form, with times
// from c; ok is false for an operation that is ignored.
func (c clock) operation(op raftcore.Op) (porcupine.Operation, bool) {
	o := OutcomeOf(op)
	if o == Ignored {
		return porcupine.Operation{}, false
	}
	in := input{key: op.Key, kind: kindOf(op), value: op.Value, ifRev: op.IfRev, learned: o == Happened}
	var out output
	switch {
	case in.kind == opRead:
		out = output{value: op.ReadValue, found: op.ReadFound, rev: op.ReadRev}
	case op.Result == raftcore.OpConflict:
		out = output{conflict: true, rev: op.FoundRev}
	case op.Result == raftcore.OpOK && op.Kind == raftcore.DoWrite:
		in.rev = op.Index
	}
	p := porcupine.Operation{ClientId: op.ID, Input: in, Call: c.at(invoked(op)), Output: out}
	if op.Done() {
		p.Return = c.at(completed(op))
	}
	if o == MaybeHappened {
		p.Return = never
	}
	return p, true
}

func kindOf(op raftcore.Op) opKind {
	switch {
	case op.Kind == raftcore.DoRead:
		return opRead
	case op.Kind == raftcore.DoDelete:
		return opDelete
	case op.Cas:
		return opCas
	}
	return opPut
}

// swap reports whether op is a compare-and-swap whose client learned its
// outcome: it observes the key's revision, as a read does.
func swap(op raftcore.Op) bool { return op.Cas && OutcomeOf(op) == Happened }

// value is what a read returned, or what a write leaves behind if it takes
// effect.
func value(op raftcore.Op) (string, bool) {
	switch op.Kind {
	case raftcore.DoRead:
		return op.ReadValue, op.ReadFound
	case raftcore.DoDelete:
		return "", false
	default:
		return op.Value, true
	}
}

// observedRev is the revision an answered read or a compare-and-swap
// observed: the key's as read, the one a successful swap found (the one it
// expected), or the one a failed swap found.
func observedRev(op raftcore.Op) uint64 {
	switch {
	case op.Kind == raftcore.DoRead:
		return op.ReadRev
	case op.Result == raftcore.OpConflict:
		return op.FoundRev
	}
	return op.IfRev
}

// madeRev is the revision an acknowledged write gave the key (0 for a
// delete, which leaves none), and whether it is known.
func madeRev(op raftcore.Op) (uint64, bool) {
	if op.Kind == raftcore.DoDelete {
		return 0, true
	}
	return op.Index, op.Index != 0
}
