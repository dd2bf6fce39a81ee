//go:build desktop

package draw

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"raftlab/viz/app/poster"
	"raftlab/viz/fonts"
	"raftlab/viz/frame"
)

// frameTexts lists every label of a frame a reader can see, with its size.
func frameTexts(f *frame.Frame) []frame.TextItem {
	var out []frame.TextItem
	add := func(ts ...frame.TextItem) { out = append(out, ts...) }
	widgets := func(ws ...frame.Widget) {
		for _, w := range ws {
			size := w.Size
			if size == 0 {
				size = 12
			}
			add(frame.TextItem{Text: w.Label, Size: size}, frame.TextItem{Text: "✓ " + w.Label, Size: size})
		}
	}
	for _, z := range f.Zones {
		add(z.Label, z.Sub)
	}
	for _, l := range f.Links {
		add(l.Label)
	}
	for _, n := range f.Nodes {
		add(n.Name)
		add(n.Lines[:]...)
		add(n.Badges...)
	}
	add(f.Logs.Header...)
	add(f.Logs.Before, f.Logs.After, f.Status)
	for _, p := range f.Panels {
		add(p.Title)
		add(p.Lines...)
		widgets(p.Widgets...)
	}
	widgets(f.Toolbar...)
	for _, m := range []*frame.MenuView{f.Caption, f.Menu} {
		if m == nil {
			continue
		}
		add(m.Title)
		add(m.Lines...)
		for _, r := range m.Rows {
			add(r.Label)
			widgets(r.Widgets...)
		}
	}
	return out
}

// TestMeasureWithoutEbitenMatches: fonts.Measure, which lays out the SVG
// posters and the app's text (Measure), gives exactly the widths Ebiten's
// shaper gives each label of every figure, at its opening and at its key
// moment, and pairs the font kerns.
func TestMeasureWithoutEbitenMatches(t *testing.T) {
	texts := []frame.TextItem{{Text: "AV To Yo, LT'V P. W,A Tea", Size: 13}, {Text: "Wave", Size: 9.3}}
	for _, id := range poster.IDs() {
		for _, m := range poster.Moments {
			f, err := poster.Frame(id, m)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, frameTexts(f)...)
		}
	}
	n := 0
	for _, x := range texts {
		if x.Text == "" {
			continue
		}
		n++
		for _, size := range []float64{x.Size, 11, 12.5} {
			if a, b := text.Advance(x.Text, face(size)), fonts.Measure(x.Text, size); a != b {
				t.Errorf("%q at %v: shaped %v, fonts.Measure %v", x.Text, size, a, b)
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d words compared", n)
	}
}
