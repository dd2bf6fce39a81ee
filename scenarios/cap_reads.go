package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure cap-reads, from "Distributed systems fundamentals": the same
// question asked two ways, a linearizable read (ReadIndex, etcd's default)
// and a local read (etcd's --consistency=s), first on a healthy network and
// then on the minority side of a partition; and beside etcd, which
// refuses there (CP), a cache like CoreDNS that keeps answering (AP).

// The figure's cast: etcd-3 is asked on a healthy network, etcd-4 from the
// minority side of the partition.
const (
	capHealthyReader  = 3
	capMinorityReader = 4
)

// capCache is the figure's cache: it reads deployments/web through etcd-4,
// which the partition cuts off.
var capCache = Cache{Upstream: capMinorityReader, Key: keyWeb}

var capReads = def{id: "cap-reads", build: func(values) *Scenario {
	var sc script
	sc.at(300, act(raftcore.DoTimeout, 1))
	sc.at(2000, write(1, keyWeb, "replicas=3"))
	sc.at(3000, readLinearizable(capHealthyReader, keyWeb), readLocal(capHealthyReader, keyWeb), readLinearizable(capMinorityReader, keyWeb))
	sc.at(4000, partition([]int{1, 2, 3}, []int{4, 5}))
	sc.at(4500, write(1, keyWeb, "replicas=4"))
	// The local read goes last so that it tops the client panel's list.
	sc.at(5000, readLinearizable(capMinorityReader, keyWeb), write(capMinorityReader, keyWeb, "replicas=5"), readLocal(capMinorityReader, keyWeb))
	sc.at(11000, heal())
	// The cache's refresh once the network is whole.
	sc.at(11500, readLinearizable(capMinorityReader, keyWeb))
	return &Scenario{
		Title:   "Consistent or available: two ways to read",
		Chapter: chapterFundamentals,
		Prompt:  "Read the same key linearizably and from a member's local copy, on a healthy network and from the minority side of a partition.",
		Base:    config(raft, etcdNames(5)),
		Script:  sc, UntilMs: 13000,
		UI: UI{Focus: PanelClient, OpenMs: 1500, Panels: []Panel{PanelClient, PanelLogs, PanelChecker},
			Key: keyWeb, Highlight: []id{capHealthyReader, capMinorityReader}, Cache: &capCache},
		Steps: []Step{
			{Text: "Five members on a whole network, and a cache that reads deployments/web through etcd-4, as CoreDNS caches records. A client writes deployments/web, then reads it from etcd-3 twice: once linearizably (etcd's default), once from etcd-3's local copy (a serializable read).",
				Claims: claims(machines(5), that("the network is whole", func(v *View) bool { return whole(v.W) }))},
			{Text: "Both reads returned the same answer, at different prices.",
				When: func(v *View) bool { _, _, ok := v.healthyPair(); return ok },
				Live: func(v *View) string {
					lin, loc, _ := v.healthyPair()
					return fmt.Sprintf("Both reads returned %s. The linearizable one waited %s: etcd-3 asked the leader, and the leader checked with a majority that it still leads. The local one took %s: etcd-3 answered from its own copy and asked nobody. On a healthy network, consistency costs latency.",
						answer(lin), ms(lin.LatencyUs(0)), ms(loc.LatencyUs(0)))
				},
				Claims: claims(leadsAlone(node(1)), that("both reads returned the same value", func(v *View) bool {
					lin, loc, _ := v.healthyPair()
					return lin.ReadValue == loc.ReadValue && lin.ReadFound == loc.ReadFound
				}), that("the linearizable read waited at least a round trip to the leader and the local read did not wait", func(v *View) bool {
					lin, loc, _ := v.healthyPair()
					return lin.LatencyUs(0) >= lin.RoundTripMinUs[0] && loc.LatencyUs(0) < lin.RoundTripMinUs[0]
				}))},
			{Text: "The network splits: etcd-4 and etcd-5 are cut off, and the majority commits a new value.",
				When: func(v *View) bool { _, ok := v.majorityWriteInSplit(); return ok && !whole(v.W) },
				Live: func(v *View) string {
					w, _ := v.majorityWriteInSplit()
					return fmt.Sprintf("The network splits: %s. The majority side still commits: deployments/web is now %s.", sidesWords(v.W), w.Value)
				},
				Claims: claims(splitNow(), that("the majority side committed a write during the split", func(v *View) bool { _, ok := v.majorityWriteInSplit(); return ok }))},
			{Text: "On the minority side, etcd-4's local copy answered at once, but with an old value.",
				When: func(v *View) bool { _, ok := v.staleLocalRead(); return ok },
				Live: func(v *View) string {
					r, _ := v.staleLocalRead()
					w, _ := v.majorityWriteInSplit()
					return fmt.Sprintf("On the minority side, etcd-4's local read answered in %s with %s. It is stale: %s was acknowledged before the read began. A local read asks no majority, so it answers, possibly stale.",
						ms(r.LatencyUs(0)), answer(r), w.Value)
				},
				Claims: claims(splitNow(), that("the local read is stale: it misses a write acknowledged before it began", func(v *View) bool { _, ok := v.staleLocalRead(); return ok }))},
			{Text: "etcd-4's linearizable read and its write could not complete: without a majority, etcd gives no answer rather than a wrong one (CP). The cache keeps answering from its last read, possibly stale (AP).",
				When: func(v *View) bool { return v.minorityGaveUp() },
				Live: func(v *View) string {
					r, w := v.minorityLinearizable()
					c := capCache.State(v.W)
					return fmt.Sprintf("etcd-4's linearizable read %s, and its write %s: without a majority etcd gives no answer rather than a wrong one (CP). The cache, cut off with etcd-4, still answers %s from its last read, at once but stale (AP), as CoreDNS serves cached records through a partition.", outcome(r), outcome(w), answer(c.Filled))
				},
				Claims: claims(that("the minority's linearizable read and write both failed", func(v *View) bool { return v.minorityGaveUp() }),
					that("the cache's refresh got no answer, yet it answers, stale by the majority's write", func(v *View) bool {
						c := capCache.State(v.W)
						w, ok := v.majorityWriteInSplit()
						return ok && c.Cut() && c.Stale() && c.Missed.ID == w.ID
					}),
					that("nothing the minority wrote was committed", func(v *View) bool {
						_, w := v.minorityLinearizable()
						return !committedAnywhere(v.W, w.ID)
					}))},
			{Text: "The network heals and etcd-4 catches up: its local copy and the cache hold the committed value again.",
				When: func(v *View) bool { return v.healedAfterSplit() && v.minorityCaughtUp() && v.cacheCaughtUp() },
				Live: func(v *View) string {
					w, _ := v.majorityWriteInSplit()
					return fmt.Sprintf("The network heals and etcd-4 catches up: its local copy now says %s, and so does the cache after its next refresh. Both answer fresh again.", w.Value)
				},
				Claims: claims(healed(), that("etcd-4's copy holds the value the majority committed", func(v *View) bool { return v.minorityCaughtUp() }),
					that("the cache holds the value the majority committed", func(v *View) bool { return v.cacheCaughtUp() }))},
		},
		Expect: expectCapReads,
		final:  finalCapReads,
	}
}}

