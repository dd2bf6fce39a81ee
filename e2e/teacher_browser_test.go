//go:build browser

package e2e

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app"
)

// The tests in this file play what a teacher shows a class, with real mouse
// clicks and keys: a write sent to the cluster while its leader is down.

// fromMenu presses the control do of machine id's menu, opened with a real
// click on the machine, and waits until done holds.
func fromMenu(b *browser, id int, do, what string, done func(app.Snapshot) bool) app.Snapshot {
	b.t.Helper()
	m := machine(appState(b), id)
	b.click(m.X, m.Y)
	s := waitState(b, "the machine's menu", func(s app.Snapshot) bool { return s.Menu == fmt.Sprintf("node:%d", id) })
	clickWidget(b, s, do)
	return waitState(b, what, done)
}

// crashFromMenu crashes machine id through its menu and waits until it is
// down.
func crashFromMenu(b *browser, id int) app.Snapshot {
	b.t.Helper()
	return fromMenu(b, id, "node.crash", "the machine to crash", func(s app.Snapshot) bool { return machine(s, id).Status == "crashed" })
}

// TestAppToolbarWriteReachesTheNewLeader crashes the leader from its menu,
// which leaves it selected, waits for a new leader and presses the toolbar's
// write button: the write goes to the cluster, whose client skips the
// crashed machine, and the new leader commits it. The C key does the same.
func TestAppToolbarWriteReachesTheNewLeader(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=3&seed=1&speed=1")
	s := waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader != 0 })
	old := s.Leader
	s = crashFromMenu(b, old)
	b.screenshot("leader-crashed")
	if s.Selected != old {
		t.Fatalf("selected machine %d, want the crashed leader %d still selected", s.Selected, old)
	}
	s = waitState(b, "a new leader", func(s app.Snapshot) bool { return s.Leader != 0 && s.Leader != old })
	lead := s.Leader

	write := "cmd:" + viz.CmdClientWrite.String()
	r := mustWidget(t, s, write)
	b.mouseMove(r.Center().X, r.Center().Y)
	b.waitFrames(30)
	b.screenshot("write-tooltip")
	clickWidget(b, s, write)
	s = waitState(b, "the write to be answered", func(s app.Snapshot) bool { return len(s.Ops) == 1 && s.Ops[0].Result != raftcore.OpPending })
	op := s.Ops[0]
	if last := s.Actions[len(s.Actions)-1]; last.Do != raftcore.DoWrite || last.Node != 0 {
		t.Errorf("the button recorded %+v, want a write to the cluster", last)
	}
	if op.Result != raftcore.OpOK || !op.Cluster || int(op.Node) == old {
		t.Fatalf("the write ended %s (%s) at machine %d, want ok at a running machine, not %d", op.Result, op.Reason, op.Node, old)
	}
	if l := machine(s, lead); l.Role != "leader" || l.Commit < op.Index {
		t.Errorf("the new leader %d is %s with commit %d, want it leading with the write's index %d committed", lead, l.Role, l.Commit, op.Index)
	}
	b.screenshot("write-committed")

	b.pressKey("c")
	s = waitState(b, "the key's write to be answered", func(s app.Snapshot) bool { return len(s.Ops) == 2 && s.Ops[1].Result != raftcore.OpPending })
	if op := s.Ops[1]; op.Result != raftcore.OpOK || !op.Cluster || int(op.Node) == old {
		t.Errorf("the key's write ended %s (%s) at machine %d", op.Result, op.Reason, op.Node)
	}
	noExceptions(t, b)
}

// isolateFromMenu cuts machine id off through its menu and waits until
// every link of it is down.
func isolateFromMenu(b *browser, id int) app.Snapshot {
	b.t.Helper()
	return fromMenu(b, id, "node.isolate", "the machine to be cut off", func(s app.Snapshot) bool {
		for _, l := range s.Links {
			if (l.From == id || l.To == id) && l.Up {
				return false
			}
		}
		return true
	})
}

// playFor runs the app (Space) until virtual time has moved on by ms, and
// pauses it again (Space).
func playFor(b *browser, ms float64) app.Snapshot {
	b.t.Helper()
	from := appState(b).NowMs
	b.pressKey(" ")
	waitState(b, "the run to play", func(s app.Snapshot) bool { return !s.Paused })
	waitState(b, fmt.Sprintf("%g ms of the run", ms), func(s app.Snapshot) bool { return s.NowMs >= from+ms })
	b.pressKey(" ")
	return waitState(b, "the run to pause", func(s app.Snapshot) bool { return s.Paused })
}

