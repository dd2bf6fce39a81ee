package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure notebooks, from "One authoritative history".

var notebooks = def{id: "notebooks",
	knobs: []Knob{protocolKnob(naive, raft)},
	build: func(k values) *Scenario {
		p := raftcore.Protocol(k.get("protocol"))
		var sc script
		if p == raft {
			sc.at(300, act(raftcore.DoTimeout, 3))
		}
		sc.at(1000, lossOneWay(3, 2, 1), write(3, "orders/1", "2 chairs"))
		sc.at(1100, lossOneWay(3, 2, 0))
		sc.at(3000, latency(1, 3, 2500, 3000), latency(2, 3, 2500, 3000))
		sc.at(3300, write(3, "orders/2", "1 desk"))
		sc.at(3600, write(1, "orders/3", "4 lamps"))
		sc.at(5000, write(2, "orders/4", "3 rugs"))
		sc.at(6500, write(1, "orders/5", "6 cups"))
		sc.at(9000, latency(1, 3, 20, 40), latency(2, 3, 20, 40))
		s := &Scenario{
			Title:   "Exercise: three notebooks",
			Chapter: chapterHistory,
			Prompt:  "Let an order reach only two notebooks, delay one notebook while everyone keeps recording, then restore it.",
			Base:    config(p, abc),
			Script:  sc, UntilMs: 15000,
			UI: UI{Focus: PanelLogs, OpenMs: 800, Panels: []Panel{PanelLogs, PanelQuestion, PanelContract}, Key: "orders/1", Highlight: []id{3},
				Compare: compareWith(p, naive, raft), Words: WordsContract, LogsTitle: "Notebooks", LogsKey: notebooksKey(p)},
		}
		// Everyone keeps recording: every notebook wrote down an order
		// given since the delay began.
		delayed := func(v *View) bool {
			at, ok := slowSince(v.W)
			return ok && len(recordedSince(v.W, at)) == v.W.Size()
		}
		if p == naive {
			// The exercise asks for a prediction before anything is
			// revealed: the figure opens on the question.
			s.Prompt = "Predict first: once the notebooks are back in contact, which one should become the official history? Merged, or one chosen? Then play it."
			s.Steps = []Step{
				{Text: "Three colleagues keep notebooks of orders, each copying every order to the other two. Predict first: once they are back in contact, which notebook should become the official history? Then let one order reach only two of them.",
					Claims: claims(machines(3), emptyLogs())},
				{Text: "An order reached two notebooks; the third never saw it.",
					When: func(v *View) bool { return settled(v.W) && !logsEqual(v.W, nil) },
					Live: func(v *View) string {
						if short, long, ok := prefixPair(v.W); ok {
							e := v.W.Node(long).Entry(v.W.Node(short).LastIndex() + 1)
							return fmt.Sprintf("%s never got order %s (%s); the others did.", name(v.W, short), orderNumber(e.Data.Key), e.Data.Value)
						}
						return logGroupsLine(v.W)
					},
					Claims: claims(quiet(), differentHistories())},
				{Text: "One notebook's messages are delayed, and everyone keeps recording.", When: delayed,
					Claims: claims(slowLink(), that("every notebook recorded an order during the delay", delayed))},
				{Text: "Contact is back. Each notebook is consistent on its own, and no two match. Compare with your prediction: which one should everyone trust?",
					When: func(v *View) bool { _, slow := slowSince(v.W); return !slow && settled(v.W) && allDiffer(v.W) },
					Claims: claims(noSlowLink(), quiet(), eachOrderOnce(),
						that("no two notebooks match", func(v *View) bool { return allDiffer(v.W) }))},
			}
			s.Expect = func(w *raftcore.World) error {
				if !settled(w) || !allDiffer(w) {
					return errors.New("some notebooks ended up identical")
				}
				if w.ViolationCount(raftcore.RuleStateMachineSafety) == 0 {
					return errors.New("the checker saw no fork")
				}
				return nil
			}
			s.final = func(v *View) string {
				var parts []string
				for _, n := range all(v.W) {
					parts = append(parts, name(v.W, n)+": "+orderList(v.W, n))
				}
				lead := "No two notebooks match."
				if !allDiffer(v.W) {
					lead = "Some notebooks match."
				}
				return lead + " Orders as each recorded them: " + strings.Join(parts, "; ") + ". Nobody did anything wrong, and nothing here decides which notebook to trust."
			}
			return s
		}
		// The figure opens on its prompt: under raft it asks for the
		// prediction before anything is played.
		s.Prompt = "Under raft now. Predict first: when the delayed notebook is back, whose orders survive? Then play it."
		s.Steps = []Step{
			{Text: "The same three notebooks, now kept under raft. Predict first: when the delayed notebook is back, whose orders will survive, and what becomes of the rest? Then let one order reach only two of them.",
				Claims: claims(machines(3), noOrders())},
			{Text: "A copy was lost, but the notebook in charge saw the other lagging and sent the order again: all three match.",
				When: func(v *View) bool {
					return lostKind(v.h, raftcore.MsgApp) && logsEqual(v.W, nil) && v.W.Node(1).LastIndex() > 1
				},
				Claims: claims(sameHistories(nil), that("a copy was lost", func(v *View) bool { return lostKind(v.h, raftcore.MsgApp) }))},
			{Text: "One notebook's messages are delayed. The others stopped hearing it and put another in charge, while it kept recording.",
				When: func(v *View) bool {
					at, ok := slowSince(v.W)
					return ok && electedSince(v.h, at) && delayed(v)
				},
				Live: func(v *View) string {
					at, _ := slowSince(v.W)
					for _, rc := range v.h.roles {
						if rc.to == raftcore.RoleLeader && rc.atUs >= at {
							return fmt.Sprintf("Messages are delayed. The others stopped hearing the notebook in charge and put %s in charge, while everyone kept recording.", name(v.W, rc.node))
						}
					}
					return "Messages are delayed."
				},
				Claims: claims(slowLink(), that("a notebook was put in charge during the delay", func(v *View) bool {
					at, ok := slowSince(v.W)
					return ok && electedSince(v.h, at)
				}), that("every notebook recorded an order during the delay", delayed))},
			{Text: "Restored. The history a majority had accepted won: orders recorded without a majority were replaced, and their clients were told they failed.",
				When: func(v *View) bool {
					_, slow := slowSince(v.W)
					return !slow && logsEqual(v.W, nil) && replacedAny(v.h) && allDone(v.W)
				},
				Claims: claims(noSlowLink(), sameHistories(nil),
					that("some recorded orders were replaced", func(v *View) bool { return replacedAny(v.h) }),
					that("every order missing from the history was answered as failed", func(v *View) bool {
						for _, op := range v.W.Ops() {
							if _, in := inLog(v.W, 1, op.ID); isWrite(op) && !in && !failed(op) {
								return false
							}
						}
						return true
					}))},
		}
		s.Expect = func(w *raftcore.World) error {
			h := scan(w)
			if !logsEqual(w, nil) {
				return errors.New("the notebooks differ at the end")
			}
			if !replacedAny(h) {
				return errors.New("no uncommitted order was replaced")
			}
			if n := w.ViolationCount(""); n > 0 {
				return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
			}
			for _, op := range w.Ops() {
				_, in := inLog(w, 1, op.ID)
				if op.Result == raftcore.OpOK && !in {
					return fmt.Errorf("order %s was confirmed but is not in the history", op.Key)
				}
			}
			return nil
		}
		s.final = func(v *View) string {
			w := v.W
			var lost []string
			for _, op := range w.Ops() {
				if _, in := inLog(w, 1, op.ID); isWrite(op) && !in && op.Done() {
					lost = append(lost, fmt.Sprintf("order %s, sent to %s, %s", orderNumber(op.Key), name(w, op.Node), outcome(op)))
				}
			}
			s := fmt.Sprintf("All three notebooks hold the same orders: %s.", orderList(w, 1))
			if len(lost) > 0 {
				s += " Not recorded: " + strings.Join(lost, "; ") + "; each client was told."
			}
			return s
		}
		return s
	}}

