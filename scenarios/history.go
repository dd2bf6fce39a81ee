package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figures of "One authoritative history": why copies are not agreement,
// and what agreement has to promise.

const (
	naive    = raftcore.ProtocolNaiveCopy
	failover = raftcore.ProtocolFailover
	raft     = raftcore.ProtocolRaft
)

// --- three-answers --------------------------------------------------------

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
		UI: UI{Panels: []Panel{PanelQuestion, PanelLogs, PanelClient}, Key: keyWeb, Highlight: []id{3}},
		Steps: []Step{
			{Text: "Three machines start empty; each keeps its own copy of history. Write deployments/web on one of them, and let the network lose one copy."},
			{Text: "A copy was lost on its way, and nothing will send it again. Ask each machine whether the key exists.",
				When: func(v *View) bool {
					_, _, _, ok := keyDisagreement(v.W)
					return ok && settled(v.W)
				},
				Live: func(v *View) string {
					k, _, no, _ := keyDisagreement(v.W)
					return fmt.Sprintf("The copy to %s was lost, and nothing will send it again. Ask each machine: does %s exist?", names(v.W, no), k)
				}},
			{Text: "The machines disagree, and none of them is lying: each reports what reached it.",
				When: func(v *View) bool { _, ok := readsDisagree(v.W); return ok },
				Live: func(v *View) string {
					k, _ := readsDisagree(v.W)
					yes, no := readAnswers(v.W, k)
					return fmt.Sprintf("%s %s YES; %s %s NO. None is lying: each reports what reached it.",
						names(v.W, yes), verb(len(yes), "answers", "answer"), names(v.W, no), verb(len(no), "answers", "answer"))
				}},
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
				s += fmt.Sprintf(": its copy was %s at %s, and naive-copy never sends it again.", lossWords(d.why), secs(d.atUs))
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
		if op.Kind != "read" || op.Result != raftcore.OpOK {
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
		if op.Kind == "read" && op.Key == key && op.Result == raftcore.OpOK {
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

func isNetworkLoss(why string) bool {
	return why == "lost" || why == "link cut" || why == "dropped by hand"
}

func lossWords(why string) string {
	switch why {
	case "link cut":
		return "stopped by a cut link"
	case "dropped by hand":
		return "dropped"
	}
	return "lost in the network"
}

// --- replicated-memory ----------------------------------------------------

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
		UI: UI{Panels: []Panel{PanelLogs, PanelQuestion, PanelContract}, Key: keyWeb},
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

// --- two-worlds -----------------------------------------------------------

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
		UI: UI{Panels: []Panel{PanelLogs, PanelContract, PanelChecker}, Key: keyWeb},
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

// --- slow-or-dead ---------------------------------------------------------

var slowOrDead = def{id: "slow-or-dead",
	knobs: []Knob{{Name: "silence", Label: "C goes silent by", Values: []string{"pause", "crash"}, Default: "pause"}},
	build: func(k values) *Scenario {
		pause := k.get("silence") == "pause"
		stop, wake := "crash", "restart"
		if pause {
			stop, wake = "pause", "resume"
		}
		var sc script
		sc.at(300, act("timeout", 3))
		sc.at(2000, write(1, keyWeb, "replicas=3"))
		sc.at(4000, act(stop, 3))
		// A client that does not know C went quiet still sends to it.
		sc.at(4200, write(3, keyWeb, "replicas=0"))
		sc.at(9000, act(wake, 3))
		cfg := config(raft, abc)
		// The client sending to C keeps waiting until after C wakes, so the
		// stale leader gets to handle it; five seconds of silence leave room
		// for the others to elect a leader even after a split vote.
		cfg.ClientTimeoutMs = 10000
		s := &Scenario{
			Title:   "The machine that was only slow",
			Chapter: chapterHistory,
			Prompt:  "C leads. Make it silent, paused (only slow) or crashed (dead), and compare what A and B can tell.",
			Base:    cfg,
			Script:  sc, UntilMs: 16000,
			UI: UI{Panels: []Panel{PanelLogs, PanelRoles, PanelClient}, Key: keyWeb, Highlight: []id{3}},
			Steps: []Step{
				{Text: "C leads; A and B follow. Make C silent: pause it (slow) or crash it (dead)."},
				{Text: "C went silent. From A and B a pause and a crash look exactly alike: the heartbeats stop.",
					When: func(v *View) bool { _, ok := silenced(v.W); return ok && silent(v.W, mustSilenced(v.W)) },
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s went silent. From %s a pause and a crash look exactly alike: the heartbeats stop.", name(v.W, x), others(v.W, x))
					}},
				{Text: "The others gave up waiting and elected a new leader, still unable to tell whether the silent machine is slow or dead.",
					When: func(v *View) bool {
						x, ok := silenced(v.W)
						l, has := topLeader(v.W)
						return ok && silent(v.W, x) && has && v.W.Node(l).Term() > v.W.Node(x).Term()
					},
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						l, _ := topLeader(v.W)
						return fmt.Sprintf("%s gave up waiting: %s now leads term %d. Nobody can tell whether %s is slow or dead.",
							others(v.W, x), name(v.W, l), v.W.Node(l).Term(), name(v.W, x))
					}},
			},
			Expect: func(w *raftcore.World) error { return expectSlowOrDead(w, pause) },
			final:  func(v *View) string { return finalSlowOrDead(v, pause) },
		}
		woke := func(v *View) bool {
			x, ok := silenced(v.W)
			return ok && isUp(v.W, x)
		}
		if pause {
			s.Steps = append(s.Steps,
				Step{Text: "C resumes and handles, all at once, everything that waited for it, starting from what it believed when it stopped.", When: woke,
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s resumes and handles, all at once, everything that waited for it, starting from what it believed when it stopped.", name(v.W, x))
					}},
				Step{Text: "It still believed it led its old term, and acted on it: it accepted a write as leader.",
					When: func(v *View) bool { _, ok := staleBy(v); return ok },
					Live: func(v *View) string {
						st, _ := staleBy(v)
						return fmt.Sprintf("%s still believed it led term %d, and acted on it: it put a write at index %d, though term %d had begun without it.",
							name(v.W, st.node), st.term, st.index, v.h.topLeader)
					}},
				Step{Text: "It heard the newer term, stepped down, and its write was replaced: nothing it did on old beliefs survived.",
					When: func(v *View) bool {
						st, ok := staleBy(v)
						return ok && v.W.Node(st.node).Role() != raftcore.RoleLeader && logsEqual(v.W, nil) && !staleEntryKept(v.W, st)
					}},
			)
		} else {
			s.Steps = append(s.Steps,
				Step{Text: "C restarts. The crash wiped what it believed; it keeps only its log and term, and starts as a follower.", When: woke,
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s restarts. The crash wiped what it believed; it keeps only its log and term %d, and starts as a follower.", name(v.W, x), v.W.Node(x).Term())
					}},
				Step{Text: "It caught up from the new leader without ever acting on a stale belief.",
					When: func(v *View) bool {
						x, _ := silenced(v.W)
						l, ok := topLeader(v.W)
						return woke(v) && ok && l != x && sameLog(v.W, x, l) && v.W.Node(x).Commit() == v.W.Node(l).Commit()
					}},
			)
		}
		return s
	}}

