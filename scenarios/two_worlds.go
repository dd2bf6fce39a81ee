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
		// The paragraph is about histories, four sections before the book
		// states the contract: the figure shows the histories, and leaves
		// the contract and the checker to the full lab.
		UI: UI{Focus: PanelLogs, Panels: []Panel{PanelLogs, PanelContract, PanelChecker}, Key: keyWeb, Words: WordsCopies,
			LogsKey: "Each square is a write, by the replica count it sets, in the order the machine took it. A red line under it: another machine holds a different write there."},
		Steps: []Step{
			{Text: "Three machines copy one memory to each other over a whole network. Split A and B from C.",
				Claims: claims(machines(3), that("the network is whole", func(v *View) bool { return whole(v.W) }))},
			{Text: "The network is split. Keep writing, on both sides.",
				When:   func(v *View) bool { return !whole(v.W) },
				Claims: claims(splitNow())},
			{Text: "Both sides took writes, and their histories are no longer the same. Neither side is broken: each just never heard the other.",
				When:   func(v *View) bool { return v.sidesThatWrote() >= 2 },
				Claims: claims(splitNow(), differentHistories(), that("both sides took writes", func(v *View) bool { return v.sidesThatWrote() >= 2 }))},
			{Text: "The network is whole again, and a write made since reached every machine, yet the histories stay apart: nothing merges them.",
				When: func(v *View) bool {
					return v.healedAfterSplit() && settled(v.W) && !logsEqual(v.W, nil) && writeSinceHealEverywhere(v.W)
				},
				Live: func(v *View) string {
					return "The network is whole again, and a write made since reached every machine, yet the histories stay apart. " + logGroupsLine(v.W)
				},
				Claims: claims(healed(), quiet(), differentHistories(), groupsAsSaid(), partsWhereSaid(),
					that("a write made since the heal reached every machine", func(v *View) bool { return writeSinceHealEverywhere(v.W) }))},
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
			mend := "Nothing goes back to mend where they part."
			if writeSinceHealEverywhere(v.W) {
				mend = "Writes made since the heal reach every machine, but they only add to both histories: nothing goes back to mend where they part."
			}
			return fmt.Sprintf("%s %s %s", logGroupsLine(v.W), mend, apartLine(v.W))
		},
	}
}}

// writeSinceHealEverywhere reports whether a write a client asked for
// since the network last healed is in every machine's history.
func writeSinceHealEverywhere(w *raftcore.World) bool {
	at, ok := w.LastHeal()
	if !ok {
		return false
	}
	for _, op := range w.Ops() {
		if !isWrite(op) || op.InvokeUs < at {
			continue
		}
		everywhere := true
		for _, n := range all(w) {
			_, in := inLog(w, n, op.ID)
			everywhere = everywhere && in
		}
		if everywhere {
			return true
		}
	}
	return false
}

// apartLine says at how many positions the machines' histories hold
// different writes, every one of which the machines have acted on.
func apartLine(w *raftcore.World) string {
	return fmt.Sprintf("At %s the histories hold different writes, and each machine has acted on its own.",
		count(len(apartAt(w)), "position", "positions"))
}

// apartAt lists the indexes at which two machines hold different entries.
func apartAt(w *raftcore.World) []uint64 {
	var out []uint64
	for i := uint64(1); ; i++ {
		var held []raftcore.Command
		for _, n := range all(w) {
			if w.Node(n).LastIndex() >= i {
				held = append(held, w.Node(n).Entry(i).Data)
			}
		}
		if len(held) == 0 {
			return out
		}
		for _, c := range held[1:] {
			if c != held[0] {
				out = append(out, i)
				break
			}
		}
	}
}

// partsWhereSaid: when two groups hold histories of which neither is the
// start of the other, they first differ where logGroupsLine says, entry by
// entry.
//
//go:noinline
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
