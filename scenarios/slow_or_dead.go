package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"raftlab/raftcore"
)

// The figure slow-or-dead, from "One authoritative history".

var slowOrDead = def{id: "slow-or-dead",
	knobs: []Knob{{Name: "silence", Label: "C goes silent by", Values: []string{"pause", "crash"}, Default: "pause"}},
	build: func(k values) *Scenario {
		pause := k.get("silence") == "pause"
		stop, wake := raftcore.DoCrash, raftcore.DoRestart
		if pause {
			stop, wake = raftcore.DoPause, raftcore.DoResume
		}
		var sc script
		sc.at(300, act(raftcore.DoTimeout, 3))
		sc.at(2000, write(1, keyWeb, "replicas=3"))
		sc.at(4000, act(stop, 3))
		if pause {
			// A client that does not know C went quiet still sends to it;
			// the paused C keeps the request, and acts on it when it wakes.
			// (A crashed machine would refuse it at once, which would tell
			// the client what A and B cannot know.)
			sc.at(4200, write(3, keyWeb, "replicas=0"))
		}
		sc.at(9000, act(wake, 3))
		cfg := config(raft, abc)
		// The client sending to C keeps waiting until after C wakes, so the
		// machine that took the writes gets to handle it; five seconds of
		// silence leave room for the others to settle on who takes them now.
		// The figure comes before the chapter speaks of a machine in charge
		// (WordsCopies): Raft's leader is the machine that takes the writes.
		cfg.ClientTimeoutMs = 6000
		takesWrites := func(v *View) id { l, _ := topLeader(v.W); return l }
		s := &Scenario{
			Title:   "The machine that was only slow",
			Chapter: chapterHistory,
			Prompt:  "Make C silent, paused (only slow) or crashed (dead), and see whether A and B can tell which.",
			Base:    cfg,
			Script:  sc, UntilMs: 16000,
			UI: UI{Focus: PanelClient, Panels: []Panel{PanelLogs, PanelClient}, Key: keyWeb, Highlight: []id{3}, Words: WordsCopies},
			Steps: []Step{
				{Text: "Three active machines keep one history. Wait until one of them takes the writes, for the others to copy.",
					Claims: claims(machines(3), allActive())},
				{Text: "C takes the writes, and A and B copy them. Make C silent: pause it (only slow) or crash it (dead).",
					When: func(v *View) bool { _, ok := topLeader(v.W); return ok && len(authorities(v.W)) == 1 },
					Live: func(v *View) string {
						l := takesWrites(v)
						return fmt.Sprintf("%s takes the writes, and %s copy them. Make %s silent: pause it (only slow) or crash it (dead).",
							name(v.W, l), others(v.W, l), name(v.W, l))
					},
					Claims: claims(allActive(), leadsAlone(takesWrites))},
				{Text: "C went silent. From A and B a pause and a crash look exactly alike: its messages stop.",
					When: func(v *View) bool { _, ok := silenced(v.W); return ok && silent(v.W, mustSilenced(v.W)) },
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s went silent. From %s a pause and a crash look exactly alike: its messages stop.", name(v.W, x), others(v.W, x))
					},
					Claims: claims(silentNow(theSilenced))},
				{Text: "The others gave up waiting, and another machine takes the writes now; still neither can tell whether the silent one is slow or dead.",
					When: func(v *View) bool {
						x, ok := silenced(v.W)
						l, has := topLeader(v.W)
						return ok && silent(v.W, x) && has && v.W.Node(l).Term() > v.W.Node(x).Term()
					},
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s gave up waiting: %s takes the writes now. Neither can tell whether %s is slow or dead.",
							others(v.W, x), name(v.W, takesWrites(v)), name(v.W, x))
					},
					Claims: claims(silentNow(theSilenced), leadsAlone(takesWrites),
						that("someone other than the silent machine takes the writes", func(v *View) bool { return takesWrites(v) != mustSilenced(v.W) }))},
			},
			Expect: func(w *raftcore.World) error { return expectSlowOrDead(w, pause) },
			final:  func(v *View) string { return finalSlowOrDead(v, pause) },
		}
		woke := func(v *View) bool {
			x, ok := silenced(v.W)
			return ok && isUp(v.W, x)
		}
		if pause {
			staleWrite := func(v *View) (raftcore.Op, bool) {
				x := mustSilenced(v.W)
				at, _ := silencedAt(v.W, x)
				ws := writesTo(v.W, x, at)
				if len(ws) == 0 {
					return raftcore.Op{}, false
				}
				return ws[0], true
			}
			s.Steps = append(s.Steps,
				Step{Text: "C resumes and works through everything that queued up while it was paused, starting from what it believed before.", When: woke,
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s resumes and works through everything that queued up while it was paused, starting from what it believed before.", name(v.W, x))
					},
					Claims: claims(activeNow(theSilenced))},
				Step{Text: "It still thought it took the writes, and acted on it: it put a client's write into its history.",
					When: func(v *View) bool { _, ok := staleBy(v); return ok },
					Live: func(v *View) string {
						st, _ := staleBy(v)
						return fmt.Sprintf("%s still thought it took the writes, and acted on it: it put a client's write at index %d, though another machine had begun taking them while it slept.",
							name(v.W, st.node), st.index)
					},
					Claims: claims(activeNow(theSilenced), roleIs(theSilenced, raftcore.RoleLeader),
						that("the woken machine wrote an entry on a belief that was out of date, and holds it", func(v *View) bool {
							st, ok := staleBy(v)
							return ok && staleEntryKept(v.W, st)
						}),
						that("another machine began taking the writes while it slept", func(v *View) bool {
							l, ok := topLeader(v.W)
							return ok && l != mustSilenced(v.W)
						}))},
				Step{Text: "It learned which machine takes the writes now, and copies it. Its write was taken out of its history, and the client got no answer: nothing it did on old beliefs survived.",
					When: func(v *View) bool {
						st, ok := staleBy(v)
						op, sent := staleWrite(v)
						return ok && sent && op.Done() && v.W.Node(st.node).Role() != raftcore.RoleLeader && logsEqual(v.W, nil) && !staleEntryKept(v.W, st)
					},
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s learned that %s takes the writes now, and copies it. Its write was taken out of its history, and the client got no answer: nothing it did on old beliefs survived.",
							name(v.W, x), name(v.W, takesWrites(v)))
					},
					Claims: claims(activeNow(theSilenced), roleIs(theSilenced, raftcore.RoleFollower), sameHistories(nil),
						that("the write made on the old belief is gone", func(v *View) bool { st, ok := staleBy(v); return ok && !staleEntryKept(v.W, st) }),
						opEnded("the write sent to the silent machine", staleWrite, false))},
			)
		} else {
			s.Steps = append(s.Steps,
				Step{Text: "C restarts. The crash wiped what it believed: it keeps only the history it had saved, and starts by listening.", When: woke,
					Live: func(v *View) string {
						x := mustSilenced(v.W)
						return fmt.Sprintf("%s restarts. The crash wiped what it believed: it keeps only the %s it had saved, and starts by listening.",
							name(v.W, x), count(int(v.W.Node(x).LastIndex()), "entry", "entries"))
					},
					Claims: claims(activeNow(theSilenced), roleIs(theSilenced, raftcore.RoleFollower))},
				Step{Text: "It caught up with the others, and never acted on what it used to believe.",
					When: func(v *View) bool {
						x, _ := silenced(v.W)
						l, ok := topLeader(v.W)
						return woke(v) && ok && l != x && sameLog(v.W, x, l) && v.W.Node(x).Commit() == v.W.Node(l).Commit()
					},
					Claims: claims(activeNow(theSilenced), sameHistories(nil),
						that("the restarted machine never acted on an old belief", func(v *View) bool { _, ok := staleBy(v); return !ok }))},
			)
		}
		return s
	}}

