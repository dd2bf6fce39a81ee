//go:build browser

package e2e

import (
	"testing"

	"raftlab/raftcore"
	"raftlab/viz/app"
)

// TestAppChangesTheClusterByHand opens free play with two spare machines
// and, with real mouse events, drags spare D out of the tray onto the
// cluster, promotes it from its menu, drags the leader's disc onto D to
// hand leadership over, and drags the old leader into the tray. Each is
// one recorded action; the snapshot (the frame's tags) shows each
// configuration, and a client write commits after every change.
func TestAppChangesTheClusterByHand(t *testing.T) {
	b := newBrowser(t, 1280, 800)
	b.openApp("nodes=5&members=3&speed=1")
	s := waitState(b, "a leader", func(s app.Snapshot) bool { return s.Leader != 0 })
	if s.Screen.Tray.Empty() || !s.Screen.Tray.Contains(center(machine(s, 4))) || !s.Screen.Tray.Contains(center(machine(s, 5))) {
		t.Fatalf("D and E are drawn at %v and %v, want them in the tray %v", center(machine(s, 4)), center(machine(s, 5)), s.Screen.Tray)
	}
	parts := func(s app.Snapshot) []string {
		var out []string
		for _, m := range s.Machines {
			out = append(out, m.Member)
		}
		return out
	}
	if got := parts(s); got[3] != "spare" || got[4] != "spare" || got[0] != "" {
		t.Fatalf("parts %q, want A, B and C voters and D and E spares", got)
	}
	lastIs := func(s app.Snapshot, do raftcore.Verb) bool {
		return len(s.Actions) > 0 && s.Actions[len(s.Actions)-1].Do == do
	}
	// commits sends a client write and waits until it is done.
	commits := func(when string) {
		t.Helper()
		done := func(s app.Snapshot) int {
			n := 0
			for _, op := range s.Ops {
				if op.Kind == raftcore.DoWrite && op.Result == raftcore.OpOK {
					n++
				}
			}
			return n
		}
		before := done(appState(b))
		appCmd(b, "write")
		waitState(b, "a write to commit "+when, func(s app.Snapshot) bool { return done(s) > before })
	}
	commits("with three voters")
	requireNotBlank(t, b.screenshot("spares-in-the-tray"))

	ring := s.Screen.Ring
	from := center(machine(s, 4))
	b.drag(from.X, from.Y, ring[0]+8, ring[1]+8, 15)
	s = waitState(b, "D to join as a learner", func(s app.Snapshot) bool {
		return lastIs(s, raftcore.DoAddLearner) && machine(s, 4).Member == "learner"
	})
	if s.Screen.Tray.Contains(center(machine(s, 4))) {
		t.Errorf("learner D is still drawn in the tray")
	}
	commits("with learner D")
	requireNotBlank(t, b.screenshot("learner-joined"))

	// Promote D from its menu; the leader refuses while D is behind, and
	// says so, so ask until D votes.
	waitState(b, "D to vote", func(s app.Snapshot) bool {
		if machine(s, 4).Member == "" {
			return true
		}
		if s.Menu != "node:4" {
			c := center(machine(s, 4))
			b.click(c.X, c.Y)
			s = waitState(b, "D's menu", func(s app.Snapshot) bool { return s.Menu == "node:4" })
		}
		clickWidget(b, s, "node.promote")
		return false
	})
	commits("with D voting")

	s = appState(b)
	old := s.Leader
	c, d := center(machine(s, old)), center(machine(s, 4))
	b.drag(c.X, c.Y, d.X, d.Y, 15)
	s = waitState(b, "leadership to pass to D", func(s app.Snapshot) bool { return s.Leader == 4 })
	if !slicesHasVerb(s.Actions, raftcore.DoTransferLeader) {
		t.Errorf("no transfer-leader action was recorded: %v", s.Actions)
	}
	commits("under D")
	requireNotBlank(t, b.screenshot("d-leads"))

	c = center(machine(s, old))
	tray := s.Screen.Tray
	b.drag(c.X, c.Y, tray.X+tray.W*0.8, tray.Y+tray.H*0.6, 15)
	s = waitState(b, "the old leader to leave", func(s app.Snapshot) bool {
		return lastIs(s, raftcore.DoRemove) && machine(s, old).Member == "spare"
	})
	if !s.Screen.Tray.Contains(center(machine(s, old))) {
		t.Errorf("removed machine %d is drawn at %v, outside the tray %v", old, center(machine(s, old)), s.Screen.Tray)
	}
	commits("after the old leader left")
	requireNotBlank(t, b.screenshot("old-leader-removed"))
	noExceptions(t, b)
}

func slicesHasVerb(xs []raftcore.Action, v raftcore.Verb) bool {
	for _, x := range xs {
		if x.Do == v {
			return true
		}
	}
	return false
}
