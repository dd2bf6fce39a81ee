package linearize

import (
	"hash/maphash"
	"time"

	"raftlab/raftcore"
)

// Cache judges a history that grows a little at a time, as a running world's
// does, searching again only the keys whose operations changed since the
// last call. A viewer can call it on every frame: with nothing new it only
// fingerprints the operations.
type Cache struct {
	// Budget bounds each search; 0 means DefaultBudget, and a negative
	// budget sets no bound.
	Budget time.Duration
	keys   map[string]cachedKey
	// last is the answer for the history whose print is print.
	last  Result
	print uint64
	valid bool
}

type cachedKey struct {
	print    uint64
	kr       KeyResult
	verdicts keyVerdicts
}

// Check judges ops as CheckWithin does, reusing the answers for keys whose
// operations are unchanged, and the whole answer when nothing changed. The
// answer is shared with later calls: read it, do not change it.
func (c *Cache) Check(ops []raftcore.Op) Result {
	p := historyPrint(ops)
	if c.valid && p == c.print {
		return c.last
	}
	budget := c.Budget
	if budget == 0 {
		budget = DefaultBudget
	}
	next := make(map[string]cachedKey, len(c.keys))
	var r Result
	for _, k := range groupByKey(ops) {
		p := k.fingerprint()
		ck, ok := c.keys[k.key]
		if !ok || ck.print != p {
			kr, verdicts := k.check(budget)
			ck = cachedKey{print: p, kr: kr, verdicts: verdicts}
		}
		next[k.key] = ck
		r.add(ck.kr, ck.verdicts)
	}
	c.keys = next
	r = r.sorted()
	c.last, c.print, c.valid = r, p, true
	return r
}

// fingerprint hashes everything about the key's operations that the
// judgement depends on.
func (k *keyHistory) fingerprint() uint64 { return historyPrint(k.ops) }

// historyPrint hashes everything about ops that a judgement depends on. A
// viewer calls it on every frame, so it takes a word at a time, formats
// nothing and allocates nothing. The print is only ever compared within one
// process, so the strings' hash seed may differ from run to run.
func historyPrint(ops []raftcore.Op) uint64 {
	h := uint64(len(ops))
	mix := func(x uint64) {
		h = (h ^ x) * 0x9e3779b97f4a7c15
		h ^= h >> 29
	}
	for i := range ops {
		op := &ops[i]
		mix(uint64(op.ID))
		mix(uint64(op.InvokeUs))
		mix(uint64(op.CompleteUs))
		mix(op.InvokeEvent)
		mix(op.CompleteEvent)
		mix(uint64(op.Refusal))
		if op.ReadFound {
			mix(1)
		}
		if op.Cas {
			mix(2)
		}
		mix(op.Index)
		mix(op.ReadRev)
		mix(op.IfRev)
		mix(op.FoundRev)
		mix(maphash.String(printSeed, string(op.Kind)))
		mix(maphash.String(printSeed, string(op.Result)))
		mix(maphash.String(printSeed, op.Key))
		mix(maphash.String(printSeed, op.Value))
		mix(maphash.String(printSeed, op.ReadValue))
	}
	return h
}

var printSeed = maphash.MakeSeed()
