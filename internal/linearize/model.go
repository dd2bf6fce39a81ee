// Package linearize checks a run's client history for linearizability with
// porcupine, one key at a time, and gives every answered read a verdict:
// linearizable, or stale with the acknowledged write it missed.
//
// It judges only what clients saw (invoke and completion times, ordered at
// one instant by the trace events that recorded them; values written and
// read), never the machines' logs, so it can judge any read mode
// and any protocol the lab runs, and it can be set against the engine's own
// stale-read rule, which looks at log indexes instead.
package linearize

import (
	"github.com/anishathalye/porcupine"
)

// input is one operation as the key-value model sees it.
type input struct {
	key    string
	read   bool
	delete bool
	value  string
}

// state is one key's value, or its absence.
type state struct {
	value string
	found bool
}

// output is what a read returned; writes and deletes return nothing.
type output = state

// register is the sequential specification of one key: a write sets it, a
// delete clears it, a read must return what is there. The partition splits a
// history by key: operations on different keys never constrain each other,
// so the whole is linearizable exactly when each key's history is, and each
// key's search stays small.
var register = porcupine.Model{
	Partition: byKey,
	Init:      func() interface{} { return state{} },
	Step: func(st, in, out interface{}) (bool, interface{}) {
		s, i := st.(state), in.(input)
		switch {
		case i.read:
			return out.(output) == s, s
		case i.delete:
			return true, state{}
		default:
			return true, state{value: i.value, found: true}
		}
	},
}

// byKey splits a history into one history per key, keys in order of first
// appearance, so the split is the same on every run.
func byKey(history []porcupine.Operation) [][]porcupine.Operation {
	at := map[string]int{}
	var parts [][]porcupine.Operation
	for _, op := range history {
		k := op.Input.(input).key
		i, ok := at[k]
		if !ok {
			i = len(parts)
			at[k] = i
			parts = append(parts, nil)
		}
		parts[i] = append(parts[i], op)
	}
	return parts
}
