package app

import (
	"fmt"
	"testing"
	"time"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"

	"github.com/stretchr/testify/assert"
)

// TestPartitionFramesAreReadable builds the frames of split clusters on a
// laptop, in a 720x450 and a 350x560 figure and on a phone, with letters
// and etcd-N names, and checks the words the app draws: every machine has
// its role line, and no line under a disc or name overlaps another's
// words or another machine's disc, and all stay on the stage.
func TestPartitionFramesAreReadable(t *testing.T) {
	splits := map[int][]string{
		5: {``, `[[1,2,3,4],[5]]`, `[[1,2],[3,4],[5]]`, `[[1,2,3],[4,5]]`},
		9: {``, `[[1,2,3,4,5,6,7,8],[9]]`, `[[1,2,3,4],[5,6,7],[8,9]]`, `[[1,2,3],[4,5,6],[7,8,9]]`},
		3: {``, `[[1,2],[3]]`, `[[1],[2],[3]]`},
	}
	for _, sz := range []struct {
		w, h  float64
		embed bool
	}{{1280, 800, false}, {720, 450, true}, {350, 560, true}, {390, 844, false}} {
		for n, groups := range splits {
			for _, etcd := range []bool{false, true} {
				for _, g := range groups {
					p := viz.DefaultParams()
					p.Nodes, p.Embed = n, sz.embed
					a, err := New(Options{Params: p, Width: sz.w, Height: sz.h, SpeedGiven: true})
					if err != nil {
						t.Fatal(err)
					}
					if etcd {
						a.cfg().Names = make([]string, n)
						for i := range a.cfg().Names {
							a.cfg().Names[i] = fmt.Sprintf("etcd-%d", i+1)
						}
						a.stage.ForgetWorld()
					}
					if g == "" {
						a.touchLayout()
					} else if err := a.Act([]byte(`{"do":"partition","groups":` + g + `}`)); err != nil {
						t.Fatal(err)
					}
					f := a.Frame()
					where := fmt.Sprintf("%vx%v n=%d etcd=%v %s", sz.w, sz.h, n, etcd, g)
					checkFrameWords(t, where, a, f)
				}
			}
		}
	}
}

func textBox(a *App, t frame.TextItem) viz.Rect {
	w := a.measure(t.Text, t.Size)
	return viz.Rect{X: t.X - w/2, Y: t.Y - t.Size/2, W: w, H: t.Size}
}

func checkFrameWords(t *testing.T, where string, a *App, f *frame.Frame) {
	t.Helper()
	l := a.Layout()
	type word struct {
		node int
		box  viz.Rect
		text string
	}
	var words []word
	for i, nv := range f.Nodes {
		if nv.Lines[0].Text == "" {
			t.Errorf("%s: machine %d has no role line", where, i)
		}
		if b := textBox(a, nv.Name); b.W > l.Nodes[i].Label.W+1e-6 {
			t.Errorf("%s: name %q is %v wide in a box of %v", where, nv.Name.Text, b.W, l.Nodes[i].Label.W)
		}
		for _, ln := range nv.Lines {
			if ln.Text != "" {
				words = append(words, word{i, textBox(a, ln), ln.Text})
			}
		}
		for _, b := range nv.Badges {
			words = append(words, word{i, textBox(a, b), b.Text})
		}
	}
	for x, w := range words {
		if !l.Cluster.ContainsRect(w.box) {
			t.Errorf("%s: %q %v leaves the stage %v", where, w.text, w.box, l.Cluster)
		}
		for j := range l.Nodes {
			c := l.NodeCircle(j)
			px := min(max(c.C.X, w.box.X), w.box.Right())
			py := min(max(c.C.Y, w.box.Y), w.box.Bottom())
			if j != w.node && c.C.Dist(viz.Pt(px, py)) < c.R {
				t.Errorf("%s: %q of machine %d overlaps machine %d", where, w.text, w.node, j)
			}
		}
		for _, v := range words[x+1:] {
			if v.node != w.node && w.box.Overlaps(v.box) {
				t.Errorf("%s: %q of machine %d overlaps %q of machine %d", where, w.text, w.node, v.text, v.node)
			}
		}
	}
}

// TestBadgesInsideTheirSide: on a phone, the machine cut off alone in
// clock-drift carries a stale read and its clock's offset, each step of
// the story; its tags stay inside its side's box, in their short forms
// where the whole ones are wider, and it has no "cut off" tag, which its
// lone side already shows (three tags climbed over the side's label, and
// the stale read's value and the clock's rate ran past the box's edge).
func TestBadgesInsideTheirSide(t *testing.T) {
	a := figureApp(t, "clock-drift", 350, 560)
	var c hostClock
	c.run(a, time.Second)
	checked := 0
	for step := 0; step < 20; step++ {
		f := a.Frame()
		l := a.Layout()
		for i, nv := range f.Nodes {
			zone := l.Nodes[i].Zone
			if zone < 0 || zone >= len(l.Zones) {
				continue
			}
			side := l.Zones[zone].Rect
			for _, bd := range nv.Badges {
				assert.NotEqual(t, words.CutOffTag, bd.Text, "step %d: machine %d alone on its side", step, i)
				tb := textBox(a, bd)
				pill := viz.XYWH(tb.X-5, tb.Y-3, tb.W+10, tb.H+6) // as viz/paint draws it
				assert.True(t, side.ContainsRect(pill), "step %d: %q %v leaves its side %v", step, bd.Text, pill, side)
				checked++
			}
		}
		if a.scen().Tracker().Done() {
			break
		}
		playToRest(t, a, &c, 120*time.Second)
	}
	assert.GreaterOrEqual(t, checked, 4, "the cut-off machine's tags")
}