// silenced is the machine most recently paused or crashed.
func silenced(w *raftcore.World) (id, bool) {
	acts := w.Actions()
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Do == "pause" || acts[i].Do == "crash" {
			return id(acts[i].Node), true
		}
	}
	return 0, false
}

func mustSilenced(w *raftcore.World) id {
	x, _ := silenced(w)
	return x
}

// silencedAt is when machine x last went silent.
func silencedAt(w *raftcore.World, x id) (int64, bool) {
	acts := w.Actions()
	for i := len(acts) - 1; i >= 0; i-- {
		if (acts[i].Do == "pause" || acts[i].Do == "crash") && id(acts[i].Node) == x {
			return acts[i].AtUs(), true
		}
	}
	return 0, false
}

// others names every machine but x.
func others(w *raftcore.World, x id) string {
	var ids []id
	for _, n := range all(w) {
		if n != x {
			ids = append(ids, n)
		}
	}
	return names(w, ids)
}

// staleBy is the first stale act of the silenced machine.
func staleBy(v *View) (staleAppend, bool) {
	x, ok := silenced(v.W)
	if !ok {
		return staleAppend{}, false
	}
	for _, st := range v.h.stale {
		if st.node == x {
			return st, true
		}
	}
	return staleAppend{}, false
}

// staleEntryKept reports whether the entry of a stale append still stands
// at its index on the machine that made it.
func staleEntryKept(w *raftcore.World, st staleAppend) bool {
	n := w.Node(st.node)
	return st.index <= n.LastIndex() && n.Entry(st.index).Term == st.term
}

