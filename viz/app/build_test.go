package app

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/app/scene"
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
			if h := a.lay().HitTest(p, scene.Dots(a.Frame(), nil), viz.HitOptions{}); h.Kind != viz.HitLink || h.Link != l.ID {
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

// TestHeartbeatRingsOnlyTheLeader: the ring spreads from a machine that
// sends heartbeats, and followers answering them (HeartbeatResp) send
// none.
func TestHeartbeatRingsOnlyTheLeader(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	c := &hostClock{}
	lead := untilLeader(t, a, c)
	rang := false
	for i := 0; i < 120; i++ {
		c.run(a, time.Second/60)
		for _, n := range a.Frame().Nodes {
			if n.Index != lead {
				require.Zero(t, n.Pulse, "follower %d rings", n.Index)
			} else if n.Pulse > 0 {
				rang = true
			}
		}
	}
	require.True(t, rang, "the leader's heartbeats never rang")
}
