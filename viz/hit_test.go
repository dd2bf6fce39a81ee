package viz

import (
	"fmt"
	"math"
	"testing"
)

var mouse, touch = HitOptions{}, HitOptions{Touch: true}

func TestHitNodes(t *testing.T) {
	for _, sz := range testSizes {
		for n := 1; n <= MaxNodes; n++ {
			l := NewLayout(sz.w, sz.h, n, true)
			r := l.NodeRadius
			for i, nd := range l.Nodes {
				out := nd.Center.Sub(l.Ring.C).Unit()
				if out == (Point{}) {
					out = Pt(0, -1)
				}
				tests := []struct {
					p    Point
					o    HitOptions
					want bool
				}{
					{nd.Center, mouse, true},
					{nd.Center.Add(out.Mul(r - 0.5)), mouse, true},
					{nd.Center.Add(out.Mul(r + 0.5)), mouse, false},
					{nd.Center.Add(out.Mul(r + 6)), touch, true},
					{nd.Center.Add(out.Mul(r + 9)), touch, false},
				}
				for _, tc := range tests {
					h := l.HitTest(tc.p, nil, tc.o)
					if got := h.Kind == HitNode && h.Node == i; got != tc.want {
						t.Errorf("%vx%v n=%d: hit at %v from node %d (touch=%v) = %+v, want node=%v",
							sz.w, sz.h, n, tc.p.Dist(nd.Center), i, tc.o.Touch, h, tc.want)
					}
				}
			}
		}
	}
}

func TestHitLinks(t *testing.T) {
	l := NewLayout(1280, 800, 3, true)
	for _, lk := range l.Links {
		mid := Seg(lk.Seg.A, lk.Seg.B).At(0.5)
		dir := lk.Seg.B.Sub(lk.Seg.A).Unit()
		right := dir.Perp() // side of lane 0 (I→J)
		tests := []struct {
			name     string
			p        Point
			o        HitOptions
			wantLink bool
			wantLane int
		}{
			{"on the segment", mid, mouse, true, 0},
			{"on lane 0", lk.Lanes[0].At(0.5), mouse, true, 0},
			{"on lane 1", lk.Lanes[1].At(0.5), mouse, true, 1},
			{"beside lane 0", mid.Add(right.Mul(8)), mouse, true, 0},
			{"beside lane 1", mid.Add(right.Mul(-8)), mouse, true, 1},
			{"too far for a mouse", mid.Add(right.Mul(16)), mouse, false, 0},
			{"in reach of a finger", mid.Add(right.Mul(16)), touch, true, 0},
			{"too far for a finger", mid.Add(right.Mul(25)), touch, false, 0},
			{"wider tolerance", mid.Add(right.Mul(25)), HitOptions{LinkTolerance: 30}, true, 0},
		}
		for _, tc := range tests {
			h := l.HitTest(tc.p, nil, tc.o)
			got := h.Kind == HitLink && h.Link == lk.LinkID
			if got != tc.wantLink || (got && h.Lane != tc.wantLane) {
				t.Errorf("link %v %s: %+v, want link=%v lane %d", lk.LinkID, tc.name, h, tc.wantLink, tc.wantLane)
			}
		}
	}
	// Wherever a link is hit, it is the nearest one in reach and no node is.
	for _, sz := range testSizes {
		for n := 2; n <= MaxNodes; n++ {
			l := NewLayout(sz.w, sz.h, n, true)
			for _, lk := range l.Links {
				for _, f := range []float64{0.2, 0.5, 0.8} {
					p := lk.Seg.At(f)
					h := l.HitTest(p, nil, mouse)
					if _, nodeNear := l.hitNode(p, 0); nodeNear {
						if h.Kind != HitNode {
							t.Errorf("%vx%v n=%d: at %v a node is in reach, hit %+v", sz.w, sz.h, n, p, h)
						}
						continue
					}
					got, _ := l.Link(h.Link.I, h.Link.J)
					if h.Kind != HitLink || linkDist(got, p) > linkDist(lk, p)+eps {
						t.Errorf("%vx%v n=%d: at %v on link %v, hit %+v", sz.w, sz.h, n, p, lk.LinkID, h)
					}
				}
			}
		}
	}
}