// TestAppPreVoteOffForksAPartitionRun plays the textbook rejoin with the
// defaults: a follower cut off while the cluster commits a write comes
// back after seconds, and with PreVote its term never moved, so the
// leader keeps leading. Then, with the mouse on the timeline, the reader
// goes back to the moment of the cut and turns PreVote off in the setup
// menu: the run forks there, with the partition kept. Played again, the
// cut-off machine raises its term at each timeout; on rejoining it makes
// the leader step down, and, its log lacking the write, it loses: another
// machine leads a term above its own.
func TestAppPreVoteOffForksAPartitionRun(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=1&speed=2")
	s := waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader != 0 })
	b.pressKey(" ")
	s = waitState(b, "the run to pause", func(s app.Snapshot) bool { return s.Paused })
	lead := s.Leader
	stale := 5
	if lead == 5 {
		stale = 4
	}
	s = isolateFromMenu(b, stale)
	cutAt := s.NowMs
	b.pressKey("\x1b") // Escape closes the menu
	b.screenshot("cut-off")

	// With PreVote (the default): write, wait five seconds, heal.
	b.pressKey("c")
	s = playFor(b, 5000)
	if got, want := machine(s, stale).Term, machine(s, lead).Term; got != want {
		t.Errorf("with PreVote the cut-off machine is at term %d, want the leader's %d", got, want)
	}
	clickWidget(b, s, "cmd:"+viz.CmdHeal.String())
	s = playFor(b, 3000)
	if s.Leader != lead || machine(s, lead).Term != machine(s, stale).Term {
		t.Errorf("with PreVote the leader changed: %d leads term %d", s.Leader, machine(s, s.Leader).Term)
	}
	leaderTerm := machine(s, lead).Term
	b.screenshot("prevote-on-after-heal")

	// Back to just after the cut, with the mouse on the timeline.
	tl := s.Screen.Timeline
	b.click(tl.X+(cutAt+150)/s.HeadMs*tl.W, tl.Y+tl.H/2)
	s = waitState(b, "the moment of the cut", func(s app.Snapshot) bool { return !s.Live && s.NowMs < cutAt+1000 })
	if s.NowMs < cutAt {
		t.Fatalf("the click went to %g ms, before the cut at %g ms", s.NowMs, cutAt)
	}
	clickWidget(b, s, "menu")
	s = waitState(b, "the setup menu", func(s app.Snapshot) bool { return s.Menu == "setup" })
	if r, ok := widgetRect(s, "prevote"); !ok || !widgetOn(s, "prevote") {
		t.Fatalf("the PreVote toggle is missing or off: %v %v", r, ok)
	}
	clickWidget(b, s, "prevote")
	s = waitState(b, "PreVote off", func(s app.Snapshot) bool { return !s.PreVote })
	b.screenshot("forked-prevote-off")
	if !strings.Contains(s.Banner, "new run") {
		t.Errorf("the banner says %q, want it to tell of the fork", s.Banner)
	}
	if last := s.Actions[len(s.Actions)-1]; last.Do != raftcore.DoSet || last.Setting != "prevote" || last.Value != "off" {
		t.Errorf("the last action is %+v, want set prevote off", last)
	}
	if !s.CheckQuorum || s.NowMs < cutAt {
		t.Errorf("the fork is at %g ms with CheckQuorum %v", s.NowMs, s.CheckQuorum)
	}
	if _, ok := widgetRect(s, "timeline.ghost"); !ok {
		t.Error("the run left is not offered on the timeline")
	}
	b.pressKey("\x1b")

	// The same moves in the fork.
	b.pressKey("c")
	s = playFor(b, 5000)
	staleTerm := machine(s, stale).Term
	if staleTerm <= leaderTerm+1 {
		t.Errorf("without PreVote the cut-off machine is at term %d, want it above %d", staleTerm, leaderTerm+1)
	}
	b.screenshot("fork-before-heal")
	clickWidget(b, s, "cmd:"+viz.CmdHeal.String())
	healAt := s.NowMs
	b.pressKey(" ")
	disrupted := false
	waitState(b, "a leader past the stale term", func(s app.Snapshot) bool {
		if s.Leader == stale {
			t.Fatalf("the stale candidate, lacking the write, won at %g ms", s.NowMs)
		}
		if m := machine(s, lead); m.Role != "leader" || m.Term > leaderTerm {
			disrupted = true
		}
		return s.NowMs > healAt+3000 && s.Leader != 0 && machine(s, s.Leader).Term >= staleTerm
	})
	b.pressKey(" ")
	s = waitState(b, "the run to pause", func(s app.Snapshot) bool { return s.Paused })
	b.screenshot("fork-after-heal")
	if s.Leader == 0 || s.Leader == stale || machine(s, s.Leader).Term < staleTerm {
		t.Errorf("after the heal %d leads term %d; want a machine other than %d leading term %d or later", s.Leader, machine(s, s.Leader).Term, stale, staleTerm)
	}
	if !disrupted && machine(s, lead).Term <= leaderTerm {
		t.Errorf("the old leader %d was not disrupted: term %d", lead, machine(s, lead).Term)
	}
	if op := s.Ops[len(s.Ops)-1]; op.Result != raftcore.OpOK {
		t.Errorf("the fork's write ended %s (%s)", op.Result, op.Reason)
	}
	noExceptions(t, b)
}

// widgetOn reports whether the control id is on screen and on.
func widgetOn(s app.Snapshot, id string) bool {
	for _, w := range s.Screen.Widgets {
		if w.ID == id {
			return w.On
		}
	}
	return false
}

