//go:build browser

package e2e

import (
	"fmt"
	"testing"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app"
)

// The tests in this file play what a teacher shows a class, with real mouse
// clicks and keys: a write sent to the cluster while its leader is down.

// crashFromMenu crashes machine id through its menu, with real clicks, and
// waits until it is down.
func crashFromMenu(b *browser, id int) app.Snapshot {
	b.t.Helper()
	s := appState(b)
	m := machine(s, id)
	b.click(m.X, m.Y)
	s = waitState(b, "the machine's menu", func(s app.Snapshot) bool { return s.Menu == fmt.Sprintf("node:%d", id) })
	clickWidget(b, s, "node.crash")
	return waitState(b, "the machine to crash", func(s app.Snapshot) bool { return machine(s, id).Status == "crashed" })
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
