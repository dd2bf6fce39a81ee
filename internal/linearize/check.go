package linearize

import (
	"sort"
	"time"

	"github.com/anishathalye/porcupine"

	"raftlab/raftcore"
)

// DefaultBudget bounds each porcupine search Check makes. Checking
// linearizability is NP-hard in general; the lab's histories are small and
// take far less, but a search that runs out of time gives Unknown rather
// than holding the caller up.
const DefaultBudget = 2 * time.Second

// Verdict is the judgement on one read.
type Verdict string

const (
	// Linearizable: the value fits some order of the operations that
	// respects which finished before which began.
	Linearizable Verdict = "linearizable"
	// Stale: no such order exists; the read returned an older value than
	// the history allows.
	Stale Verdict = "stale"
	// Unanswered: the read was refused or timed out, or is still waiting.
	// It showed nothing, so there is nothing to judge.
	Unanswered Verdict = "unanswered"
	// Unknown: the search ran out of its time budget.
	Unknown Verdict = "unknown"
)

// ReadVerdict is the verdict on one read.
type ReadVerdict struct {
	Op      int     `json:"op"`
	Verdict Verdict `json:"verdict"`
	// Missed is, for a stale read, the write it should have seen: the
	// latest acknowledged write on the key finished before the read began
	// whose value the read did not return, or failing that the write whose
	// value an earlier, finished read had already returned. 0 if neither.
	Missed int `json:"missed,omitempty"`
}

// KeyResult is porcupine's answer for one key's whole history.
type KeyResult struct {
	Key    string                `json:"key"`
	Result porcupine.CheckResult `json:"result"`
}

// Result is the judgement on a whole history.
type Result struct {
	// Reads has one verdict per read, in operation order.
	Reads []ReadVerdict `json:"reads"`
	// Keys has porcupine's answer per key, in key order.
	Keys []KeyResult `json:"keys"`
}

// Linearizable reports whether every key's history was found
// linearizable (false also when a search ran out of time).
func (r Result) Linearizable() bool {
	for _, k := range r.Keys {
		if k.Result != porcupine.Ok {
			return false
		}
	}
	return true
}

// Verdict returns the verdict on read op, if op is a read of the history.
func (r Result) Verdict(op int) (ReadVerdict, bool) {
	i := sort.Search(len(r.Reads), func(i int) bool { return r.Reads[i].Op >= op })
	if i < len(r.Reads) && r.Reads[i].Op == op {
		return r.Reads[i], true
	}
	return ReadVerdict{}, false
}

// Stale returns the stale reads.
func (r Result) Stale() []ReadVerdict {
	var out []ReadVerdict
	for _, v := range r.Reads {
		if v.Verdict == Stale {
			out = append(out, v)
		}
	}
	return out
}

// Check judges a history, such as World.Ops(), with DefaultBudget.
func Check(ops []raftcore.Op) Result { return CheckWithin(ops, DefaultBudget) }

// CheckWithin judges a history, giving each porcupine search at most budget
// (a negative budget sets no bound). The answer depends only on ops, except
// that a search that runs out of time gives Unknown.
//
// One partitioned search settles the usual case, a linearizable history.
// Otherwise each key is searched on its own, and on a key that fails the
// reads are taken in the order they were sent: each is kept if it fits the
// writes and the reads kept before it, and is stale if it does not.
func CheckWithin(ops []raftcore.Op, budget time.Duration) Result {
	keys := groupByKey(ops)
	var all []porcupine.Operation
	for _, k := range keys {
		all = append(all, k.history()...)
	}
	if porcupine.CheckOperationsTimeout(register, all, budget) == porcupine.Ok {
		var r Result
		for _, k := range keys {
			r.Keys = append(r.Keys, KeyResult{Key: k.key, Result: porcupine.Ok})
			r.Reads = append(r.Reads, k.allLinearizable()...)
		}
		return r.sorted()
	}
	var r Result
	for _, k := range keys {
		kr, reads := k.check(budget)
		r.Keys = append(r.Keys, kr)
		r.Reads = append(r.Reads, reads...)
	}
	return r.sorted()
}

func (r Result) sorted() Result {
	sort.Slice(r.Reads, func(i, j int) bool { return r.Reads[i].Op < r.Reads[j].Op })
	return r
}

// keyHistory is one key's operations.
type keyHistory struct {
	key   string
	ops   []raftcore.Op // every operation on the key, in id order
	clock clock         // the moments of ops, porcupine's times
}

// groupByKey splits ops by key, keys sorted.
func groupByKey(ops []raftcore.Op) []*keyHistory {
	at := map[string]*keyHistory{}
	var keys []*keyHistory
	for _, op := range ops {
		k := at[op.Key]
		if k == nil {
			k = &keyHistory{key: op.Key}
			at[op.Key] = k
			keys = append(keys, k)
		}
		k.ops = append(k.ops, op)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].key < keys[j].key })
	for _, k := range keys {
		k.clock = clockOf(k.ops)
	}
	return keys
}

