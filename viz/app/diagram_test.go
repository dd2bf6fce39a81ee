package app

import (
	"fmt"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/frame"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDiagramLightsTheLatestTransition: the role diagram says which machine
// moved last, between which roles and why, and lights that arrow; a
// machine restarting as a follower moves along no arrow.
func TestDiagramLightsTheLatestTransition(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	c := &hostClock{}
	lead := untilLeader(t, a, c)
	c.run(a, time.Second)
	f, g := (lead+1)%5, (lead+2)%5
	act := func(do string, i int) {
		t.Helper()
		require.NoError(t, a.Act(fmt.Appendf(nil, `{"do":%q,"node":%d}`, do, i+1)))
	}
	check := func(after string) {
		t.Helper()
		d := a.builder.PanelContent(a.parts(), viz.PanelNode, 400).Diagram
		require.Equal(t, a.cfg().Name(nodeID(f))+": follower → pre-candidate (forced timeout)", d.Last.Text, after)
		var hot []string
		for _, ar := range d.Arrows {
			if ar.Hot {
				hot = append(hot, ar.Label.Text)
			}
		}
		for _, b := range d.Boxes {
			if b.Hot {
				hot = append(hot, b.Label.Text)
			}
		}
		require.Equal(t, []string{"timeout", "Pre-candidate"}, hot, after)
	}
	act("timeout", f)
	check("a forced timeout")
	act("crash", g)
	act("restart", g)
	check("a restart")
}

// TestDiagramLabelsBesideTheirLines: no arrow's label lies across an
// arrow's line or over another label, with the pre-candidate's box or without, in a narrow
// panel and a wide one.
func TestDiagramLabelsBesideTheirLines(t *testing.T) {
	eachDiagram(t, func(a *App, d *frame.DiagramView, preVote bool, width float64) {
		boxOf := func(l frame.TextItem) viz.Rect {
			w := a.measure(l.Text, l.Size)
			h := l.Size * 1.2
			if l.Center {
				return viz.XYWH(l.X-w/2, l.Y-h/2, w, h)
			}
			return viz.XYWH(l.X, l.Y, w, h)
		}
		for k, ar := range d.Arrows {
			l := ar.Label
			box := boxOf(l)
			for _, other := range d.Arrows[k+1:] {
				require.False(t, box.Overlaps(boxOf(other.Label)), "%q and %q overlap (pre-vote %v, width %v)", l.Text, other.Label.Text, preVote, width)
			}
			require.LessOrEqual(t, box.Right(), width+1, "%q runs out of the panel (pre-vote %v, width %v)", l.Text, preVote, width)
			for _, other := range d.Arrows {
				for i := 1; i < len(other.Path); i++ {
					p, q := other.Path[i-1], other.Path[i]
					seg := viz.XYWH(min(p.X, q.X)-1, min(p.Y, q.Y)-1, max(p.X, q.X)-min(p.X, q.X)+2, max(p.Y, q.Y)-min(p.Y, q.Y)+2)
					require.False(t, box.Overlaps(seg), "%q is struck by the arrow labelled %q (pre-vote %v, width %v)", l.Text, other.Label.Text, preVote, width)
				}
			}
		}
	})
}

// TestDiagramBoxNamesInsideTheirBoxes: each role's name, and who is in
// it, sits inside its box, clear of the arrows that run between the
// boxes.
func TestDiagramBoxNamesInsideTheirBoxes(t *testing.T) {
	eachDiagram(t, func(a *App, d *frame.DiagramView, preVote bool, width float64) {
		for _, b := range d.Boxes {
			for _, l := range []frameText{{b.Label.Text, b.Label.X, b.Label.Size}, {b.Label2.Text, b.Label2.X, b.Label2.Size}, {b.Members.Text, b.Members.X, b.Members.Size}} {
				if l.text == "" {
					continue
				}
				w := a.measure(l.text, l.size)
				require.GreaterOrEqual(t, l.x-w/2, b.Rect.X+1, "%q runs out of its box on the left (pre-vote %v, width %v)", l.text, preVote, width)
				require.LessOrEqual(t, l.x+w/2, b.Rect.Right()-1, "%q runs out of its box on the right (pre-vote %v, width %v)", l.text, preVote, width)
			}
		}
	})
}

// eachDiagram builds the role diagram with PreVote on and off in a narrow
// panel (the phone's and the presenter's) and wider ones, and hands each
// to check.
func eachDiagram(t *testing.T, check func(a *App, d *frame.DiagramView, preVote bool, width float64)) {
	t.Helper()
	for _, preVote := range []bool{true, false} {
		for _, width := range []float64{240, 300, 420} {
			a := newApp(t, 5, 1280, 800)
			require.NoError(t, a.Do(command.SetPreVote{On: preVote}))
			d := a.builder.PanelContent(a.parts(), viz.PanelNode, width).Diagram
			require.NotNil(t, d)
			check(a, d, preVote, width)
		}
	}
}

type frameText struct {
	text    string
	x, size float64
}