// writesTo lists the write ops sent to machine x after time from.
func writesTo(w *raftcore.World, x id, from int64) []raftcore.Op {
	var out []raftcore.Op
	for _, op := range w.Ops() {
		if isWrite(op) && op.Node == x && op.InvokeUs >= from {
			out = append(out, op)
		}
	}
	return out
}

func expectSlowOrDead(w *raftcore.World, pause bool) error {
	h := scan(w)
	v := &View{W: w, h: h}
	x, ok := silenced(w)
	if !ok {
		return errors.New("no machine went silent")
	}
	at, _ := silencedAt(w, x)
	ws := writesTo(w, x, at)
	if len(ws) == 0 {
		return fmt.Errorf("no write was sent to %s while it was silent", name(w, x))
	}
	if !logsEqual(w, nil) {
		return errors.New("the machines did not converge after the silence ended")
	}
	for _, op := range ws {
		if op.Result == raftcore.OpOK {
			return fmt.Errorf("the write sent to silent %s succeeded", name(w, x))
		}
		if _, in := inLog(w, 1, op.ID); in {
			return fmt.Errorf("the write sent to silent %s is in the history", name(w, x))
		}
	}
	st, stale := staleBy(v)
	if pause && !stale {
		return fmt.Errorf("%s woke from its pause without acting on a stale belief", name(w, x))
	}
	if !pause && stale {
		return fmt.Errorf("%s acted on a stale belief after a crash: %+v", name(w, x), st)
	}
	if !pause && ws[0].Result != raftcore.OpRefused {
		return fmt.Errorf("the write to crashed %s was %s, want refused at once", name(w, x), ws[0].Result)
	}
	if n := w.ViolationCount(""); n > 0 {
		return fmt.Errorf("raft broke a safety rule: %s", w.Violations()[0].Text)
	}
	return nil
}

func finalSlowOrDead(v *View, pause bool) string {
	w := v.W
	x, ok := silenced(w)
	if !ok {
		return "No machine went silent."
	}
	at, _ := silencedAt(w, x)
	var b strings.Builder
	how := "down"
	if pause {
		how = "paused"
	}
	woke := int64(-1)
	for _, a := range w.Actions() {
		if (a.Do == "resume" || a.Do == "restart") && id(a.Node) == x && a.AtUs() > at {
			woke = a.AtUs()
			break
		}
	}
	if woke >= 0 {
		fmt.Fprintf(&b, "%s was %s for %s", name(w, x), how, secs(woke-at))
	} else {
		fmt.Fprintf(&b, "%s has been %s since %s", name(w, x), how, secs(at))
	}
	for _, rc := range v.h.roles {
		if rc.to == raftcore.RoleLeader && rc.node != x && rc.atUs > at {
			fmt.Fprintf(&b, "; %s later %s took over as leader of term %d", secs(rc.atUs-at), name(w, rc.node), rc.term)
			break
		}
	}
	b.WriteString(". ")
	ws := writesTo(w, x, at)
	if st, ok := staleBy(v); ok {
		fmt.Fprintf(&b, "On waking, %s acted as leader of term %d and took a write at index %d, which was then replaced", name(w, x), st.term, st.index)
		if len(ws) > 0 && ws[0].Done() {
			fmt.Fprintf(&b, "; its client's write %s", outcome(ws[0]))
		}
		b.WriteString(".")
		return b.String()
	}
	if len(ws) > 0 && ws[0].Done() {
		fmt.Fprintf(&b, "The write sent to %s %s", name(w, x), outcome(ws[0]))
		if ws[0].Result == raftcore.OpRefused && ws[0].CompleteUs == ws[0].InvokeUs {
			b.WriteString(" at once")
		}
		b.WriteString("; ")
	}
	if woke >= 0 {
		fmt.Fprintf(&b, "after coming back, %s holds the same %s as the others and never acted on a stale belief.", name(w, x),
			count(int(w.Node(x).LastIndex()), "entry", "entries"))
	} else {
		b.WriteString("it has not come back.")
	}
	return b.String()
}