func readLinearizable(n int, key string) raftcore.Action {
	return raftcore.Action{Do: raftcore.DoRead, Node: n, Key: key, Mode: raftcore.ReadLinearizable}
}

// answer is what a read returned, in words.
func answer(op raftcore.Op) string {
	if !op.ReadFound {
		return "nothing"
	}
	return op.ReadValue
}

// readsAt returns the answered reads in the given mode made at machine n
// while the network was whole (split false) or split.
func readsAt(w *raftcore.World, n id, mode raftcore.ReadMode, split bool) []raftcore.Op {
	var out []raftcore.Op
	for _, op := range w.Ops() {
		if op.Kind == raftcore.DoRead && op.Node == n && op.Mode == mode && op.Split == split && op.Result == raftcore.OpOK {
			out = append(out, op)
		}
	}
	return out
}

// pairAt is the first linearizable and the first local read answered at n
// on a whole network, sent at the same moment, from time from on.
func pairAt(w *raftcore.World, n id, from int64) (lin, loc raftcore.Op, ok bool) {
	for _, a := range readsAt(w, n, raftcore.ReadLinearizable, false) {
		for _, b := range readsAt(w, n, raftcore.ReadLocal, false) {
			if a.InvokeUs == b.InvokeUs && a.InvokeUs >= from {
				return a, b, true
			}
		}
	}
	return raftcore.Op{}, raftcore.Op{}, false
}

// healthyPair is the pair of reads at etcd-3 before any split.
func (v *View) healthyPair() (lin, loc raftcore.Op, ok bool) {
	return pairAt(v.W, capHealthyReader, 0)
}

// minorityCaughtUp: etcd-4's copy holds the write the majority committed
// during the split.
func (v *View) minorityCaughtUp() bool {
	w, ok := v.majorityWriteInSplit()
	if !ok {
		return false
	}
	got, found := v.W.Node(capMinorityReader).KV().Get(w.Key)
	return found && got.Value == w.Value
}

