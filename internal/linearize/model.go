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
	key   string
	kind  opKind
	value string
	// ifRev is the revision a compare-and-swap expects (0: the key must
	// be absent).
	ifRev uint64
	// rev is the revision a put or compare-and-swap gave the key when it
	// took effect (its log index), 0 when the client never learned it.
	rev uint64
	// learned says the client learned the operation's outcome; a write
	// whose client never did may have taken effect or not (see Outcome).
	learned bool
}

type opKind uint8

const (
	opRead opKind = iota
	opPut
	opDelete
	opCas
)

// state is one key's value and revision (etcd's mod revision: the index of
// the entry that last changed it), or its absence (revision 0). revKnown
// is false after a put whose revision no client learned; the next
// operation that observes the revision pins it.
type state struct {
	value    string
	found    bool
	rev      uint64
	revKnown bool
}

// output is what an operation returned: for a read, the value and
// revision; for a compare-and-swap, whether it failed on its comparison
// and, if so, the revision it found. Plain writes and deletes return
// nothing.
type output struct {
	value    string
	found    bool
	rev      uint64
	conflict bool
}

// register is the sequential specification of one key as etcd's store
// keeps it: a put sets the value and the revision, a delete clears both, a
// read must return what is there, and a compare-and-swap is a transaction
// that compares the key's revision with the one expected, then puts, or
// changes nothing and returns the revision found. The partition splits a
// history by key: operations on different keys never constrain each other,
// so the whole is linearizable exactly when each key's history is, and each
// key's search stays small.
var register = porcupine.Model{
	Partition: byKey,
	Init:      func() interface{} { return state{revKnown: true} },
	Step: func(st, in, out interface{}) (bool, interface{}) {
		return step(st.(state), in.(input), out.(output))
	},
}

// step applies one operation to a key's state: whether the operation's
// output fits, and the state after it.
func step(s state, i input, o output) (bool, state) {
	switch i.kind {
	case opRead:
		if o.value != s.value || o.found != s.found || !s.hasRev(o.rev) {
			return false, s
		}
		return true, s.pinned(o.rev)
	case opDelete:
		return true, state{revKnown: true}
	case opCas:
		switch {
		case !i.learned && s.revKnown && s.rev != i.ifRev:
			// An outcome no one learned: where the comparison fails, it
			// changed nothing.
			return true, s
		case !i.learned:
		case o.conflict:
			return o.rev != i.ifRev && s.hasRev(o.rev), s.pinned(o.rev)
		case !s.hasRev(i.ifRev):
			return false, s
		}
	}
	return true, state{value: i.value, found: true, rev: i.rev, revKnown: i.rev != 0}
}

// hasRev reports whether the key can be at revision rev: it is, or its
// revision is not known.
func (s state) hasRev(rev uint64) bool { return !s.revKnown || s.rev == rev }

// pinned is s with its revision known to be rev.
func (s state) pinned(rev uint64) state {
	s.rev, s.revKnown = rev, true
	return s
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
