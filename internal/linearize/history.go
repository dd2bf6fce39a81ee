package linearize

import (
	"math"

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

// operation turns a client operation into porcupine's form; ok is false
// for an operation that is ignored.
func operation(op raftcore.Op) (porcupine.Operation, bool) {
	o := OutcomeOf(op)
	if o == Ignored {
		return porcupine.Operation{}, false
	}
	in := input{key: op.Key, read: op.Kind == raftcore.DoRead, delete: op.Kind == raftcore.DoDelete, value: op.Value}
	p := porcupine.Operation{ClientId: op.ID, Input: in, Call: op.InvokeUs, Return: op.CompleteUs, Output: output{}}
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