// notebooksKey says what a square of the notebooks is: an order, by its
// number, in both protocols; under raft, also what the squares that are
// no order, hollow or marked say.
func notebooksKey(p raftcore.Protocol) string {
	if p == raft {
		return "Each square is an order, by its number, as the notebook wrote it down. Blank: a notebook took charge. Hollow: not yet accepted by a majority. Red line: differs from the notebook in charge."
	}
	return "Each square is an order, by its number, in the order the notebook wrote it down. A red line under it: another notebook has a different order there."
}

// recordedSince lists the machines whose log holds a write a client asked
// for at or after time at.
func recordedSince(w *raftcore.World, at int64) []id {
	var out []id
	for _, n := range all(w) {
		nd := w.Node(n)
		for i := uint64(1); i <= nd.LastIndex(); i++ {
			if op, ok := w.Op(nd.Entry(i).Data.OpID); ok && isWrite(op) && op.InvokeUs >= at {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// eachOrderOnce: each notebook is consistent on its own, holding every
// order it has at most once.
//
//go:noinline
func eachOrderOnce() claim {
	return func(v *View) error {
		for _, n := range all(v.W) {
			seen := map[string]bool{}
			nd := v.W.Node(n)
			for i := uint64(1); i <= nd.LastIndex(); i++ {
				k := nd.Entry(i).Data.Key
				if k != "" && seen[k] {
					return fmt.Errorf("the words say each notebook is consistent; %s holds %s twice", name(v.W, n), k)
				}
				seen[k] = true
			}
		}
		return nil
	}
}

// slowSince is when the latest latency change made some link slow (a second
// or more), if a link is slow now.
func slowSince(w *raftcore.World) (int64, bool) {
	slow := false
	for _, a := range all(w) {
		for _, b := range all(w) {
			if a != b && w.Link(a, b).LatencyMinUs >= 1_000_000 {
				slow = true
			}
		}
	}
	if !slow {
		return 0, false
	}
	acts := w.Actions()
	at := int64(0)
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Do == raftcore.DoLatency && len(acts[i].LatencyMs) == 2 && acts[i].LatencyMs[0] >= 1000 {
			at = acts[i].AtUs()
			// Keep going back through a burst of changes made together.
			if i == 0 || acts[i-1].Do != raftcore.DoLatency || acts[i-1].LatencyMs[0] < 1000 {
				break
			}
		}
	}
	return at, true
}

// electedSince reports whether a leader was elected at or after time at.
func electedSince(h *history, at int64) bool {
	for _, rc := range h.roles {
		if rc.to == raftcore.RoleLeader && rc.atUs >= at {
			return true
		}
	}
	return false
}

// lostKind reports whether a message of the given type was lost or dropped.
func lostKind(h *history, kind raftcore.MsgType) bool {
	for _, d := range h.drops {
		if isNetworkLoss(d.why) && d.kind == kind {
			return true
		}
	}
	return false
}

func replacedAny(h *history) bool {
	for _, n := range h.truncs {
		if n > 0 {
			return true
		}
	}
	return false
}

// allDone reports whether every client op has finished.
func allDone(w *raftcore.World) bool {
	for _, op := range w.Ops() {
		if !op.Done() {
			return false
		}
	}
	return true
}

// orderNumber is an order's number, as its key and its square say it.
func orderNumber(key string) string { return strings.TrimPrefix(key, "orders/") }

// orderList lists the keys a machine recorded, in its log's order, without
// their "orders/" prefix.
func orderList(w *raftcore.World, n id) string {
	var out []string
	nd := w.Node(n)
	for i := uint64(1); i <= nd.LastIndex(); i++ {
		if k := nd.Entry(i).Data.Key; k != "" {
			out = append(out, orderNumber(k))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

//go:noinline
func slowLink() claim {
	return that("some notebook's messages are delayed", func(v *View) bool { _, ok := slowSince(v.W); return ok })
}

//go:noinline
func noSlowLink() claim {
	return that("no notebook's messages are delayed any more", func(v *View) bool { _, ok := slowSince(v.W); return !ok })
}
