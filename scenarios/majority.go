package scenarios

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"raftlab/raftcore"
)

// The figure majority, from "One authoritative history".

// splitShapes are the splits the majority figure offers, with the groups,
// the machine made leader beforehand (inside the smaller side, so that it
// accepts writes it can never commit), and the writers cut off from a
// majority.
var splitShapes = map[string]struct {
	groups  [][]int
	lead    int
	writers []int
}{
	"3/2":   {[][]int{{1, 2, 3}, {4, 5}}, 4, []int{4, 5}},
	"4/1":   {[][]int{{1, 2, 3, 4}, {5}}, 5, []int{5}},
	"2/2/1": {[][]int{{1, 2}, {3, 4}, {5}}, 5, []int{5, 3}},
}

var majority = def{id: "majority",
	knobs: []Knob{{Name: "split", Label: "Split", Values: []string{"3/2", "4/1", "2/2/1"}, Default: "3/2"}},
	build: func(k values) *Scenario {
		shape := splitShapes[k.get("split")]
		var sc script
		sc.at(300, act(raftcore.DoTimeout, shape.lead))
		sc.at(2000, write(1, keyWeb, "replicas=3"))
		sc.at(4000, partition(shape.groups...))
		sc.at(4200, write(shape.writers[0], keyWeb, "replicas=2"))
		if len(shape.writers) > 1 {
			sc.at(4400, write(shape.writers[1], keyAPI, "replicas=1"))
		}
		sc.at(8000, write(1, keyWeb, "replicas=5"))
		sc.at(8500, write(2, keyAPI, "replicas=2"))
		sc.at(9000, write(3, keyDB, "replicas=1"))
		sc.at(12000, heal())
		sc.at(16000, write(shape.lead, keyWeb, "replicas=4"))
		sizes := make([]string, len(shape.groups))
		for i, g := range shape.groups {
			sizes[i] = strconv.Itoa(len(g))
		}
		s := &Scenario{
			Title:   "When majority disappears",
			Chapter: chapterHistory,
			Prompt:  "Split five machines into groups of " + strings.Join(sizes, " and ") + ", write on every side, then heal.",
			Base:    config(raft, abcde),
			Script:  sc, UntilMs: 18000,
			UI: UI{Focus: PanelClient, OpenMs: 1500, Panels: []Panel{PanelLogs, PanelClient, PanelContract}, Key: keyWeb, Highlight: []id{id(shape.lead)}, Words: WordsInCharge},
		}
		// A cut link alone splits nothing: the step waits for the groups.
		split := Step{Text: "The network is split. Each group hears only silence from the others.",
			When: func(v *View) bool { return v.W.SideCount() >= 2 },
			Live: func(v *View) string {
				return fmt.Sprintf("The network is split: %s. Each group hears only silence from the others.", sidesWords(v.W))
			},
			Claims: claims(splitNow(), that("the machines are in separate groups", func(v *View) bool { return v.W.SideCount() >= 2 }))}
		s.Steps = []Step{{Text: "Five machines share one history. Split them into groups of " + strings.Join(sizes, " and ") + ".",
			Claims: claims(machines(5), that("the network is whole", func(v *View) bool { return whole(v.W) }))}, split}
		if len(shape.groups[0]) >= 3 {
			s.Steps = append(s.Steps,
				Step{Text: "The group with a majority put a machine in charge and goes on committing.",
					When: func(v *View) bool {
						ok, _ := v.splitOutcomes()
						_, has := majorityLeader(v.W)
						return has && ok > 0
					},
					Live: func(v *View) string {
						l, _ := majorityLeader(v.W)
						g, _ := majorityGroup(v.W)
						return fmt.Sprintf("The group of %d put %s in charge and goes on committing.", len(g), name(v.W, l))
					},
					Claims: claims(splitNow(), that("the machine in charge of the majority group committed a write", func(v *View) bool {
						ok, _ := v.splitOutcomes()
						_, has := majorityLeader(v.W)
						return has && ok > 0
					}))},
				Step{Text: "The smaller group cannot commit: its writes wait, then fail.",
					When:   func(v *View) bool { _, bad := v.splitOutcomes(); return bad > 0 },
					Claims: claims(minorityNeverCommitted())},
				Step{Text: "Healed. The smaller group caught up, and the entries it had accepted alone were replaced by the majority's history.",
					When: func(v *View) bool {
						return v.healedAfterSplit() && len(leaders(v.W)) == 1 && logsEqual(v.W, nil) && v.minorityWritesGone()
					},
					Claims: claims(healed(), sameHistories(nil), minorityNeverCommitted(),
						that("entries were replaced", func(v *View) bool { return replacedAny(v.h) }))},
			)
			s.Expect = expectMajority
		} else {
			s.Steps = append(s.Steps,
				Step{Text: "No group holds three of five: none can put a machine in charge, none can commit.", HoldMs: 3000,
					When: func(v *View) bool {
						ok, _ := v.splitOutcomes()
						_, has := majorityGroup(v.W)
						return !whole(v.W) && !has && ok == 0
					},
					Claims: claims(splitNow(), noneLeadsRunning(), that("no group holds a majority", func(v *View) bool { _, has := majorityGroup(v.W); return !has }))},
				Step{Text: "Every write waits, then fails.",
					When:   func(v *View) bool { _, bad := v.splitOutcomes(); return bad > 0 },
					Claims: claims(minorityNeverCommitted())},
				Step{Text: "Healed: a majority can meet again, and writes commit.",
					When:   func(v *View) bool { return v.healedAfterSplit() && logsEqual(v.W, nil) && v.writeOKAfterHeal() },
					Claims: claims(healed(), sameHistories(nil), that("a write committed after the heal", func(v *View) bool { return v.writeOKAfterHeal() }))},
			)
			s.Expect = expectNoMajority
		}
		s.final = finalMajority
		return s
	}}

