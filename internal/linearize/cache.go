package linearize

import (
	"hash/fnv"
	"sort"
	"strconv"
	"time"

	"raftlab/raftcore"
)

// Cache judges a history that grows a little at a time, as a running world's
// does, searching again only the keys whose operations changed since the
// last call. A viewer can call it on every frame: with nothing new it only
// fingerprints the operations.
type Cache struct {
	// Budget bounds each search; 0 means DefaultBudget.
	Budget time.Duration
	keys   map[string]cachedKey
}

type cachedKey struct {
	print uint64
	kr    KeyResult
	reads []ReadVerdict
}

// Check judges ops as CheckWithin does, reusing the answers for keys whose
// operations are unchanged.
func (c *Cache) Check(ops []raftcore.Op) Result {
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
			kr, reads := k.check(budget)
			ck = cachedKey{print: p, kr: kr, reads: reads}
		}
		next[k.key] = ck
		r.Keys = append(r.Keys, ck.kr)
		r.Reads = append(r.Reads, ck.reads...)
	}
	c.keys = next
	sort.Slice(r.Reads, func(i, j int) bool { return r.Reads[i].Op < r.Reads[j].Op })
	return r
}

// fingerprint hashes everything about the key's operations that the
// judgement depends on.
func (k *keyHistory) fingerprint() uint64 {
	h := fnv.New64a()
	for _, op := range k.ops {
		for _, s := range []string{strconv.Itoa(op.ID), string(op.Kind), op.Value, string(op.Result), op.ReadValue,
			strconv.FormatBool(op.ReadFound), strconv.FormatInt(op.InvokeUs, 10), strconv.FormatInt(op.CompleteUs, 10),
			strconv.Itoa(int(op.Refusal))} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
	}
	return h.Sum64()
}
