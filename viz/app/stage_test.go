package app

import (
	"fmt"
	"testing"

	"raftlab/viz"
	"raftlab/viz/frame"
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