// shapeOf writes group sizes largest first, e.g. "3/2".
func shapeOf(groups [][]id) string {
	sizes := make([]int, len(groups))
	for i, g := range groups {
		sizes[i] = len(g)
	}
	for i := 1; i < len(sizes); i++ {
		for j := i; j > 0 && sizes[j] > sizes[j-1]; j-- {
			sizes[j], sizes[j-1] = sizes[j-1], sizes[j]
		}
	}
	parts := make([]string, len(sizes))
	for i, n := range sizes {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, "/")
}

// writeOKAfterHeal reports whether a write made after the latest heal
// succeeded.
func (v *View) writeOKAfterHeal() bool {
	at, ok := v.W.LastHeal()
	if !ok || !whole(v.W) {
		return false
	}
	for _, op := range v.W.Ops() {
		if isWrite(op) && op.InvokeUs >= at && op.Result == raftcore.OpOK {
			return true
		}
	}
	return false
}

func expectMajority(w *raftcore.World) error {
	v := &View{W: w, h: scan(w)}
	ok, _ := v.splitOutcomes()
	if ok == 0 {
		return errors.New("the majority side committed nothing during the split")
	}
	mw := v.minorityWrites()
	if len(mw) == 0 {
		return errors.New("nobody wrote on the minority side")
	}
	for _, op := range mw {
		if op.Result == raftcore.OpOK || committedAnywhere(w, op.ID) {
			return fmt.Errorf("the minority side's write %d at %s committed", op.ID, name(w, op.Node))
		}
	}
	if !logsEqual(w, nil) {
		return errors.New("after the heal the logs differ")
	}
	if !v.minorityWritesGone() {
		return errors.New("a minority entry is still in some log after the heal")
	}
	replaced := 0
	for _, n := range all(w) {
		replaced += v.h.truncs[n]
	}
	if replaced == 0 {
		return errors.New("no uncommitted entry was replaced after the heal")
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}

func expectNoMajority(w *raftcore.World) error {
	v := &View{W: w, h: scan(w)}
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && op.Result == raftcore.OpOK {
			return fmt.Errorf("write %d at %s succeeded with no majority anywhere", op.ID, name(w, op.Node))
		}
	}
	if _, bad := v.splitOutcomes(); bad == 0 {
		return errors.New("no write was tried during the split")
	}
	if !logsEqual(w, nil) || !v.writeOKAfterHeal() {
		return errors.New("after the heal the logs differ or no write succeeded")
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}

func finalMajority(v *View) string {
	w := v.W
	if _, ok := w.LastSplit(); !ok {
		return "The network never split."
	}
	q := quorum(w.Size())
	var b strings.Builder
	bigSize, bigOK := 0, 0
	smallSize := 0
	for _, op := range v.opsDuringSplit() {
		g := len(op.Side)
		if g >= q {
			bigSize = g
			if isWrite(op) && op.Result == raftcore.OpOK {
				bigOK++
			}
		} else if g > smallSize {
			smallSize = g
		}
	}
	if bigSize > 0 {
		fmt.Fprintf(&b, "The %d-machine side committed %s; ", bigSize, count(bigOK, "write", "writes"))
	} else {
		fmt.Fprintf(&b, "No group had a majority, so nothing committed during the %s split; ", secs(v.splitLasted()))
	}
	mw := v.minorityWrites()
	committedLater := 0
	for _, op := range mw {
		if op.Result != raftcore.OpOK && committedAnywhere(w, op.ID) {
			committedLater++
		}
	}
	replaced := 0
	for _, n := range all(w) {
		replaced += v.h.truncs[n]
	}
	who := fmt.Sprintf("the %s made then", count(len(mw), "write", "writes"))
	if bigSize > 0 {
		who = fmt.Sprintf("the %d-machine side's %s", smallSize, count(len(mw), "write", "writes"))
	}
	switch {
	case len(mw) == 0:
		b.WriteString("nobody wrote where no majority could be reached.")
	case committedLater > 0:
		fmt.Fprintf(&b, "%s failed for the clients, yet %d committed after the heal, when a majority took it up.", who, committedLater)
	case replaced > 0:
		fmt.Fprintf(&b, "%s never committed, and the uncommitted entries left behind were replaced after the heal.", who)
	default:
		fmt.Fprintf(&b, "%s never committed and left no entry behind.", who)
	}
	return capital(b.String())
}

// minorityNeverCommitted: some write made where no majority could be
// reached has failed, and none such has succeeded.
//
//go:noinline
func minorityNeverCommitted() claim {
	return func(v *View) error {
		failedOne := false
		for _, op := range v.minorityWrites() {
			if op.Result == raftcore.OpOK {
				return fmt.Errorf("the words say writes cut off from a majority fail; %s's write succeeded", name(v.W, op.Node))
			}
			failedOne = failedOne || failed(op)
		}
		if !failedOne {
			return fmt.Errorf("the words say a write cut off from a majority failed; none has yet")
		}
		return nil
	}
}

// noneLeadsRunning: no running machine that can reach a majority leads;
// a leader cut off in a small group may still believe it leads, but none
// can be elected.
//
//go:noinline
func noneLeadsRunning() claim {
	return that("no group could put a machine in charge", func(v *View) bool {
		for _, rc := range v.h.roles {
			if at, ok := v.W.LastSplit(); ok && rc.to == raftcore.RoleLeader && rc.atUs >= at {
				return false
			}
		}
		return true
	})
}
