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
	// Swaps has one verdict per compare-and-swap whose client learned its
	// outcome (it succeeded, or failed on its revision), in operation
	// order: a swap observes the key's revision as a read observes its
	// value, so it too is linearizable or stale.
	Swaps []ReadVerdict `json:"swaps,omitempty"`
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

// Verdict returns the verdict on op, if op is a read or a compare-and-swap
// of the history.
func (r Result) Verdict(op int) (ReadVerdict, bool) {
	for _, list := range [][]ReadVerdict{r.Reads, r.Swaps} {
		i := sort.Search(len(list), func(i int) bool { return list[i].Op >= op })
		if i < len(list) && list[i].Op == op {
			return list[i], true
		}
	}
	return ReadVerdict{}, false
}

// Stale returns the stale reads and compare-and-swaps, in operation order.
func (r Result) Stale() []ReadVerdict {
	var out []ReadVerdict
	for _, v := range append(r.Reads[:len(r.Reads):len(r.Reads)], r.Swaps...) {
		if v.Verdict == Stale {
			out = append(out, v)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Op < out[j].Op })
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
			r.add(KeyResult{Key: k.key, Result: porcupine.Ok}, k.allAre(Linearizable))
		}
		return r.sorted()
	}
	var r Result
	for _, k := range keys {
		r.add(k.check(budget))
	}
	return r.sorted()
}

// add takes in one key's answer and the verdicts on its reads and swaps.
func (r *Result) add(kr KeyResult, verdicts keyVerdicts) {
	r.Keys = append(r.Keys, kr)
	r.Reads = append(r.Reads, verdicts.reads...)
	r.Swaps = append(r.Swaps, verdicts.swaps...)
}

func (r Result) sorted() Result {
	for _, list := range [][]ReadVerdict{r.Reads, r.Swaps} {
		sort.Slice(list, func(i, j int) bool { return list[i].Op < list[j].Op })
	}
	return r
}

// keyVerdicts are the verdicts on one key's reads and swaps.
type keyVerdicts struct{ reads, swaps []ReadVerdict }

func (v *keyVerdicts) add(op raftcore.Op, verdict ReadVerdict) {
	if op.Kind == raftcore.DoRead {
		v.reads = append(v.reads, verdict)
	} else {
		v.swaps = append(v.swaps, verdict)
	}
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
	return append(append(k.writes(), k.operations(swap)...), k.operations(isRead)...)
}

func isRead(op raftcore.Op) bool { return op.Kind == raftcore.DoRead }