// silenced is the machine most recently paused or crashed.
func silenced(w *raftcore.World) (id, bool) {
	acts := w.Actions()
	for i := len(acts) - 1; i >= 0; i-- {
		if acts[i].Do == raftcore.DoPause || acts[i].Do == raftcore.DoCrash {
			return id(acts[i].Node), true
		}
	}
	return 0, false
}

// theSilenced is mustSilenced for a step's claims.
func theSilenced(v *View) id { return mustSilenced(v.W) }

func mustSilenced(w *raftcore.World) id {
	x, _ := silenced(w)
	return x
}

// silencedAt is when machine x last went silent.
func silencedAt(w *raftcore.World, x id) (int64, bool) {
	acts := w.Actions()
	for i := len(acts) - 1; i >= 0; i-- {
		if (acts[i].Do == raftcore.DoPause || acts[i].Do == raftcore.DoCrash) && id(acts[i].Node) == x {
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
	if pause && len(ws) == 0 {
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
		if (a.Do == raftcore.DoResume || a.Do == raftcore.DoRestart) && id(a.Node) == x && a.AtUs() > at {
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
			fmt.Fprintf(&b, "; %s later %s began taking the writes", secs(rc.atUs-at), name(w, rc.node))
			break
		}
	}
	b.WriteString(". ")
	ws := writesTo(w, x, at)
	if st, ok := staleBy(v); ok {
		fmt.Fprintf(&b, "On waking, %s still acted as if it took the writes and put one at index %d, which was then taken out", name(w, x), st.index)
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
	if woke >= 0 && len(ws) == 0 {
		b.WriteString("A")
	} else if woke >= 0 {
		b.WriteString("a")
	}
	if woke >= 0 {
		fmt.Fprintf(&b, "fter coming back, %s holds the same %s as the others and never acted on an old belief.", name(w, x),
			count(int(w.Node(x).LastIndex()), "entry", "entries"))
	} else {
		b.WriteString("it has not come back.")
	}
	return b.String()
}
