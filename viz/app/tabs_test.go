package app

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"raftlab/viz"
)

// TestTabLabelsFitTheirTabs: at column width and on a phone, every tab's
// label fits inside its tab.
func TestTabLabelsFitTheirTabs(t *testing.T) {
	for _, size := range [][2]float64{{720, 450}, {350, 560}, {1280, 800}} {
		a := newApp(t, 5, size[0], size[1])
		for _, w := range a.Frame().Tabs {
			assert.LessOrEqual(t, a.measure(w.Label, w.Size), w.Rect.W-6, "%v: tab %q (%.1f px text in a %.1f px tab)", size, w.Label, a.measure(w.Label, w.Size), w.Rect.W)
		}
	}
}

// TestTheFirstNoteHidesNoMachineNorTab: the note shown while no machine
// leads yet sits where it hides no machine and no tab, at column width and
// on a phone; and on a laptop's screen no machine's words nor the names of
// the log rows either.
func TestTheFirstNoteHidesNoMachineNorTab(t *testing.T) {
	for _, size := range [][2]float64{{720, 450}, {350, 560}, {1280, 800}} {
		a := newApp(t, 5, size[0], size[1])
		f := a.Frame()
		if !assert.NotNil(t, f.Banner, "%v: no first note", size) {
			continue
		}
		r := f.Banner.Rect
		for _, n := range f.Nodes {
			disc := viz.XYWH(n.Center.X-n.R, n.Center.Y-n.R, 2*n.R, 2*n.R)
			assert.False(t, r.Overlaps(disc), "%v: the note %v hides machine %s", size, r, n.Name.Text)
		}
		for _, tab := range f.Tabs {
			assert.False(t, r.Overlaps(tab.Rect), "%v: the note %v hides the tab %q", size, r, tab.Label)
		}
		if size[0] < 1280 {
			continue
		}
		for _, row := range f.Logs.Rows {
			assert.False(t, r.Overlaps(row.Label), "%v: the note %v hides the log row of %s", size, r, row.Name.Text)
		}
		for _, n := range f.Nodes {
			for _, l := range n.Lines {
				box := viz.XYWH(l.X, l.Y, a.measure(l.Text, l.Size), l.Size*1.35)
				assert.False(t, r.Overlaps(box), "%v: the note %v hides %q", size, r, l.Text)
			}
		}
	}
}
