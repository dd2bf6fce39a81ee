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
		UI: UI{Focus: PanelQuestion, Panels: []Panel{PanelLogs, PanelQuestion, PanelContract}, Key: keyWeb, Words: WordsCopies},
		Steps: []Step{
			{Text: "Three machines, each keeping its own copy of one memory, all empty so far. Write a change.",
				Claims: claims(machines(3), emptyLogs())},
			{Text: "Every machine recorded it: copying works, for now. Write again, and let the network drop one copy.",
				When: func(v *View) bool {
					return v.W.Node(1).LastIndex() > 0 && logsEqual(v.W, nil) && settled(v.W)
				},
				Claims: claims(sameHistories(nil), quiet(), that("every machine recorded a change", func(v *View) bool { return v.W.Node(1).LastIndex() > 0 }))},
			{Text: "Some machines have the change and one does not.", When: gap,
				Live:   func(v *View) string { return logGroupsLine(v.W) + " Nobody is told." },
				Claims: claims(differentHistories(), groupsAsSaid(), quiet())},
			{Text: "Time passes, and nothing notices or mends the gap: no machine ever checks what the others hold.",
				When: gap, HoldMs: 3000,
				Claims: claims(differentHistories(), quiet())},
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
				return fmt.Errorf("the contract's %q promise is %s, want broken: %s", c.ID, c.State, c.Fact)
			}
			return nil
		},
		final: func(v *View) string {
			short, long, ok := prefixPair(v.W)
			if !ok {
				return logGroupsLine(v.W)
			}
			missing := v.W.Node(long).Entry(v.W.Node(short).LastIndex() + 1)
			s := logGroupsLine(v.W) + fmt.Sprintf(" %s never got %s", name(v.W, short), missing.Data)
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

// logGroupsLine says who holds which history, and how the histories
// relate, e.g. "A and B hold 2 entries; C holds 1, the first of theirs." or
// "A and B hold 3 entries; C holds 3. They part at index 2." Equal counts
// never read as agreement: where histories differ, the line says where.
func logGroupsLine(w *raftcore.World) string {
	gs := logGroups(w)
	if len(gs) == 1 {
		return fmt.Sprintf("All %d machines hold the same %s.", w.Size(), count(int(w.Node(1).LastIndex()), "entry", "entries"))
	}
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = fmt.Sprintf("%s %s %s", names(w, g), verb(len(g), "holds", "hold"), count(int(w.Node(g[0]).LastIndex()), "entry", "entries"))
	}
	line := capital(strings.Join(parts, "; "))
	if len(gs) == 2 {
		a, b := gs[0][0], gs[1][0]
		if at := divergeAt(w, a, b); at > 0 {
			// Equal lengths would read as agreement: say first that these
			// are two histories, then where they part.
			same := "they start differently"
			switch {
			case at == 2:
				same = "they match for the first entry and differ from the second on"
			case at > 2:
				same = fmt.Sprintf("they match for the first %d entries and differ from entry %d on", at-1, at)
			}
			return fmt.Sprintf("%s %s one history, %s another: %s.", capital(names(w, gs[0])), verb(len(gs[0]), "holds", "hold"), names(w, gs[1]), same)
		}
		short, long := gs[0], gs[1]
		if w.Node(a).LastIndex() > w.Node(b).LastIndex() {
			short, long = long, short
		}
		return line + fmt.Sprintf(": %s %s only the start of %s history.", names(w, short), verb(len(short), "has", "have"), possessive(w, long))
	}
	return line + ". No two of these histories are the same."
}

// possessive is "A's" or "A and B's".
func possessive(w *raftcore.World, ids []id) string {
	if len(ids) > 1 {
		return "their"
	}
	return names(w, ids) + "'s"
}
