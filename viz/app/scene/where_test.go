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

// busyLab is five machines with a leader, written to, messages on the
// wire and notable moments on the timeline.
func busyLab(t *testing.T, w, h float64) *lab {
	l := freeLab(t, 5, w, h)
	lead := l.untilLeader(t)
	l.act(t, raftcore.Action{Do: raftcore.DoWrite, Node: lead + 1, Key: "k", Value: "v"})
	l.run(t, l.Session.NowUs()+500_000)
	l.act(t, raftcore.Action{Do: raftcore.DoWrite, Node: lead + 1, Key: "k", Value: "w"})
	l.run(t, l.Session.NowUs()+30_000)
	return l
}

// Each control is pressed where the frame drew it.
func TestEveryControlIsPressedWhereItIsDrawn(t *testing.T) {
	for _, size := range [][2]float64{{1280, 800}, {390, 800}} {
		l := busyLab(t, size[0], size[1])
		l.View.OpenMenu(view.Menu{Kind: view.MenuNode, Node: 1})
		f := l.build()
		require.NotNil(t, f.Menu)
		pressed := 0
		for w := range f.Widgets() {
			if !w.Enabled || w.Rect.Empty() || clipped(f, w) {
				continue
			}
			got, ok := WidgetAt(f, w.Rect.Center())
			if f.Menu.Rect.Overlaps(w.Rect) && !menuHas(f.Menu, w.ID) {
				continue // under the menu
			}
			if assert.True(t, ok, "%v: %s at %v", size, w.ID, w.Rect) {
				assert.Equal(t, w.ID, got.ID, "%v: at the middle of %s", size, w.ID)
				pressed++
			}
		}
		require.Greater(t, pressed, 10, "%v", size)
	}
}

// clipped reports whether w is a control of a panel scrolled out of
// sight, not drawn where its rectangle is.
func clipped(f *frame.Frame, w frame.Widget) bool {
	for _, pv := range f.Panels {
		for _, pw := range pv.Widgets {
			if pw.ID == w.ID && pw.Rect == w.Rect && !pv.Folded && !pv.Clip.Contains(w.Rect.Center()) {
				return true
			}
		}
	}
	return false
}

func menuHas(m *frame.MenuView, id string) bool {
	for w := range m.Widgets() {
		if w.ID == id {
			return true
		}
	}
	return false
}

// A point in a panel is in that panel.
func TestPanelAtFindsThePanelDrawnThere(t *testing.T) {
	f := busyLab(t, 1280, 800).build()
	require.NotEmpty(t, f.Panels)
	for _, pv := range f.Panels {
		for _, p := range []viz.Point{pv.Rect.Center(), {X: pv.Rect.Center().X, Y: pv.Rect.Y + 2}} {
			k, ok := PanelAt(f, p)
			require.True(t, ok, "%v in panel %d", p, pv.Kind)
			assert.Equal(t, pv.Kind, k)
		}
	}
	_, ok := PanelAt(f, viz.Point{X: -5, Y: -5})
	assert.False(t, ok)
}

// A log row is where the layout put its machine's name and strip.
func TestLogRowAtFindsTheMachinesRow(t *testing.T) {
	l := freeLab(t, 5, 1280, 800)
	lay := l.Stage.Layout()
	for i, nd := range lay.Nodes {
		assert.Equal(t, i, LogRowAt(lay, nd.LogStrip.Center()))
		assert.Equal(t, i, LogRowAt(lay, nd.LogLabel.Center()))
	}
	assert.Equal(t, -1, LogRowAt(lay, lay.Nodes[0].Center))
}

// Hovering finds what the frame drew under the pointer: a control, a
// machine, a log entry, a message, a link, a timeline mark.
func TestHoverAtFindsWhatIsDrawnUnderThePointer(t *testing.T) {
	l := busyLab(t, 1280, 800)
	f := l.build()
	lay := l.Stage.Layout()
	dots := Dots(f, nil)
	at := func(p viz.Point) view.HoverTarget { return HoverAt(f, lay, p, dots) }

	tool := f.Toolbar[0]
	assert.Equal(t, view.HoverTarget{Kind: "widget", Widget: tool.ID}, at(tool.Rect.Center()))
	for _, n := range f.Nodes {
		assert.Equal(t, view.HoverTarget{Kind: "node", A: n.Index}, at(n.Center))
	}
	for _, r := range f.Logs.Rows {
		require.NotEmpty(t, r.Cells)
		c := r.Cells[len(r.Cells)-1]
		assert.Equal(t, view.HoverTarget{Kind: "entry", A: r.Node, ID: c.Index}, at(c.Rect.Center()))
	}
	require.NotEmpty(t, f.Messages)
	for _, m := range f.Messages {
		if got := at(m.Pos); got.Kind == "msg" {
			assert.Equal(t, m.ID, got.ID)
		} else {
			assert.Equal(t, "node", got.Kind, "message %d at %v is under %+v", m.ID, m.Pos, got)
		}
	}
	require.NotEmpty(t, f.Timeline.Marks)
	mk := f.Timeline.Marks[0]
	assert.Equal(t, view.HoverTarget{Kind: "mark", A: 0}, at(viz.Point{X: mk.X, Y: f.Timeline.Track.Center().Y}))

	links := 0
	for _, lk := range f.Links {
		p := lk.Seg.At(0.5)
		if h := lay.HitTest(p, dots, viz.HitOptions{}); h.Kind != viz.HitLink {
			continue // a machine or a message lies over its middle
		}
		links++
		assert.Equal(t, view.HoverTarget{Kind: "link", A: lk.ID.I, B: lk.ID.J}, at(p))
	}
	assert.Positive(t, links)
}

// With a menu open the reader is busy with it: hovering elsewhere shows
// nothing.
func TestHoverWithAMenuOpenIsAboutTheMenu(t *testing.T) {
	l := busyLab(t, 1280, 800)
	l.View.OpenMenu(view.Menu{Kind: view.MenuMain})
	f := l.build()
	require.NotNil(t, f.Menu)
	lay := l.Stage.Layout()
	var far viz.Point
	for _, n := range f.Nodes {
		if !f.Menu.Rect.Inset(-n.R).Contains(n.Center) {
			far = n.Center
		}
	}
	require.NotZero(t, far, "every machine is under the menu")
	require.Equal(t, "node", HoverAt(&frame.Frame{}, lay, far, nil).Kind)
	assert.Equal(t, view.HoverTarget{}, HoverAt(f, lay, far, Dots(f, nil)))
	corner := viz.Point{X: f.Menu.Rect.Right() - 2, Y: f.Menu.Rect.Bottom() - 2}
	assert.Equal(t, view.HoverTarget{Kind: "menu"}, HoverAt(f, lay, corner, Dots(f, nil)))
}

// A timeline mark's words are written only for the mark under the pointer,
// and they are the words of the run's mark that it stands for.
func TestHoveredMarkSaysItsOwnWords(t *testing.T) {
	l := busyLab(t, 1280, 800)
	f := l.build()
	marks := l.Session.Marks()
	require.GreaterOrEqual(t, len(f.Timeline.Marks), 2)
	for k, mk := range f.Timeline.Marks {
		l.View.SetHover(viz.Point{X: mk.X, Y: f.Timeline.Track.Center().Y}, true)
		hovered := l.build()
		require.NotNil(t, hovered.Tooltip, "mark %d", k)
		require.Less(t, mk.Source, len(marks))
		var said []string
		for _, line := range hovered.Tooltip.Lines {
			said = append(said, line.Text)
		}
		assert.Contains(t, said, l.Voice().MarkText(marks[mk.Source]), "mark %d", k)
	}
}
