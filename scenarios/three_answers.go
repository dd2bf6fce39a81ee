package scenarios

import (
	"errors"
	"fmt"

	"raftlab/raftcore"
)

// The figure three-answers, from "One authoritative history".

var threeAnswers = def{id: "three-answers", build: func(values) *Scenario {
	var sc script
	sc.at(1000, lossOneWay(1, 3, 1), write(1, keyWeb, "replicas=3"))
	sc.at(1100, lossOneWay(1, 3, 0))
	sc.at(3000, readLocal(1, keyWeb), readLocal(2, keyWeb), readLocal(3, keyWeb))
	// Asked again later, C still says no: nothing repairs it.
	sc.at(8000, readLocal(3, keyWeb))
	return &Scenario{
		Title:   "Three machines, three answers",
		Chapter: chapterHistory,
		Prompt:  "Write deployments/web on A, lose its copy to C, then ask every machine whether it exists.",
		Base:    config(naive, abc),
		Script:  sc, UntilMs: 10000,
		UI: UI{Focus: PanelQuestion, Panels: []Panel{PanelQuestion, PanelLogs, PanelClient}, Key: keyWeb, Highlight: []id{3}, Words: WordsCopies},
		Steps: []Step{
			{Text: "Three machines start empty; each keeps its own copy of history. Write deployments/web on one of them, and let the network lose one copy.",
				Claims: claims(machines(3), emptyLogs(), allActive())},
			{Text: "A copy was lost on its way, and nothing will send it again. Ask each machine whether the key exists.",
				When: func(v *View) bool {
					// The copy is marked lost when sent, but is seen lost
					// only when it would have arrived: wait for that.
					_, _, no, ok := keyDisagreement(v.W)
					_, lost := lossTo(v.h, no)
					return ok && lost && settled(v.W)
				},
				Live: func(v *View) string {
					k, _, no, _ := keyDisagreement(v.W)
					return fmt.Sprintf("The copy to %s was lost, and nothing will send it again. Ask each machine: does %s exist?", names(v.W, no), k)
				},
				Claims: claims(quiet(), that("the machines lacking the key lost a copy on the way", func(v *View) bool {
					_, _, no, ok := keyDisagreement(v.W)
					_, lost := lossTo(v.h, no)
					return ok && lost
				}))},
			{Text: "The machines disagree, and none of them is lying: each reports what reached it.",
				When: func(v *View) bool { _, ok := readsDisagree(v.W); return ok },
				Live: func(v *View) string {
					k, _ := readsDisagree(v.W)
					yes, no := readAnswers(v.W, k)
					return fmt.Sprintf("%s %s YES; %s %s NO. None is lying: each reports what reached it.",
						names(v.W, yes), verb(len(yes), "answers", "answer"), names(v.W, no), verb(len(no), "answers", "answer"))
				},
				Claims: claims(answersAsHeld())},
		},
		Expect: func(w *raftcore.World) error {
			k, _, no, ok := keyDisagreement(w)
			if !ok || !settled(w) {
				return errors.New("the machines ended up agreeing about every key")
			}
			if _, ok := readsDisagree(w); !ok {
				return errors.New("no two reads of the same key gave different answers")
			}
			if _, ok := lossTo(scan(w), no); !ok {
				return fmt.Errorf("%s lacks %s, but no message to it was lost", names(w, no), k)
			}
			return nil
		},
		final: func(v *View) string {
			k, yes, no, ok := keyDisagreement(v.W)
			if !ok {
				return "Every machine gives the same answer about every key: no copy was lost."
			}
			val, _ := v.W.Node(yes[0]).KV().Get(k)
			s := fmt.Sprintf("%s %s YES to %s (%s, index %d); %s %s NO", names(v.W, yes), verb(len(yes), "answers", "answer"), k, val.Value, val.ModIndex,
				names(v.W, no), verb(len(no), "answers", "answer"))
			if d, ok := lossTo(v.h, no); ok {
				s += fmt.Sprintf(": its copy was %s at %s, and nothing ever sends it again.", lossWords(d.why), secs(d.atUs))
			} else {
				s += "."
			}
			return s
		},
	}
}}

// readsDisagree finds a key that one completed read found and another did
// not.
func readsDisagree(w *raftcore.World) (string, bool) {
	for _, op := range w.Ops() {
		if op.Kind != raftcore.DoRead || op.Result != raftcore.OpOK {
			continue
		}
		yes, no := readAnswers(w, op.Key)
		if len(yes) > 0 && len(no) > 0 {
			return op.Key, true
		}
	}
	return "", false
}

// readAnswers returns the machines whose latest completed read of key found
// it, and those whose latest did not.
func readAnswers(w *raftcore.World, key string) (yes, no []id) {
	last := make([]int, w.Size()+1) // 1 found, -1 not found
	for _, op := range w.Ops() {
		if op.Kind == raftcore.DoRead && op.Key == key && op.Result == raftcore.OpOK {
			if op.ReadFound {
				last[op.Node] = 1
			} else {
				last[op.Node] = -1
			}
		}
	}
	for _, n := range all(w) {
		switch last[n] {
		case 1:
			yes = append(yes, n)
		case -1:
			no = append(no, n)
		}
	}
	return yes, no
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// lossTo finds the first message lost on its way to one of the machines.
func lossTo(h *history, to []id) (drop, bool) {
	for _, d := range h.drops {
		if contains(to, d.to) && isNetworkLoss(d.why) {
			return d, true
		}
	}
	return drop{}, false
}

func isNetworkLoss(why raftcore.Cause) bool {
	return why == raftcore.DropLost || why == raftcore.DropLinkCut || why == raftcore.DropByHand
}

func lossWords(why raftcore.Cause) string {
	switch why {
	case raftcore.DropLinkCut:
		return "stopped by a cut link"
	case raftcore.DropByHand:
		return "dropped"
	}
	return "lost in the network"
}

// answersAsHeld: some machines answered YES and some NO about the same key,
// and each answer is what that machine holds now.
//
//go:noinline
func answersAsHeld() claim {
	return func(v *View) error {
		k, ok := readsDisagree(v.W)
		if !ok {
			return fmt.Errorf("the words say the answers differ; they do not")
		}
		yes, no := readAnswers(v.W, k)
		for _, n := range yes {
			if _, has := v.W.Node(n).KV().Get(k); !has {
				return fmt.Errorf("%s is said to answer YES about %s, but does not hold it", name(v.W, n), k)
			}
		}
		for _, n := range no {
			if _, has := v.W.Node(n).KV().Get(k); has {
				return fmt.Errorf("%s is said to answer NO about %s, but holds it", name(v.W, n), k)
			}
		}
		return nil
	}
}
