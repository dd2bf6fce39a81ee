package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure two-worlds, from "One authoritative history".

var twoWorlds = def{id: "two-worlds", build: func(values) *Scenario {
	var sc script
	sc.at(1000, write(1, keyWeb, "replicas=3"))
	sc.at(3000, partition([]int{1, 2}, []int{3}))
	sc.at(4000, write(1, keyWeb, "replicas=5"))
	sc.at(4500, write(3, keyWeb, "replicas=1"))
	sc.at(5500, write(2, keyAPI, "replicas=2"))
	sc.at(6000, write(3, keyDB, "replicas=1"))
	sc.at(8000, heal())
	sc.at(9000, write(1, "deployments/cache", "replicas=1"))
	return &Scenario{
		Title:   "The partition that created two worlds",
		Chapter: chapterHistory,
		Prompt:  "Split A and B from C, keep writing on both sides, then heal the network.",
		Base:    config(naive, abc),
		Script:  sc, UntilMs: 12000,
		UI: UI{Focus: PanelContract, Panels: []Panel{PanelLogs, PanelContract, PanelChecker}, Key: keyWeb, Words: WordsCopies},
		Steps: []Step{
			{Text: "Three machines copy one memory to each other over a whole network. Split A and B from C.",
				Claims: claims(machines(3), that("the network is whole", func(v *View) bool { return whole(v.W) }))},
			{Text: "The network is split. Keep writing, on both sides.",
				When:   func(v *View) bool { return !whole(v.W) },
				Claims: claims(splitNow())},
			{Text: "Both sides took writes, and their histories are no longer the same. Neither side is broken: each just never heard the other.",
				When:   func(v *View) bool { return v.sidesThatWrote() >= 2 },
				Claims: claims(splitNow(), differentHistories(), that("both sides took writes", func(v *View) bool { return v.sidesThatWrote() >= 2 }))},
			{Text: "The network is whole again, yet the histories stay apart: nothing merges them.",
				When: func(v *View) bool { return v.healedAfterSplit() && settled(v.W) && !logsEqual(v.W, nil) },
				Live: func(v *View) string {
					return "The network is whole again, yet the histories stay apart. " + logGroupsLine(v.W)
				},
				Claims: claims(healed(), quiet(), differentHistories(), groupsAsSaid(), partsWhereSaid())},
		},
		Expect: func(w *raftcore.World) error {
			v := &View{W: w, h: scan(w)}
			if n := v.sidesThatWrote(); n < 2 {
				return fmt.Errorf("writes succeeded on %d side(s) of the split, want both", n)
			}
			if !v.healedAfterSplit() || !settled(w) {
				return errors.New("the network did not heal and settle")
			}
			if logsEqual(w, nil) {
				return errors.New("the histories became equal again")
			}
			if w.ViolationCount(raftcore.RuleStateMachineSafety) == 0 {
				return errors.New("the checker saw no fork")
			}
			return nil
		},
		final: func(v *View) string {
			gs := logGroups(v.W)
			if len(gs) < 2 {
				return logGroupsLine(v.W)
			}
			return fmt.Sprintf("%s Writes made since the heal reach every machine, but they only add to both histories: nothing goes back to mend where they part. The checker counted %s.",
				logGroupsLine(v.W), count(v.W.ViolationCount(raftcore.RuleStateMachineSafety), "fork", "forks"))
		},
	}
}}

// partsWhereSaid: when two groups hold histories of which neither is the
// start of the other, they first differ where logGroupsLine says, entry by
// entry.
func partsWhereSaid() claim {
	return func(v *View) error {
		gs := logGroups(v.W)
		if len(gs) != 2 {
			return nil
		}
		a, b := v.W.Node(gs[0][0]), v.W.Node(gs[1][0])
		said := divergeAt(v.W, gs[0][0], gs[1][0])
		for i := uint64(1); i <= min(a.LastIndex(), b.LastIndex()); i++ {
			if a.Entry(i).Data != b.Entry(i).Data {
				if i != said {
					return fmt.Errorf("the words say the histories part at index %d; the first entries to differ are at %d", said, i)
				}
				return nil
			}
		}
		if said != 0 {
			return fmt.Errorf("the words say the histories part at index %d; every entry both hold is the same", said)
		}
		return nil
	}
}