// history is the key's operations as porcupine sees them, the ignored
// ones left out.
func (k *keyHistory) history() []porcupine.Operation {
	return append(k.writes(), k.reads()...)
}

// reads is the key's answered reads as porcupine sees them.
func (k *keyHistory) reads() []porcupine.Operation {
	var out []porcupine.Operation
	for _, op := range k.ops {
		if op.Kind == raftcore.DoRead {
			if p, ok := k.clock.operation(op); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// writes is the key's writes as porcupine sees them, without the writes of
// unknown outcome whose value no read returned. Those can always be placed
// after everything else (nothing had to wait for them), where they change
// nothing anyone saw, so the history is linearizable with them exactly when
// it is without them. Leaving them out keeps the search small: each one
// would otherwise be free to go anywhere after it was sent.
func (k *keyHistory) writes() []porcupine.Operation {
	var out []porcupine.Operation
	for _, op := range k.ops {
		if op.Kind == raftcore.DoRead {
			continue
		}
		if OutcomeOf(op) == MaybeHappened && !k.returned(seen(op)) {
			continue
		}
		if p, ok := k.clock.operation(op); ok {
			out = append(out, p)
		}
	}
	return out
}

// returned reports whether an answered read of the key returned v.
func (k *keyHistory) returned(v output) bool {
	for _, op := range k.ops {
		if op.Kind == raftcore.DoRead && op.Result == raftcore.OpOK && seen(op) == v {
			return true
		}
	}
	return false
}

// allLinearizable gives every answered read of the key a pass.
func (k *keyHistory) allLinearizable() []ReadVerdict {
	var out []ReadVerdict
	for _, op := range k.ops {
		if op.Kind == raftcore.DoRead {
			out = append(out, unansweredOr(op, Linearizable))
		}
	}
	return out
}

func unansweredOr(op raftcore.Op, v Verdict) ReadVerdict {
	if OutcomeOf(op) == Ignored {
		return ReadVerdict{Op: op.ID, Verdict: Unanswered}
	}
	return ReadVerdict{Op: op.ID, Verdict: v}
}

// check searches the key's history and, if it fails, finds the stale reads.
func (k *keyHistory) check(budget time.Duration) (KeyResult, []ReadVerdict) {
	res := porcupine.CheckOperationsTimeout(register, k.history(), budget)
	kr := KeyResult{Key: k.key, Result: res}
	switch res {
	case porcupine.Ok:
		return kr, k.allLinearizable()
	case porcupine.Unknown:
		var out []ReadVerdict
		for _, op := range k.ops {
			if op.Kind == raftcore.DoRead {
				out = append(out, unansweredOr(op, Unknown))
			}
		}
		return kr, out
	}
	// Keep the writes, then add the reads one by one in the order they
	// were sent.
	kept := k.writes()
	var keptReads []raftcore.Op
	var out []ReadVerdict
	for _, op := range k.ops {
		if op.Kind != raftcore.DoRead {
			continue
		}
		p, ok := k.clock.operation(op)
		if !ok {
			out = append(out, ReadVerdict{Op: op.ID, Verdict: Unanswered})
			continue
		}
		try := append(kept[:len(kept):len(kept)], p)
		switch porcupine.CheckOperationsTimeout(register, try, budget) {
		case porcupine.Ok:
			kept = try
			keptReads = append(keptReads, op)
			out = append(out, ReadVerdict{Op: op.ID, Verdict: Linearizable})
		case porcupine.Illegal:
			out = append(out, ReadVerdict{Op: op.ID, Verdict: Stale, Missed: k.missed(op, keptReads)})
		default:
			out = append(out, ReadVerdict{Op: op.ID, Verdict: Unknown})
		}
	}
	return kr, out
}

// missed names the write a stale read should have seen (see
// ReadVerdict.Missed).
func (k *keyHistory) missed(read raftcore.Op, earlierReads []raftcore.Op) int {
	got := seen(read)
	best := -1
	for i, w := range k.ops {
		if w.Kind == raftcore.DoRead || w.Result != raftcore.OpOK || !completed(w).before(invoked(read)) || seen(w) == got {
			continue
		}
		if best < 0 || completed(k.ops[best]).before(completed(w)) {
			best = i
		}
	}
	if best >= 0 {
		return k.ops[best].ID
	}
	for i := len(earlierReads) - 1; i >= 0; i-- {
		r := earlierReads[i]
		if !completed(r).before(invoked(read)) || seen(r) == got {
			continue
		}
		for j := len(k.ops) - 1; j >= 0; j-- {
			if w := k.ops[j]; w.Kind != raftcore.DoRead && !completed(r).before(invoked(w)) && seen(w) == seen(r) {
				return w.ID
			}
		}
	}
	return 0
}
