package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
)

// sparesApp is a free-play run of nodes machines of which members are in
// the cluster, with a leader.
func sparesApp(t *testing.T, nodes, members int) (*App, *hostClock) {
	t.Helper()
	p := viz.DefaultParams()
	p.Nodes, p.Members = nodes, members
	a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true})
	require.NoError(t, err)
	c := &hostClock{}
	untilLeader(t, a, c)
	return a, c
}

// allPanels is every line of every panel on screen, joined.
func allPanels(a *App) string { return panelsJoined(a, "\n") }

// panelsJoined is every panel's words, a panel a line, its own lines joined
// by sep.
func panelsJoined(a *App, sep string) string {
	var b strings.Builder
	for _, p := range a.State().Screen.Panels {
		b.WriteString(strings.Join(p.Text, sep))
		b.WriteString("\n")
	}
	return b.String()
}

// parts is each machine's tag as the frame draws it.
func parts(a *App) []string {
	var out []string
	for _, n := range a.Frame().Nodes {
		out = append(out, n.Member)
	}
	return out
}

// runUntil runs the app in steps of 100 ms until ok holds, or fails.
func runUntil(t *testing.T, a *App, c *hostClock, what string, ok func() bool) {
	t.Helper()
	for i := 0; i < 300; i++ {
		if ok() {
			return
		}
		c.run(a, 100*time.Millisecond)
	}
	t.Fatalf("%s did not happen by %v; actions %v", what, a.World().Now(), a.World().Actions())
}

func TestSparesWaitInTheTrayApartFromTheRing(t *testing.T) {
	a, _ := sparesApp(t, 5, 3)
	l := a.Layout()
	require.False(t, l.Tray.Empty(), "two spares and no tray")
	for i, n := range l.Nodes {
		assert.Equal(t, i >= 3, n.Spare, "machine %d", i+1)
		assert.Equal(t, i >= 3, l.Tray.Contains(n.Center), "machine %d at %v, tray %v", i+1, n.Center, l.Tray)
	}
	assert.Equal(t, []string{"", "", "", "spare", "spare"}, parts(a))
	f := a.Frame()
	assert.Equal(t, "Spare", f.Nodes[3].Lines[0].Text)
	assert.Equal(t, frame.ToneMuted, f.Nodes[4].Tone)
	assert.Negative(t, f.Nodes[4].Timer, "a spare never stands, yet its timer ring is drawn")
	tray := f.Zones[len(f.Zones)-1]
	assert.Equal(t, l.Tray, tray.Rect)
	assert.Contains(t, tray.Label.Text, "Spare machines")
	assert.Contains(t, allPanels(a), "Spares D and E: not in the cluster")
	assert.Contains(t, allPanels(a), "Voters A, B and C")
}

func TestAFullClusterShowsNoTrayAndNoTags(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	untilLeader(t, a, &hostClock{})
	assert.True(t, a.Layout().Tray.Empty())
	assert.Equal(t, []string{"", "", "", "", ""}, parts(a))
	assert.NotContains(t, allPanels(a), "Voters ")
}

func TestDraggingASpareOntoTheClusterAddsItAsALearner(t *testing.T) {
	a, c := sparesApp(t, 5, 3)
	l := a.Layout()
	press(a, c, l.Nodes[3].Center, l.Ring.C.Add(viz.Point{X: 5, Y: 5}), 10)
	x := lastAction(t, a)
	assert.Equal(t, raftcore.DoAddLearner, x.Do)
	assert.Equal(t, 4, x.Node)
	runUntil(t, a, c, "D joining as a learner", func() bool { return parts(a)[3] == "learner" })
	f := a.Frame()
	assert.Equal(t, "Learner", strings.Fields(f.Nodes[3].Lines[0].Text)[0])
	assert.False(t, a.Layout().Nodes[3].Spare, "D is still drawn in the tray")
	assert.Contains(t, allPanels(a), "Learners D")
	found := false
	for _, b := range f.Nodes[3].Badges {
		found = found || b.Text == "learner"
	}
	assert.True(t, found, "D has no learner tag: %v", f.Nodes[3].Badges)
}

func TestAMemberDraggedIntoTheTrayIsRemoved(t *testing.T) {
	a, c := sparesApp(t, 5, 4)
	l := a.Layout()
	victim := (a.leader() + 1) % 4
	press(a, c, l.Nodes[victim].Center, l.Tray.Center(), 10)
	x := lastAction(t, a)
	assert.Equal(t, raftcore.DoRemove, x.Do)
	assert.Equal(t, victim+1, x.Node)
	runUntil(t, a, c, "the member leaving", func() bool { return parts(a)[victim] == "spare" })
	assert.True(t, a.Layout().Nodes[victim].Spare)
}

func TestTheLeaderDraggedOntoAVoterHandsLeadershipOver(t *testing.T) {
	a, c := sparesApp(t, 3, 0)
	from := a.leader()
	to := (from + 1) % 3
	l := a.Layout()
	press(a, c, l.Nodes[from].Center, l.Nodes[to].Center, 10)
	x := lastAction(t, a)
	assert.Equal(t, raftcore.DoTransferLeader, x.Do)
	assert.Equal(t, to+1, x.Node)
	runUntil(t, a, c, "the handover", func() bool { return a.leader() == to })
	// A follower dragged onto another machine asks for nothing.
	n := len(a.World().Actions())
	l = a.Layout()
	other := (to + 1) % 3
	press(a, c, l.Nodes[other].Center, l.Nodes[from].Center, 10)
	assert.Len(t, a.World().Actions(), n)
}

