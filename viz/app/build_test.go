package app

import (
	"testing"

	"raftlab/viz"
)

func TestLinkLabelsThatWouldStackAreDropped(t *testing.T) {
	a, _ := slowCluster(t, 9)
	f := a.Frame()
	var boxes []viz.Rect
	for _, l := range f.Links {
		if !l.Slow {
			t.Fatalf("link %v is not slow after slowing every link", l.ID)
		}
		if l.Label.Text == "" {
			continue
		}
		w, h := a.measure(l.Label.Text, l.Label.Size)+6, l.Label.Size+4
		r := viz.XYWH(l.Label.X-w/2, l.Label.Y-h/2, w, h)
		for _, q := range boxes {
			if r.Overlaps(q) {
				t.Errorf("label %q at %v lies over another at %v", l.Label.Text, r, q)
			}
		}
		for _, n := range f.Nodes {
			if r.Contains(n.Center) {
				t.Errorf("label %q at %v covers machine %d", l.Label.Text, r, n.Index)
			}
		}
		boxes = append(boxes, r)
	}
	if len(boxes) == 0 || len(boxes) >= len(f.Links) {
		t.Fatalf("%d of %d slow links are labelled; want some, not all", len(boxes), len(f.Links))
	}
	// The link under the pointer is labelled, whatever its label covers.
	tried := 0
	for _, l := range f.Links {
		if l.Label.Text != "" {
			continue
		}
		for k := 1; k < 10; k++ {
			p := l.Seg.At(float64(k) / 10)
			if h := a.lay.HitTest(p, a.cache.dots, viz.HitOptions{}); h.Kind != viz.HitLink || h.Link != l.ID {
				continue
			}
			tried++
			a.Hover(p)
			for _, m := range a.Frame().Links {
				if m.ID == l.ID && (!m.Hot || m.Label.Text == "") {
					t.Errorf("hovered link %v: hot %v, label %q; want its label shown", l.ID, m.Hot, m.Label.Text)
				}
			}
			break
		}
	}
	if tried == 0 {
		t.Fatal("no unlabelled link could be hovered")
	}
}
