package app

import (
	"strings"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// TestACrashedMachineShowsOnlyWhatItPersisted crashes a leader, then a
// machine standing for election, and reads everything the app shows of
// each: its disc, its words, its log row, its hover text, its menu and its
// details panel. None gives it a role, a leader's look or the votes it had
// received: a crash keeps only term, vote, log and commit index. Its term
// and log are still shown.
func TestACrashedMachineShowsOnlyWhatItPersisted(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	lead := untilLeader(t, a, c)
	crash := func(i int) {
		t.Helper()
		if err := a.act(raftcore.Action{Do: raftcore.DoCrash, Node: i + 1}); err != nil {
			t.Fatal(err)
		}
		a.changed()
	}
	crash(lead)
	check := func(i int, was raftcore.Role) {
		t.Helper()
		nd := a.World().Node(raftcore.NodeID(i + 1))
		if nd.Role() != was {
			t.Fatalf("machine %d is %v in memory, not %v: the test shows nothing", i, nd.Role(), was)
		}
		f := a.Frame()
		n := f.Nodes[i]
		if n.Shape != frame.ShapeCircle || n.Dashed || !n.Crashed {
			t.Errorf("crashed %v drawn as shape %v dashed %v", was, n.Shape, n.Dashed)
		}
		if len(n.Votes) > 0 {
			t.Errorf("crashed %v shows %d votes received", was, len(n.Votes))
		}
		for _, l := range n.Lines {
			if strings.Contains(l.Text, "votes needed") || strings.Contains(strings.ToLower(l.Text), was.String()) {
				t.Errorf("crashed %v's caption says %q", was, l.Text)
			}
		}
		if !strings.Contains(n.Lines[0].Text, words.Utoa(nd.Term())) {
			t.Errorf("crashed %v's caption %q lacks its term %d", was, n.Lines[0].Text, nd.Term())
		}
		if tone := f.Logs.Rows[i].Tone; tone == frame.ToneLeader || tone == frame.ToneCandidate || tone == frame.TonePreCandidate {
			t.Errorf("crashed %v's log row keeps the tone %v", was, tone)
		}
		a.view.Select(i, false)
		panel := frameTexts(&frame.Frame{Panels: []frame.PanelView{a.builder.PanelContent(a.parts(), viz.PanelNode, 300)}})
		if _, ok := panel[words.NoRoleCrashed]; !ok {
			t.Errorf("crashed %v's details give a role: %v", was, panel)
		}
		for s := range everyText(a) {
			low := strings.ToLower(s)
			if strings.Contains(low, was.String()+", crashed") || strings.Contains(low, "stepped down") && strings.Contains(low, "crashed") {
				t.Errorf("crashed %v is described as %q", was, s)
			}
		}
	}
	check(lead, raftcore.RoleLeader)

	// Run on until another machine stands for election, and crash it then.
	cand := -1
	for k := 0; k < 2000 && cand < 0; k++ {
		c.run(a, 10*time.Millisecond)
		for i := 0; i < 3; i++ {
			if r := a.World().Node(raftcore.NodeID(i + 1)).Role(); i != lead && (r == raftcore.RoleCandidate || r == raftcore.RolePreCandidate) {
				cand = i
			}
		}
	}
	if cand < 0 {
		t.Fatal("no machine stood for election")
	}
	was := a.World().Node(raftcore.NodeID(cand + 1)).Role()
	crash(cand)
	check(cand, was)
}