func TestMenusOfferWhatEachPartCanBecome(t *testing.T) {
	a, c := sparesApp(t, 4, 3)
	leader := a.leader()
	open := func(i int) []string {
		require.NoError(t, a.Do(command.OpenMachine{Node: i}))
		return widgetIDs(a)
	}
	assert.Subset(t, open(3), []string{"node.add-learner", "node.add"})
	ids := open(leader)
	assert.Contains(t, ids, "node.remove")
	for i := 0; i < 3; i++ {
		if i != leader {
			assert.Contains(t, ids, "node.transfer-leader:"+a.cfg().Name(nodeID(i)))
		}
	}
	assert.NotContains(t, ids, "node.transfer-leader:D", "a spare cannot lead")
	require.NoError(t, a.Do(command.Dismiss{}))
	_, err := a.Cmd("add-learner", "D")
	require.NoError(t, err)
	runUntil(t, a, c, "D joining", func() bool { return parts(a)[3] == "learner" })
	assert.Contains(t, open(3), "node.promote")
	if _, err = a.Cmd("promote", "D"); err == nil && strings.Contains(a.State().Banner, "not yet copied") {
		// Asked at once, the leader may find D behind; a moment later
		// it has caught up.
		c.run(a, time.Second)
		require.NoError(t, a.Do(command.OpenMachine{Node: 3}))
	}
	n := len(a.World().Actions())
	// Clicking the promote button asks for it, as its line does.
	if parts(a)[3] == "learner" {
		_, err = a.Cmd("click", "node.promote")
		require.NoError(t, err)
		assert.Equal(t, raftcore.DoPromote, lastAction(t, a).Do)
		assert.Greater(t, len(a.World().Actions()), n)
	}
	runUntil(t, a, c, "D voting", func() bool { return parts(a)[3] == "" })
	assert.Contains(t, allPanels(a), "Voters A, B, C and D")
}

func TestAJointChangeShowsBothMajorities(t *testing.T) {
	a, c := sparesApp(t, 4, 3)
	// Slow links keep the joint configuration on screen long enough to
	// look at.
	require.NoError(t, a.Act([]byte(`{"do":"latency","latency_ms":[300,300]}`)))
	leader := a.leader()
	var voters []int
	for i := 0; i < 4; i++ {
		if i != (leader+1)%3 {
			voters = append(voters, i)
		}
	}
	require.NoError(t, a.Do(command.ChangeMembers{Verb: raftcore.DoJoint, Node: -1, Voters: voters}))
	gone := (leader + 1) % 3
	runUntil(t, a, c, "the joint configuration", func() bool { return parts(a)[3] == "new only" })
	ps := parts(a)
	assert.Equal(t, "old only", ps[gone])
	assert.Equal(t, "old + new", ps[leader])
	text := allPanels(a)
	assert.Contains(t, text, "Old voters A, B and C")
	assert.Contains(t, text, "New voters")
	assert.Contains(t, text, "majority of the old voters and of the new")
	runUntil(t, a, c, "leaving the joint configuration", func() bool { return parts(a)[gone] == "spare" })
	assert.Equal(t, "", parts(a)[3])
}

func TestAShareLinkAfterAChangeReplaysIt(t *testing.T) {
	a, c := sparesApp(t, 5, 3)
	_, err := a.Cmd("add-learner", "D")
	require.NoError(t, err)
	runUntil(t, a, c, "D joining", func() bool { return parts(a)[3] == "learner" })
	a.Key("c")
	c.run(a, time.Second)
	_, payload, ok := strings.Cut(a.ShareLink(), "link=")
	require.True(t, ok)
	assert.Contains(t, a.ShareLink(), "members=3")
	p := viz.DefaultParams()
	p.Link = payload
	b, err := New(Options{Params: p, Width: 1280, Height: 800})
	require.NoError(t, err)
	assert.Equal(t, a.World().TraceHash(), b.World().TraceHash())
	assert.Equal(t, a.World().Now(), b.World().Now())
	assert.Equal(t, parts(a), parts(b))
	assert.Equal(t, 3, b.cfg().Members)
}

func TestRewindingAcrossAChangeShowsTheOldConfiguration(t *testing.T) {
	a, c := sparesApp(t, 5, 3)
	before := a.World().Now()
	_, err := a.Cmd("add", "D")
	require.NoError(t, err)
	runUntil(t, a, c, "D joining", func() bool { return parts(a)[3] == "" })
	require.NoError(t, a.Do(command.Seek{AtUs: before}))
	assert.Equal(t, []string{"", "", "", "spare", "spare"}, parts(a))
	assert.True(t, a.Layout().Nodes[3].Spare, "D left the tray in the past")
	require.NoError(t, a.Do(command.GoLive{}))
	assert.Equal(t, "", parts(a)[3])
	assert.False(t, a.Layout().Nodes[3].Spare)
}

func TestChangesNeedALeaderAndAVoterToLead(t *testing.T) {
	a, _ := sparesApp(t, 4, 3)
	err := a.Do(command.ChangeMembers{Verb: raftcore.DoTransferLeader, Node: 3})
	assert.ErrorContains(t, err, "only be handed to a voter")
	_, err = a.Cmd("members", "7")
	assert.Error(t, err)
	// The leader refuses to promote a spare: the banner says why.
	_, err = a.Cmd("promote", "D")
	require.NoError(t, err)
	assert.Equal(t, raftcore.DoPromote, lastAction(t, a).Do)
	assert.Contains(t, a.State().Banner, "D is not a learner")
}