// operations is the key's operations for which pick holds, as porcupine
// sees them (answered reads, swaps whose outcome was learned).
func (k *keyHistory) operations(pick func(raftcore.Op) bool) []porcupine.Operation {
	var out []porcupine.Operation
	for _, op := range k.ops {
		if pick(op) {
			if p, ok := k.clock.operation(op); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// writes is the key's writes as porcupine sees them, but for the swaps
// whose outcome was learned (judged one by one, as reads are), and without
// the writes of unknown outcome whose effect nobody can have seen: a put
// whose value no read returned, when no revision was observed that the
// acknowledged writes do not explain, and a delete, when nobody found the
// key absent. Those can always be placed after everything else (nothing
// had to wait for them), where they change nothing anyone saw, so the
// history is linearizable with them exactly when it is without them.
// Leaving them out keeps the search small: each one would otherwise be
// free to go anywhere after it was sent.
func (k *keyHistory) writes() []porcupine.Operation {
	var out []porcupine.Operation
	unexplained, absent := k.unexplainedRev(), k.foundAbsent()
	for _, op := range k.ops {
		if op.Kind == raftcore.DoRead || swap(op) {
			continue
		}
		seen := absent
		if op.Kind != raftcore.DoDelete {
			seen = unexplained || k.returned(value(op))
		}
		if OutcomeOf(op) == MaybeHappened && !seen {
			continue
		}
		if p, ok := k.clock.operation(op); ok {
			out = append(out, p)
		}
	}
	return out
}

// returned reports whether an answered read of the key returned v.
func (k *keyHistory) returned(v string, found bool) bool {
	for _, op := range k.ops {
		if op.Kind == raftcore.DoRead && op.Result == raftcore.OpOK {
			if rv, rf := value(op); rv == v && rf == found {
				return true
			}
		}
	}
	return false
}

// unexplainedRev reports whether a read or a swap observed a revision
// that no acknowledged write of the key gave it: one a write of unknown
// outcome may have given.
func (k *keyHistory) unexplainedRev() bool {
	made := map[uint64]bool{0: true}
	for _, op := range k.ops {
		if op.Kind != raftcore.DoRead && op.Result == raftcore.OpOK {
			if rev, ok := madeRev(op); ok {
				made[rev] = true
			}
		}
	}
	for _, op := range k.ops {
		if (op.Kind == raftcore.DoRead && op.Result == raftcore.OpOK || swap(op)) && !made[observedRev(op)] {
			return true
		}
	}
	return false
}

// foundAbsent reports whether a read or a swap found the key absent: a
// read that returned nothing, a swap that expected revision 0 and
// succeeded, or one that failed finding revision 0.
func (k *keyHistory) foundAbsent() bool {
	for _, op := range k.ops {
		switch {
		case op.Kind == raftcore.DoRead && op.Result == raftcore.OpOK && !op.ReadFound:
			return true
		case swap(op) && observedRev(op) == 0:
			return true
		}
	}
	return false
}

// allAre gives every read and swap of the key the verdict v, but
// Unanswered to the reads that were not answered.
func (k *keyHistory) allAre(v Verdict) keyVerdicts {
	var out keyVerdicts
	for _, op := range k.ops {
		switch {
		case op.Kind == raftcore.DoRead && OutcomeOf(op) == Ignored:
			out.add(op, ReadVerdict{Op: op.ID, Verdict: Unanswered})
		case op.Kind == raftcore.DoRead || swap(op):
			out.add(op, ReadVerdict{Op: op.ID, Verdict: v})
		}
	}
	return out
}

// check searches the key's history and, if it fails, finds the stale
// swaps and reads.
func (k *keyHistory) check(budget time.Duration) (KeyResult, keyVerdicts) {
	res := porcupine.CheckOperationsTimeout(register, k.history(), budget)
	kr := KeyResult{Key: k.key, Result: res}
	switch res {
	case porcupine.Ok:
		return kr, k.allAre(Linearizable)
	case porcupine.Unknown:
		return kr, k.allAre(Unknown)
	}
	// Keep the writes, then add the swaps one by one in the order they
	// were sent, then the reads: each is kept if it fits what was kept
	// before it, and is stale if it does not. A swap that succeeded where
	// it should have failed is kept as the plain write it acted as, so
	// that the reads after it are judged on what happened.
	kept := k.writes()
	var out keyVerdicts
	var keptObservers []raftcore.Op
	for _, pick := range []func(raftcore.Op) bool{swap, isRead} {
		for _, op := range k.ops {
			if !pick(op) {
				continue
			}
			p, ok := k.clock.operation(op)
			if !ok {
				out.add(op, ReadVerdict{Op: op.ID, Verdict: Unanswered})
				continue
			}
			try := append(kept[:len(kept):len(kept)], p)
			switch porcupine.CheckOperationsTimeout(register, try, budget) {
			case porcupine.Ok:
				kept = try
				keptObservers = append(keptObservers, op)
				out.add(op, ReadVerdict{Op: op.ID, Verdict: Linearizable})
			case porcupine.Illegal:
				out.add(op, ReadVerdict{Op: op.ID, Verdict: Stale, Missed: k.missed(op, keptObservers)})
				if in := p.Input.(input); in.kind == opCas && op.Result == raftcore.OpOK {
					in.kind = opPut
					p.Input = in
					kept = append(kept, p)
				}
			default:
				out.add(op, ReadVerdict{Op: op.ID, Verdict: Unknown})
			}
		}
	}
	return kr, out
}

// sees reports whether what observer op saw (a read's value and revision,
// or a swap's revision) is what write w leaves behind.
func sees(op, w raftcore.Op) bool {
	rev, known := madeRev(w)
	sameRev := !known || rev == observedRev(op)
	if op.Kind != raftcore.DoRead {
		return sameRev
	}
	v, found := value(op)
	wv, wfound := value(w)
	return v == wv && found == wfound && sameRev
}

// missed names the write a stale read or swap should have seen (see
// ReadVerdict.Missed).
func (k *keyHistory) missed(op raftcore.Op, earlier []raftcore.Op) int {
	best := -1
	for i, w := range k.ops {
		if w.Kind == raftcore.DoRead || w.Result != raftcore.OpOK || !completed(w).before(invoked(op)) || sees(op, w) {
			continue
		}
		if best < 0 || completed(k.ops[best]).before(completed(w)) {
			best = i
		}
	}
	if best >= 0 {
		return k.ops[best].ID
	}
	for i := len(earlier) - 1; i >= 0; i-- {
		r := earlier[i]
		if r.Kind != raftcore.DoRead || !completed(r).before(invoked(op)) || op.Kind == raftcore.DoRead && sameRead(r, op) {
			continue
		}
		for j := len(k.ops) - 1; j >= 0; j-- {
			if w := k.ops[j]; w.Kind != raftcore.DoRead && !completed(r).before(invoked(w)) && sees(r, w) {
				return w.ID
			}
		}
	}
	return 0
}

// sameRead reports whether two reads returned the same value and revision.
func sameRead(a, b raftcore.Op) bool {
	av, af := value(a)
	bv, bf := value(b)
	return av == bv && af == bf && a.ReadRev == b.ReadRev
}
