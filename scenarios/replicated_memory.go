package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure replicated-memory, from "One authoritative history".

var replicatedMemory = def{id: "replicated-memory", build: func(values) *Scenario {
	var sc script
	sc.at(1000, write(1, keyWeb, "replicas=3"))
	sc.at(3000, lossOneWay(2, 3, 1), write(2, keyWeb, "replicas=5"))
	sc.at(3100, lossOneWay(2, 3, 0))
	gap := func(v *View) bool { return !logsEqual(v.W, nil) && settled(v.W) }
	return &Scenario{
		Title:   "The naive replicated memory",
		Chapter: chapterHistory,
		Prompt:  "Write a change, then write another while the network drops one delivery.",
		Base:    config(naive, abc),
		Script:  sc, UntilMs: 10000,
		UI: UI{Focus: PanelQuestion, Panels: []Panel{PanelLogs, PanelQuestion, PanelContract}, Key: keyWeb},
		Steps: []Step{
			{Text: "Three machines keep copies of one memory, all empty. Write a change."},
			{Text: "Every machine recorded it: copying works, for now. Write again, and let the network drop one copy.",
				When: func(v *View) bool {
					return v.W.Node(1).LastIndex() > 0 && logsEqual(v.W, nil) && settled(v.W)
				}},
			{Text: "Some machines have the change and one does not.", When: gap,
				Live: func(v *View) string { return logGroupsLine(v.W) + " Nobody is told." }},
			{Text: "Time passes, and nothing notices or repairs the gap: no machine ever checks what the others hold.",
				When: gap, HoldMs: 3000},
		},
		Expect: func(w *raftcore.World) error {
			if !settled(w) || logsEqual(w, nil) {
				return errors.New("the copies ended up equal")
			}
			if _, _, ok := prefixPair(w); !ok {
				return errors.New("no machine simply lacks a change the others have")
			}
			for _, op := range w.Ops() {
				if op.Result != raftcore.OpOK {
					return fmt.Errorf("write %d was not accepted: %s", op.ID, op.Reason)
				}
			}
			if c := w.Contract()[1]; c.State != raftcore.ClauseBroken {
				return fmt.Errorf("the contract's %q promise is %s, want broken: %s", c.Title, c.State, c.Text)
			}
			return nil
		},
		final: func(v *View) string {
			short, long, ok := prefixPair(v.W)
			if !ok {
				return logGroupsLine(v.W)
			}
			missing := v.W.Node(long).Entry(v.W.Node(short).LastIndex() + 1)
			s := strings.TrimSuffix(logGroupsLine(v.W), ".") + fmt.Sprintf(": %s never got %s", name(v.W, short), missing.Data)
			if d, ok := lossTo(v.h, []id{short}); ok {
				s += fmt.Sprintf(", %s at %s, and %s later nothing has noticed.", lossWords(d.why), secs(d.atUs), secs(v.W.Now()-d.atUs))
			} else {
				s += ", and nothing has noticed."
			}
			return s
		},
	}
}}

// prefixPair finds a machine whose log is a strict prefix of another's.
func prefixPair(w *raftcore.World) (short, long id, ok bool) {
	for _, a := range all(w) {
		for _, b := range all(w) {
			na, nb := w.Node(a), w.Node(b)
			if na.LastIndex() < nb.LastIndex() && divergeAt(w, a, b) == 0 {
				return a, b, true
			}
		}
	}
	return 0, 0, false
}

// logGroups groups machines that hold the same log, in order of their first
// member.
func logGroups(w *raftcore.World) [][]id {
	var out [][]id
	for _, n := range all(w) {
		placed := false
		for i, g := range out {
			if sameLog(w, g[0], n) {
				out[i] = append(out[i], n)
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, []id{n})
		}
	}
	return out
}

// logGroupsLine says who holds which history, e.g. "A and B hold 2 entries;
// C holds 1."
func logGroupsLine(w *raftcore.World) string {
	gs := logGroups(w)
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = fmt.Sprintf("%s %s %s", names(w, g), verb(len(g), "holds", "hold"), count(int(w.Node(g[0]).LastIndex()), "entry", "entries"))
	}
	if len(gs) == 1 {
		return fmt.Sprintf("All %d machines hold the same %s.", w.Size(), count(int(w.Node(1).LastIndex()), "entry", "entries"))
	}
	return capital(strings.Join(parts, "; ")) + "."
}
