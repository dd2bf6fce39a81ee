package app

import (
	"cmp"
	"slices"

	"raftlab/raftcore"
	"raftlab/viz/words"
)

// A running election timer: machine index i, running out at due.
type runningTimer struct {
	i   int
	due int64
}

// electionTimers returns the election timers that can run out, earliest
// first (ties by machine). A follower that hears a running leader is left
// out: the leader's heartbeats restart its timer before it runs out. lead
// is the leader whose followers were left out, or -1.
func (a *App) electionTimers() (ts []runningTimer, lead int) {
	w := a.World()
	lead = a.leader()
	for i := 0; i < w.Size(); i++ {
		due, ok := w.TimerDue(nodeID(i))
		if !ok {
			continue
		}
		if lead >= 0 && w.Node(nodeID(i)).Lead() == nodeID(lead) && w.Link(nodeID(lead), nodeID(i)).Up {
			continue
		}
		ts = append(ts, runningTimer{i, due})
	}
	slices.SortStableFunc(ts, func(x, y runningTimer) int { return cmp.Compare(x.due, y.due) })
	return ts, lead
}

// electionGap is how long one machine's election takes to reach every
// other machine at the longest message delay: its vote requests, and with
// PreVote first the pre-vote requests and their answers. A timer that runs
// out that long after another's finds the first candidate's request
// already there (RaftScope spreads timers by one message delay, having no
// PreVote).
func (a *App) electionGap() int64 {
	w := a.World()
	var longest int64
	for i := 1; i <= w.Size(); i++ {
		for j := 1; j <= w.Size(); j++ {
			if i != j {
				longest = max(longest, w.Link(nodeID(i-1), nodeID(j-1)).LatencyMaxUs)
			}
		}
	}
	if a.World().Settings().PreVote {
		return 3 * longest
	}
	return longest
}

// timerAction sets machine i's election timer to run out at virtual time
// at, or at the furthest a timer may be set if that is sooner. It returns
// the action and when the timer will run out.
func (a *App) timerAction(i int, at int64) (raftcore.Action, int64) {
	now := a.World().Now()
	at = max(min(at, now+int64(raftcore.MaxTimerMs(*a.cfg()))*1000), now+1)
	return raftcore.Action{Do: raftcore.DoTimer, Node: i + 1, Ms: float64(at-now) / 1000}, at
}

// spread keeps the earliest timer and moves every other one that runs out
// within the election gap of it by that gap, keeping their order, as
// RaftScope's spreadTimers does. It returns the actions and the timers as
// they will be, earliest first.
func (a *App) spread(ts []runningTimer) ([]raftcore.Action, []runningTimer) {
	gap := a.electionGap()
	out := append([]runningTimer(nil), ts...)
	var xs []raftcore.Action
	for k := 1; k < len(out); k++ {
		if out[k].due-out[0].due < gap {
			var x raftcore.Action
			x, out[k].due = a.timerAction(out[k].i, out[k].due+gap)
			xs = append(xs, x)
		}
	}
	slices.SortStableFunc(out, func(x, y runningTimer) int { return cmp.Compare(x.due, y.due) })
	return xs, out
}

// together says what follows when two timers run out at once.
func (a *App) together(x, y int, in int64) string {
	return a.voice().Together(a.cfg().Name(nodeID(x)), a.cfg().Name(nodeID(y)), in)
}

// noTimers says why there is no timer to act on and reports whether that
// is so.
func (a *App) noTimers(ts []runningTimer, lead int, want int) bool {
	switch {
	case len(ts) >= want:
		return false
	case len(ts) == 0 && lead >= 0:
		a.note(a.voice().LeaderKeepsTimers(a.cfg().Name(nodeID(lead))))
	case len(ts) == 0:
		a.note(a.voice().NoTimer())
	default:
		a.note(a.voice().OnlyTimer(a.cfg().Name(nodeID(ts[0].i))))
	}
	return true
}

// spreadTimers is the t key: the earliest election timer stays, and every
// other one runs out at least the election gap later, so that one machine
// stands for election alone.
func (a *App) spreadTimers() error {
	ts, lead := a.electionTimers()
	if a.noTimers(ts, lead, 1) {
		return nil
	}
	xs, after := a.spread(ts)
	if err := a.actAll(xs); err != nil {
		return err
	}
	lag, reached, hear := int64(-1), false, ""
	if len(after) > 1 {
		lag = after[1].due - after[0].due
		reached = a.cfg().Protocol == raftcore.ProtocolRaft && lag >= a.electionGap()
	} else if lead >= 0 {
		hear = a.cfg().Name(nodeID(lead))
	}
	a.note(words.Spread(a.cfg().Name(nodeID(after[0].i)), after[0].due-a.World().Now(), lag, reached, hear))
	return nil
}

// alignTimers is the a key: spread the timers, then make the second
// earliest run out with the earliest, so two machines stand at the same
// instant and their votes may split.
func (a *App) alignTimers() error {
	ts, lead := a.electionTimers()
	if a.noTimers(ts, lead, 2) {
		return nil
	}
	xs, after := a.spread(ts)
	x, _ := a.timerAction(after[1].i, after[0].due)
	if err := a.actAll(append(xs, x)); err != nil {
		return err
	}
	a.note(a.together(after[0].i, after[1].i, after[0].due-a.World().Now()))
	return nil
}

// splitVote is the l key: the leader (if any) crashes, its messages in
// flight are dropped, and the two followers whose timers run out first are set to run out together once
// every other follower has stopped trusting the crashed leader (until
// then, with CheckQuorum, they would ignore both candidates). The others
// run out later, so the two stand alone against each other.
func (a *App) splitVote() error {
	if a.cfg().Protocol != raftcore.ProtocolRaft {
		a.note(a.voice().SplitNeedsRaft())
		return nil
	}
	var crashed string
	if l := a.leader(); l >= 0 {
		// Its heartbeats still on the wire are dropped too: arriving after
		// the timers are set, they would restart them at different moments.
		xs := []raftcore.Action{{Do: raftcore.DoCrash, Node: l + 1}}
		for _, m := range a.World().InFlight() {
			if m.From == nodeID(l) {
				xs = append(xs, raftcore.Action{Do: raftcore.DoDrop, ID: m.ID})
			}
		}
		if err := a.actAll(xs); err != nil {
			return err
		}
		crashed = words.CrashedLeader(a.cfg().Name(nodeID(l)))
	}
	ts, lead := a.electionTimers()
	if a.noTimers(ts, lead, 2) {
		return nil
	}
	w := a.World()
	x, y := ts[0], ts[1]
	// A little in the future, and not before any voter listens again.
	at := w.Now() + int64(a.cfg().TickMs)*1000
	for _, t := range ts[2:] {
		at = max(at, w.LeaseEnd(nodeID(t.i)))
	}
	ax, at := a.timerAction(x.i, at)
	ay, _ := a.timerAction(y.i, at)
	xs := []raftcore.Action{ax, ay}
	gap := a.electionGap()
	for _, t := range ts[2:] {
		if t.due < at+gap {
			push, _ := a.timerAction(t.i, at+gap+(t.due-x.due))
			xs = append(xs, push)
		}
	}
	if err := a.actAll(xs); err != nil {
		return err
	}
	a.note(crashed + a.together(x.i, y.i, at-w.Now()))
	return nil
}
