package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure contract, from "One authoritative history".

var contractDef = def{id: "contract",
	knobs: []Knob{protocolKnob(raft, naive, failover)},
	build: func(k values) *Scenario {
		p := raftcore.Protocol(k.get("protocol"))
		sc := silenceA(p)
		sc.at(8000, write(3, keyAPI, "replicas=2"))
		sc.at(10000, heal())
		sc.at(12000, write(2, keyDB, "replicas=1"))
		return &Scenario{
			Title:   "The shared-history contract",
			Chapter: chapterHistory,
			Prompt:  "Watch the contract's five promises while the network splits and heals; compare raft, naive-copy and failover.",
			Base:    config(p, abc),
			Script:  sc, UntilMs: 15000,
			UI: UI{Focus: PanelContract, OpenMs: 1000, Panels: []Panel{PanelContract, PanelLogs, PanelClient}, Key: keyWeb, Words: WordsContract},
			Steps: []Step{
				{Text: "A shared history makes five promises. Watch each one hold, bend or break while the network fails and mends.",
					Claims: claims(fivePromises(), that("the network is whole", func(v *View) bool { return whole(v.W) }))},
				{Text: "The network split. A promise may bend for a while: bent is not yet broken.",
					When:   func(v *View) bool { return !whole(v.W) },
					Claims: claims(fivePromises(), splitNow())},
				{Text: "Both sides were asked to write.",
					When: func(v *View) bool { return v.sidesAsked() >= 2 },
					Live: func(v *View) string { return "Both sides were asked to write. " + contractTally(v.W) },
					Claims: claims(fivePromises(), that("both sides were asked to write", func(v *View) bool { return v.sidesAsked() >= 2 }),
						tallyAsSaid())},
				{Text: "The network is whole again. What is still broken now stays broken.", HoldMs: 2000,
					When: func(v *View) bool { return v.healedAfterSplit() },
					Live: func(v *View) string {
						broken := clauseTitles(v.W, raftcore.ClauseBroken)
						if len(broken) == 0 {
							return "The network is whole again. " + contractTally(v.W)
						}
						return "The network is whole again, and these promises stay broken: " + strings.Join(broken, "; ") + "."
					},
					Claims: claims(fivePromises(), healed(), tallyAsSaid())},
			},
			Expect: func(w *raftcore.World) error {
				v := &View{W: w, h: scan(w)}
				if !v.healedAfterSplit() || v.sidesAsked() < 2 {
					return errors.New("the network did not split with writes on both sides and heal")
				}
				cs := w.Contract()
				if p == raft {
					for _, c := range cs {
						if c.State != raftcore.ClauseHolding {
							return fmt.Errorf("under raft %q is %s at the end: %s", c.ID, c.State, c.Fact)
						}
					}
					return nil
				}
				want := []string{raftcore.ClauseOneHistory, raftcore.ClauseAgreed, raftcore.ClauseAgreement}
				if p == naive {
					want = append(want, raftcore.ClauseNoFork)
				}
				for _, c := range cs {
					for _, id := range want {
						if c.ID == id && c.State != raftcore.ClauseBroken {
							return fmt.Errorf("under %s %q is %s at the end, want broken: %s", p, c.ID, c.State, c.Fact)
						}
					}
				}
				return nil
			},
			final: func(v *View) string {
				broken := clauseTitles(v.W, raftcore.ClauseBroken)
				if len(broken) == 0 {
					s := fmt.Sprintf("Under %s all five promises hold at the end: every machine builds on the one history a majority agreed on.", p)
					for _, op := range v.minorityWrites() {
						s += fmt.Sprintf(" The write %s took while cut off %s and is in no history.", name(v.W, op.Node), outcome(op))
					}
					return s
				}
				return fmt.Sprintf("Under %s, %d of 5 promises ended broken: %s. The contract panel says, promise by promise, what broke it.", p, len(broken), strings.Join(broken, "; "))
			},
		}
	}}

// sidesAsked counts the groups asked to write during the latest split,
// whatever the answer.
func (v *View) sidesAsked() int {
	seen := map[string]bool{}
	for _, op := range v.opsDuringSplit() {
		if isWrite(op) && len(op.Side) > 0 {
			seen[sideKey(op)] = true
		}
	}
	return len(seen)
}

// promiseNames are the contract's promises as the figure's story names
// them (the panel's titles are the screen's, in viz/words).
var promiseNames = map[string]string{
	raftcore.ClauseOneHistory: "history becomes singular",
	raftcore.ClauseConverge:   "all build on one history",
	raftcore.ClauseNoFork:     "history never forks for good",
	raftcore.ClauseAgreed:     "decisions use shared history",
	raftcore.ClauseAgreement:  "agreement over copies",
}

// clauseTitles names the promises in state st, in the contract's order.
func clauseTitles(w *raftcore.World, st raftcore.ClauseState) []string {
	var out []string
	for _, c := range w.Contract() {
		if c.State == st {
			out = append(out, promiseNames[c.ID])
		}
	}
	return out
}

// contractTally counts the promises by state, e.g. "Right now, of the five
// promises, 3 hold, 2 bend."
func contractTally(w *raftcore.World) string {
	h, n, b := 0, 0, 0
	for _, c := range w.Contract() {
		switch c.State {
		case raftcore.ClauseHolding:
			h++
		case raftcore.ClauseNotYet:
			n++
		default:
			b++
		}
	}
	if h == len(w.Contract()) {
		return "Right now all five promises hold."
	}
	parts := []string{}
	for _, p := range []struct {
		k          int
		one, other string
	}{{h, "holds", "hold"}, {n, "bends", "bend"}, {b, "is broken", "are broken"}} {
		if p.k > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.k, verb(p.k, p.one, p.other)))
		}
	}
	return "Right now, of the five promises, " + strings.Join(parts, ", ") + "."
}

// fivePromises: the contract the words speak of has five promises.
//
//go:noinline
func fivePromises() claim {
	return func(v *View) error {
		if n := len(v.W.Contract()); n != 5 {
			return fmt.Errorf("the words speak of five promises; the contract has %d", n)
		}
		return nil
	}
}

// tallyAsSaid: every promise the tally counts is in the state it is
// counted in, read clause by clause.
//
//go:noinline
func tallyAsSaid() claim {
	return func(v *View) error {
		cs := v.W.Contract()
		h, nb := 0, 0
		for _, c := range cs {
			switch c.State {
			case raftcore.ClauseHolding:
				h++
			case raftcore.ClauseNotYet, raftcore.ClauseBroken:
				nb++
			default:
				return fmt.Errorf("promise %q is in no state the words name: %s", c.ID, c.State)
			}
		}
		if h+nb != 5 {
			return fmt.Errorf("the tally counts five promises; the contract has %d", h+nb)
		}
		return nil
	}
}
