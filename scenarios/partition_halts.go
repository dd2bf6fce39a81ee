package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure partition-halts, from "Distributed systems fundamentals".

var partitionHalts = def{id: "partition-halts", build: func(values) *Scenario {
	var sc script
	sc.at(300, act(raftcore.DoTimeout, 1))
	sc.at(2000, write(2, keyWeb, "replicas=3"))
	sc.at(4000, partition([]int{1, 2}, []int{3, 4}, []int{5}))
	sc.at(4500, write(1, keyWeb, "replicas=4"))
	sc.at(5500, write(3, keyWeb, "replicas=5"))
	sc.at(6500, write(5, keyAPI, "replicas=1"))
	sc.at(12000, heal())
	sc.at(16500, write(4, keyWeb, "replicas=6"))
	noQuorum := func(v *View) bool { _, ok := majorityGroup(v.W); return !whole(v.W) && !ok }
	return &Scenario{
		Title:   "Writes stop without quorum",
		Chapter: chapterFundamentals,
		Prompt:  "Partition five members so that no group has three, and try to write anywhere.",
		Base:    config(raft, etcdNames(5)),
		Script:  sc, UntilMs: 18000,
		UI: UI{Focus: PanelClient, OpenMs: 1500, Panels: []Panel{PanelClient, PanelLogs, PanelRoles}, Key: keyWeb},
		Steps: []Step{
			{Text: "Five members share one history over a whole network. Partition them so that no group has three.",
				Claims: claims(machines(5), allActive(), that("the network is whole", func(v *View) bool { return whole(v.W) }))},
			{Text: "No group holds a majority. Every write must now wait or fail.", When: noQuorum,
				Live: func(v *View) string {
					return fmt.Sprintf("The network is split: %s. No group holds a majority, so every write must now wait or fail.", sidesWords(v.W))
				},
				Claims: claims(splitNow(), that("no group holds a majority", noQuorum))},
			{Text: "A write failed: nobody could commit it, so the cluster chose to stop rather than risk two histories.",
				When: func(v *View) bool { _, bad := v.splitOutcomes(); return bad > 0 },
				Live: func(v *View) string {
					for _, op := range v.minorityWrites() {
						if failed(op) {
							return fmt.Sprintf("The write sent to %s %s: nobody could commit it, so the cluster stopped rather than risk two histories.", name(v.W, op.Node), outcome(op))
						}
					}
					return "A write failed."
				},
				Claims: claims(that("no group holds a majority", noQuorum),
					opEnded("a write sent during the split", func(v *View) (raftcore.Op, bool) {
						for _, op := range v.minorityWrites() {
							if failed(op) {
								return op, true
							}
						}
						return raftcore.Op{}, false
					}, false),
					that("nothing committed during the split", func(v *View) bool { ok, _ := v.splitOutcomes(); return ok == 0 }))},
			{Text: "Quorum is back and writes commit again.",
				When:   func(v *View) bool { return v.writeOKAfterHeal() },
				Claims: claims(healed(), that("a write committed after the heal", func(v *View) bool { return v.writeOKAfterHeal() }))},
		},
		Expect: func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			split, _ := w.LastSplit()
			healAt, _ := w.LastHeal()
			tried := 0
			for _, op := range v.opsDuringSplit() {
				tried++
				if op.Result == raftcore.OpOK {
					return fmt.Errorf("write %d at %s succeeded without a quorum", op.ID, name(w, op.Node))
				}
			}
			if tried == 0 {
				return errors.New("no write was tried during the partition")
			}
			if top, during := commitsBetween(w, split, healAt); during > top {
				return fmt.Errorf("the commit index moved from %d to %d during the partition", top, during)
			}
			if !v.writeOKAfterHeal() {
				return errors.New("no write succeeded after the heal")
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			return nil
		},
		final: func(v *View) string {
			w := v.W
			if _, ok := w.LastSplit(); !ok {
				return "The network never split."
			}
			timeouts, refused, okCount := 0, 0, 0
			for _, op := range v.opsDuringSplit() {
				switch op.Result {
				case raftcore.OpTimeout:
					timeouts++
				case raftcore.OpRefused:
					refused++
				case raftcore.OpOK:
					okCount++
				}
			}
			var b strings.Builder
			fmt.Fprintf(&b, "During the %s partition %s tried: %d committed, %d timed out, %d refused.",
				secs(v.splitLasted()), count(len(v.opsDuringSplit()), "write was", "writes were"), okCount, timeouts, refused)
			later := 0
			for _, op := range v.opsDuringSplit() {
				if op.Result != raftcore.OpOK && committedAnywhere(w, op.ID) {
					later++
				}
			}
			if later > 0 {
				fmt.Fprintf(&b, " Still, %s given up by its client committed after the heal: a failed write may yet take effect.", count(later, "write", "writes"))
			}
			healAt, _ := w.LastHeal()
			for _, op := range w.Ops() {
				if isWrite(op) && whole(w) && op.InvokeUs >= healAt && op.Result == raftcore.OpOK {
					fmt.Fprintf(&b, " After the heal a write %s.", outcome(op))
					break
				}
			}
			return b.String()
		},
	}
}}

// commitsBetween returns the highest commit index any machine reached by
// time from, and the highest reached before time to, from the trace.
func commitsBetween(w *raftcore.World, from, to int64) (before, during uint64) {
	for _, e := range w.Trace() {
		if e.Kind != raftcore.TraceCommit {
			continue
		}
		if e.AtUs <= from && e.Index > before {
			before = e.Index
		}
		if e.AtUs < to && e.Index > during {
			during = e.Index
		}
	}
	return before, during
}
