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
		UI: UI{Focus: PanelContract, Panels: []Panel{PanelLogs, PanelContract, PanelChecker}, Key: keyWeb},
		Steps: []Step{
			{Text: "One replicated memory on three machines. Split A and B from C."},
			{Text: "The network is split. Keep writing, on both sides.",
				When: func(v *View) bool { return !whole(v.W) }},
			{Text: "Both sides accepted writes. Each side's history is consistent, and they are no longer the same.",
				When: func(v *View) bool { return v.sidesThatWrote() >= 2 }},
			{Text: "The network is whole again, yet the histories stay different: nothing merges them.",
				When: func(v *View) bool { return v.healedAfterSplit() && settled(v.W) && !logsEqual(v.W, nil) },
				Live: func(v *View) string {
					return "The network is whole again, yet the histories stay different. " + logGroupsLine(v.W)
				}},
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
			at := divergeAt(v.W, gs[0][0], gs[1][0])
			return fmt.Sprintf("%s Their histories part at index %d, and each later write only adds to both; the checker counted %s.",
				logGroupsLine(v.W), at, count(v.W.ViolationCount(raftcore.RuleStateMachineSafety), "fork", "forks"))
		},
	}
}}