func linkDist(lk Link, p Point) float64 {
	return min(lk.Seg.Dist(p), lk.Lanes[0].Dist(p), lk.Lanes[1].Dist(p))
}

func TestHitPriority(t *testing.T) {
	l := NewLayout(1280, 800, 5, true)
	node := l.Nodes[2].Center
	link, _ := l.Link(0, 2)
	onLink := link.Seg.At(0.5)
	tests := []struct {
		name string
		p    Point
		msgs []MessageDot
		want Hit
	}{
		{"message over node", node, []MessageDot{{ID: 7, Pos: node.Add(Pt(2, 0))}},
			Hit{Kind: HitMessage, Msg: 7, Node: -1, Zone: -1}},
		{"message over link", onLink, []MessageDot{{ID: 9, Pos: onLink}},
			Hit{Kind: HitMessage, Msg: 9, Node: -1, Zone: -1}},
		{"nearest message wins", onLink, []MessageDot{{ID: 1, Pos: onLink.Add(Pt(3, 0))}, {ID: 2, Pos: onLink.Add(Pt(1, 0))}, {ID: 3, Pos: onLink.Add(Pt(-2, 0))}},
			Hit{Kind: HitMessage, Msg: 2, Node: -1, Zone: -1}},
		{"tie goes to the dot on top", onLink, []MessageDot{{ID: 1, Pos: onLink.Add(Pt(2, 0))}, {ID: 2, Pos: onLink.Add(Pt(-2, 0))}},
			Hit{Kind: HitMessage, Msg: 2, Node: -1, Zone: -1}},
		{"message out of reach", node, []MessageDot{{ID: 7, Pos: node.Add(Pt(l.MessageRadius+1, 0))}},
			Hit{Kind: HitNode, Node: 2, Zone: -1}},
		{"node over the links that end at it", node, nil, Hit{Kind: HitNode, Node: 2, Zone: -1}},
		{"link", onLink, nil, Hit{Kind: HitLink, Link: LinkID{0, 2}, Node: -1, Zone: -1}},
		{"outside the canvas", Pt(-10, -10), nil, Hit{Kind: HitNone, Node: -1, Zone: -1}},
	}
	for _, tc := range tests {
		if got := l.HitTest(tc.p, tc.msgs, mouse); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestHitControls(t *testing.T) {
	for _, sz := range testSizes {
		l := ComputeLayout(LayoutOptions{Width: sz.w, Height: sz.h, Nodes: 5, Panels: true, Active: PanelSafety})
		where := fmt.Sprintf("%vx%v", sz.w, sz.h)
		for _, b := range l.Buttons {
			// The app hit-tests its buttons against its frame; to the
			// layout they are the toolbar.
			if h := l.HitTest(b.Rect.Center(), nil, touch); h.Kind != HitToolbar {
				t.Errorf("%s: button %v centre hit %+v", where, b.Cmd, h)
			}
		}
		for _, tb := range l.Tabs {
			// Tabs too are the app's controls, and no stage thing.
			if h := l.HitTest(tb.Rect.Center(), nil, touch); h.Kind != HitNone && h.Kind != HitToolbar {
				t.Errorf("%s: tab %v centre hit %+v", where, tb.Kind, h)
			}
		}
		for _, p := range l.Panels {
			if p.Visible {
				if h := l.HitTest(p.Rect.Center(), nil, touch); h.Kind != HitPanel || h.Panel != p.Kind {
					t.Errorf("%s: panel %v centre hit %+v", where, p.Kind, h)
				}
			}
		}
		for i, nd := range l.Nodes {
			if h := l.HitTest(nd.LogStrip.Center(), nil, mouse); h.Kind != HitLog || h.Node != i {
				t.Errorf("%s: log row %d hit %+v", where, i, h)
			}
		}
		fracs := []struct {
			name string
			r    Rect
			kind HitKind
		}{{"speed", l.Speed, HitSpeed}, {"timeline", l.Timeline, HitTimeline}}
		for _, f := range fracs {
			for _, want := range []float64{0, 0.25, 0.5, 1} {
				p := Pt(f.r.X+want*f.r.W, f.r.Y+f.r.H/2)
				if h := l.HitTest(p, nil, mouse); h.Kind != f.kind || math.Abs(h.Frac-want) > 1e-9 {
					t.Errorf("%s: %s at %v hit %+v", where, f.name, want, h)
				}
			}
		}
		// Between two buttons lies bare toolbar.
		gap := Pt(l.Buttons[0].Rect.Right()+buttonGap/2, l.Buttons[0].Rect.Center().Y)
		if h := l.HitTest(gap, nil, mouse); h.Kind != HitToolbar {
			t.Errorf("%s: gap between buttons hit %+v", where, h)
		}
		// A cluster corner is empty space.
		corner := Pt(l.Cluster.X+2, l.Cluster.Y+2)
		if h := l.HitTest(corner, nil, touch); h.Kind != HitCluster {
			t.Errorf("%s: cluster corner hit %+v", where, h)
		}
	}
}

func TestHitZones(t *testing.T) {
	l := ComputeLayout(LayoutOptions{Width: 1280, Height: 800, Nodes: 4, Zones: []int{0, 0, 1, 1}, ZoneCount: 3})
	for _, z := range l.Zones {
		h := l.HitTest(Pt(z.Body.X+3, z.Body.Bottom()-3), nil, mouse)
		if h.Kind != HitCluster || h.Zone != z.Index {
			t.Errorf("zone %d corner hit %+v", z.Index, h)
		}
	}
	if h := l.HitTest(l.Nodes[3].Center, nil, mouse); h.Kind != HitNode || h.Node != 3 || h.Zone != 1 {
		t.Errorf("node in zone 1 hit %+v", h)
	}
}

func TestHitKindString(t *testing.T) {
	if HitLink.String() != "link" || HitToolbar.String() != "toolbar" || HitKind(99).String() != "?" {
		t.Errorf("names: %v %v %v", HitLink, HitToolbar, HitKind(99))
	}
}

func FuzzHitTest(f *testing.F) {
	f.Add(640.0, 400.0, uint8(5), false, 0.0, 0.0)
	f.Add(200.0, 300.0, uint8(8), true, 3.0, -2.0)
	f.Fuzz(func(t *testing.T, x, y float64, n uint8, isTouch bool, mx, my float64) {
		l := NewLayout(1280, 800, int(n%MaxNodes)+1, true)
		o := HitOptions{Touch: isTouch}
		p := Pt(x, y)
		msgs := []MessageDot{{ID: 42, Pos: l.Nodes[0].Center.Add(Pt(mx, my))}}
		h := l.HitTest(p, msgs, o)
		msgIn := p.Dist(msgs[0].Pos) <= l.MessageRadius+o.slack()
		_, nodeIn := l.hitNode(p, o.slack())
		_, _, linkIn := l.hitLink(p, o.linkTolerance())
		linkIn = linkIn && l.Cluster.Contains(p)
		switch {
		case msgIn:
			if h.Kind != HitMessage || h.Msg != 42 {
				t.Fatalf("message in reach, hit %+v", h)
			}
		case nodeIn:
			if h.Kind != HitNode || p.Dist(l.Nodes[h.Node].Center) > l.NodeRadius+o.slack() {
				t.Fatalf("node in reach, hit %+v", h)
			}
		case linkIn:
			lk, ok := l.Link(h.Link.I, h.Link.J)
			if h.Kind != HitLink || !ok || linkDist(lk, p) > o.linkTolerance() {
				t.Fatalf("link in reach, hit %+v", h)
			}
		default:
			if h.Kind == HitMessage || h.Kind == HitNode || h.Kind == HitLink {
				t.Fatalf("nothing in reach, hit %+v", h)
			}
		}
		if (h.Node >= 0) != (h.Kind == HitNode || h.Kind == HitLog) {
			t.Fatalf("Node field %d with kind %v", h.Node, h.Kind)
		}
	})
}
