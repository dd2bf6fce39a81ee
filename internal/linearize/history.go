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
	// Happened: an acknowledged write, or an answered read.
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
	case raftcore.OpOK:
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
	in := input{key: op.Key, read: op.Kind == raftcore.DoRead, delete: op.Kind == raftcore.DoDelete, value: op.Value}
	p := porcupine.Operation{ClientId: op.ID, Input: in, Call: c.at(invoked(op)), Output: output{}}
	if op.Done() {
		p.Return = c.at(completed(op))
	}
	if in.read {
		p.Output = output{value: op.ReadValue, found: op.ReadFound}
	}
	if o == MaybeHappened {
		p.Return = never
	}
	return p, true
}

// seen is what a read returned, or what a write leaves behind.
func seen(op raftcore.Op) output {
	switch op.Kind {
	case raftcore.DoRead:
		return output{value: op.ReadValue, found: op.ReadFound}
	case raftcore.DoDelete:
		return output{}
	default:
		return output{value: op.Value, found: true}
	}
}
