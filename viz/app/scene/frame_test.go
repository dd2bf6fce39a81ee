package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
)

func TestAFrameIsOfItsCanvasThemeAndVersion(t *testing.T) {
	l := freeLab(t, 3, 900, 700)
	l.View.SetTheme(frame.ThemeDark)
	f := l.b.Build(l.Parts, 42)
	assert.Equal(t, 900.0, f.W)
	assert.Equal(t, 700.0, f.H)
	assert.Equal(t, frame.ThemeDark, f.Theme)
	assert.Equal(t, uint64(42), f.Version)
	assert.False(t, f.Embed)
}

// Every machine is drawn where the layout put it, in the tone and shape
// of its role, crashed ones as down; the selected one is marked.
func TestMachinesAreDrawnWhereAndAsTheyAre(t *testing.T) {
	l := freeLab(t, 5, 1280, 800)
	lead := l.untilLeader(t)
	down := (lead + 2) % 5
	l.act(t, raftcore.Action{Do: raftcore.DoCrash, Node: down + 1})
	l.View.Select(lead, true)
	f := l.build()

	require.Len(t, f.Nodes, 5)
	for i, n := range f.Nodes {
		assert.Equal(t, i, n.Index)
		assert.Equal(t, l.Stage.Layout().Nodes[i].Center, n.Center, "machine %d", i)
		assert.Equal(t, i == lead, n.Selected, "machine %d selected", i)
		switch i {
		case lead:
			assert.Equal(t, frame.ToneLeader, n.Tone)
			assert.Equal(t, frame.ShapeSquare, n.Shape)
			assert.Negative(t, n.Timer, "a leader has no election timer")
		case down:
			assert.Equal(t, frame.ToneDown, n.Tone)
			assert.True(t, n.Crashed)
		default:
			assert.Equal(t, frame.ToneFollower, n.Tone)
			assert.Equal(t, frame.ShapeCircle, n.Shape)
			assert.GreaterOrEqual(t, n.Timer, 0.0)
		}
	}
	require.Len(t, f.Logs.Rows, 5)
	for i, r := range f.Logs.Rows {
		assert.Equal(t, i == lead, r.Selected, "log row %d selected", i)
		assert.Equal(t, i == down, r.Faded, "log row %d faded", i)
	}
}

// Links say what each direction does.
func TestLinksAreDrawnAsTheNetworkIs(t *testing.T) {
	l := freeLab(t, 3, 1280, 800)
	l.act(t, raftcore.Action{Do: raftcore.DoCut, From: 1, To: 2, OneWay: true})
	l.act(t, raftcore.Action{Do: raftcore.DoCut, From: 1, To: 3})
	f := l.build()
	require.Len(t, f.Links, 3)
	states := map[viz.LinkID]frame.LinkState{}
	for _, lk := range f.Links {
		states[lk.ID] = lk.State
	}
	assert.Equal(t, map[viz.LinkID]frame.LinkState{{I: 0, J: 1}: frame.LinkOneWay, {I: 0, J: 2}: frame.LinkCut, {I: 1, J: 2}: frame.LinkUp}, states)
	for _, lk := range f.Links {
		if lk.ID == (viz.LinkID{I: 0, J: 1}) {
			assert.Equal(t, [2]bool{false, true}, lk.Up)
		}
	}
}

// Every message on the wire between two machines is drawn on its lane,
// as far along as its time on the wire has gone.
func TestMessagesAreDrawnOnTheirWay(t *testing.T) {
	l := freeLab(t, 3, 1280, 800)
	l.untilLeader(t)
	l.run(t, l.Session.NowUs()+40_000)
	f := l.build()
	w := l.World()
	drawn := map[uint64]frame.MsgView{}
	for _, m := range f.Messages {
		drawn[m.ID] = m
	}
	seen := 0
	for _, m := range w.InFlight() {
		if m.Type == raftcore.MsgClient || m.DeliverUs <= m.SendUs {
			continue
		}
		seen++
		v, ok := drawn[m.ID]
		require.True(t, ok, "message %d is not drawn", m.ID)
		from, to := int(m.From)-1, int(m.To)-1
		assert.Equal(t, from, v.From)
		assert.Equal(t, to, v.To)
		assert.Zero(t, v.Fall)
		lk, ok := l.Stage.Layout().Link(from, to)
		require.True(t, ok)
		frac := float64(w.Now()-m.SendUs) / float64(m.DeliverUs-m.SendUs)
		want := lk.Lane(from, to).At(min(max(frac, 0), 1))
		assert.InDelta(t, want.X, v.Pos.X, 1e-6, "message %d", m.ID)
		assert.InDelta(t, want.Y, v.Pos.Y, 1e-6, "message %d", m.ID)
		assert.Equal(t, m.Type.IsResponse(), v.Hollow)
	}
	require.Positive(t, seen, "no message on the wire")
	require.Len(t, f.Messages, seen)
}

// The logs show every machine's entries, one cell an entry, committed
// ones marked as such.
func TestLogsShowEveryEntry(t *testing.T) {
	l := freeLab(t, 3, 1280, 800)
	lead := l.untilLeader(t)
	for k := 0; k < 3; k++ {
		l.act(t, raftcore.Action{Do: raftcore.DoWrite, Node: lead + 1, Key: "k", Value: "v"})
	}
	l.run(t, l.Session.NowUs()+1_000_000)
	f := l.build()
	for i, r := range f.Logs.Rows {
		nd := l.World().Node(raftcore.NodeID(i + 1))
		require.Len(t, r.Cells, int(nd.LastIndex()), "machine %d", i)
		for k, c := range r.Cells {
			assert.Equal(t, uint64(k+1), c.Index)
			assert.Equal(t, nd.Entry(c.Index).Term, c.Term)
			assert.Equal(t, c.Index <= nd.Commit(), c.Committed)
			assert.True(t, r.Strip.Contains(c.Rect.Center()), "cell %d of machine %d lies outside its strip", k, i)
		}
	}
}

// A choice about a machine that is not in this world shows nothing of
// it, and its menu is not built.
func TestAMachineNoLongerThereIsNeitherSelectedNorOpened(t *testing.T) {
	l := freeLab(t, 3, 1280, 800)
	l.View.Select(6, true)
	l.View.OpenMenu(view.Menu{Kind: view.MenuNode, Node: 6})
	f := l.build()
	for _, n := range f.Nodes {
		assert.False(t, n.Selected)
	}
	for _, r := range f.Logs.Rows {
		assert.False(t, r.Selected)
	}
	assert.Nil(t, f.Menu)
	assert.Nil(t, l.b.Menu(l.Parts, view.Menu{Kind: view.MenuNode, Node: 6}))
	assert.Nil(t, l.b.Menu(l.Parts, view.Menu{Kind: view.MenuMsg, Msg: 1 << 40}), "a message not on the wire")
	assert.NotNil(t, l.b.Menu(l.Parts, view.Menu{Kind: view.MenuNode, Node: 2}))
}