// playFigureToTheEnd presses the figure's play button, with real clicks,
// until its story is done, screenshotting each step it rests at, and
// returns the last snapshot. A step whose words are untrue of the world
// fails the test.
func playFigureToTheEnd(b *browser, name string) app.Snapshot {
	b.t.Helper()
	s := appState(b)
	for i := 0; i < 20 && !s.Scenario.Done; i++ {
		step := s.Scenario.Step
		clickWidget(b, s, "figure.play")
		s = waitState(b, "the figure to play on and rest", func(s app.Snapshot) bool {
			return s.Paused && (s.Scenario.Step > step || s.Scenario.Done)
		})
		if s.Scenario.Untrue != "" {
			b.t.Errorf("step %d: %s", s.Scenario.Step, s.Scenario.Untrue)
		}
		b.screenshot(fmt.Sprintf("%s-step-%d", name, s.Scenario.Step))
	}
	if !s.Scenario.Done || s.Scenario.Step != s.Scenario.Steps-1 {
		b.t.Fatalf("the figure stopped at step %d of %d", s.Scenario.Step, s.Scenario.Steps)
	}
	return s
}

// rulesBroken lists the rules the checker found broken.
func rulesBroken(s app.Snapshot) []string {
	var out []string
	for _, v := range s.Violations {
		if !slices.Contains(out, string(v.Rule)) {
			out = append(out, string(v.Rule))
		}
	}
	sort.Strings(out)
	return out
}

// TestAppFigure8WithAndWithoutTheBug plays the paper's Figure 8 as a
// figure in a page, with the play button: without the bug S1 never
// commits the entry of term 1 that it holds on a majority, S5 replaces it
// and nothing is broken; with the bug (its knob, clicked) S1 commits it,
// S5, elected without it, replaces it all the same, and the checker flags
// the commit, the leader lacking a committed entry and the loss.
func TestAppFigure8WithAndWithoutTheBug(t *testing.T) {
	b := newBrowser(t, 720, 450)
	b.openApp("scenario=figure-8&embed=1&speed=2")
	s := appState(b)
	if s.Scenario == nil || s.Scenario.ID != "figure-8" {
		t.Fatalf("the page shows %+v, want figure-8", s.Scenario)
	}
	s = playFigureToTheEnd(b, "raft")
	if got := rulesBroken(s); len(got) != 0 {
		t.Errorf("without the bug the checker found %v broken", got)
	}
	if s.Leader != 5 {
		t.Errorf("S%d leads at the end, want S5", s.Leader)
	}
	for _, m := range s.Machines {
		if m.Commit < 2 {
			t.Errorf("%s has committed up to %d, want S5's entry at index 2 committed", m.Name, m.Commit)
		}
	}

	clickWidget(b, s, "knob:bug=on")
	s = waitState(b, "the figure with the bug", func(s app.Snapshot) bool {
		return s.Scenario != nil && slices.Contains(s.Scenario.Settings, scenarios.Setting{Knob: "bug", Value: "on"}) && s.Scenario.Step == 0
	})
	s = playFigureToTheEnd(b, "bug")
	// S5, elected without the committed entry, breaks Leader Completeness
	// too.
	want := []string{string(raftcore.RuleCommitCurrentTerm), string(raftcore.RuleLeaderCompleteness), string(raftcore.RuleStateMachineSafety)}
	sort.Strings(want)
	if got := rulesBroken(s); !slices.Equal(got, want) {
		t.Errorf("with the bug the checker found %v broken, want %v", got, want)
	}
	noExceptions(t, b)
}

// TestAppRefusedVoteSaysWhy splits a vote (the L key: the leader crashes
// and two machines time out together), pauses, and walks on with the
// toolbar's step button until a refusal is on the wire with its tag: a
// machine that voted for the other candidate says it already voted.
func TestAppRefusedVoteSaysWhy(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&seed=1&speed=0.05")
	waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader != 0 })
	b.pressKey("l")
	b.pressKey(" ")
	s := waitState(b, "the run to pause", func(s app.Snapshot) bool { return s.Paused })
	tagged := func(s app.Snapshot) (app.FlightState, bool) {
		for _, f := range s.InFlight {
			if f.Type == "VoteResp" && f.Why == raftcore.RejectAlreadyVoted.String() && f.Label != "" {
				return f, true
			}
		}
		return app.FlightState{}, false
	}
	step := "cmd:" + viz.CmdStep.String()
	for i := 0; i < 200; i++ {
		if _, ok := tagged(s); ok {
			break
		}
		at := s.TraceCount
		clickWidget(b, s, step)
		s = waitState(b, "a step", func(s app.Snapshot) bool { return s.TraceCount > at })
	}
	f, ok := tagged(s)
	if !ok {
		t.Fatalf("no refused vote on the wire with its tag by %g ms", s.NowMs)
	}
	b.screenshot("refused-vote")
	if f.Label != "vote no: voted" {
		t.Errorf("the refusal is tagged %q, want %q", f.Label, "vote no: voted")
	}
	noExceptions(t, b)
}