// cacheCaughtUp: the cache's record is the write the majority committed
// during the split, and nothing newer was acknowledged.
func (v *View) cacheCaughtUp() bool {
	w, ok := v.majorityWriteInSplit()
	c := capCache.State(v.W)
	return ok && c.Held && !c.Stale() && c.Filled.ReadValue == w.Value
}

// majorityWriteInSplit is the first write acknowledged during a split on
// the side holding a majority.
func (v *View) majorityWriteInSplit() (raftcore.Op, bool) {
	for _, op := range v.W.Ops() {
		if isWrite(op) && op.Split && op.Result == raftcore.OpOK && len(op.Side) >= quorum(v.W.Size()) {
			return op, true
		}
	}
	return raftcore.Op{}, false
}

// staleLocalRead is a local read made during a split on the minority side
// that returned state older than a write acknowledged before it began.
func (v *View) staleLocalRead() (raftcore.Op, bool) {
	w, ok := v.majorityWriteInSplit()
	if !ok {
		return raftcore.Op{}, false
	}
	for _, r := range readsAt(v.W, capMinorityReader, raftcore.ReadLocal, true) {
		if w.CompleteUs < r.InvokeUs && r.ReadAt < w.Index && len(r.Side) < quorum(v.W.Size()) {
			return r, true
		}
	}
	return raftcore.Op{}, false
}

// minorityLinearizable is the linearizable read and the write sent to
// etcd-4 during the split.
func (v *View) minorityLinearizable() (read, write raftcore.Op) {
	for _, op := range v.W.Ops() {
		if op.Node != capMinorityReader || !op.Split {
			continue
		}
		if op.Kind == raftcore.DoRead && op.Mode == raftcore.ReadLinearizable && read.ID == 0 {
			read = op
		}
		if isWrite(op) && write.ID == 0 {
			write = op
		}
	}
	return read, write
}

// minorityGaveUp: the linearizable read and the write sent to the minority
// both ended without success.
func (v *View) minorityGaveUp() bool {
	r, w := v.minorityLinearizable()
	return r.ID != 0 && w.ID != 0 && failed(r) && failed(w)
}

func expectCapReads(w *raftcore.World) error {
	v := &View{W: w, h: scan(w)}
	lin, loc, ok := v.healthyPair()
	if !ok {
		return errors.New("the two reads on the healthy network were not both answered")
	}
	if lin.LatencyUs(0) < lin.RoundTripMinUs[0] {
		return fmt.Errorf("the linearizable read took %s, less than a round trip to the leader", ms(lin.LatencyUs(0)))
	}
	if loc.LatencyUs(0) >= lin.LatencyUs(0) {
		return fmt.Errorf("the local read took %s, no faster than the linearizable read's %s", ms(loc.LatencyUs(0)), ms(lin.LatencyUs(0)))
	}
	if _, ok := v.staleLocalRead(); !ok {
		return errors.New("no local read on the minority side returned stale data")
	}
	if !v.minorityGaveUp() {
		r, wr := v.minorityLinearizable()
		return fmt.Errorf("on the minority side the linearizable read %s and the write %s; both should fail", outcome(r), outcome(wr))
	}
	if !v.minorityCaughtUp() {
		return errors.New("after the heal etcd-4 did not catch up with the majority's write")
	}
	if !v.cacheCaughtUp() {
		return errors.New("after the heal the cache did not catch up with the majority's write")
	}
	for _, op := range w.Ops() {
		if op.Kind == raftcore.DoRead && op.Mode == raftcore.ReadLinearizable && op.Result == raftcore.OpOK && op.Split && len(op.Side) < quorum(w.Size()) {
			return fmt.Errorf("a linearizable read at %s was answered without a majority", name(w, op.Node))
		}
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}

func finalCapReads(v *View) string {
	lin, loc, ok := v.healthyPair()
	if !ok {
		return "The two reads on the healthy network have not both been answered yet."
	}
	s := fmt.Sprintf("Healthy: linearizable read %s, local read %s.", ms(lin.LatencyUs(0)), ms(loc.LatencyUs(0)))
	if r, ok := v.staleLocalRead(); ok {
		s += fmt.Sprintf(" Split: the minority's local read answered at once with %s, stale", answer(r))
		if v.minorityGaveUp() {
			s += "; its linearizable read and write got no answer, while the cache answered from its last read"
		}
		s += "."
	}
	return s + " etcd chooses consistency: over availability in a partition, over latency otherwise."
}
