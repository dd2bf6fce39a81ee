package viz

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"
)

const ms = time.Millisecond

// stroke turns a list of points into a press at the first, moves through
// the rest and a release at the last, 16ms apart.
func stroke(touch bool, pts ...Point) []PointerEvent {
	evs := make([]PointerEvent, 0, len(pts)+1)
	for i, p := range pts {
		a := PointerMove
		if i == 0 {
			a = PointerDown
		}
		evs = append(evs, PointerEvent{Action: a, Pos: p, Time: time.Duration(i) * 16 * ms, Touch: touch})
	}
	last := pts[len(pts)-1]
	return append(evs, PointerEvent{Action: PointerUp, Pos: last, Time: time.Duration(len(pts)) * 16 * ms, Touch: touch})
}

// feedAll feeds events and returns every gesture that is not GestureNone.
func feedAll(g *Recognizer, l *Layout, msgs []MessageDot, evs []PointerEvent) []Gesture {
	var out []Gesture
	for _, ev := range evs {
		if got := g.Feed(l, msgs, ev); got.Kind != GestureNone {
			out = append(out, got)
		}
	}
	return out
}

// last returns the final gesture, failing when there is none.
func last(t *testing.T, gs []Gesture) Gesture {
	t.Helper()
	if len(gs) == 0 {
		t.Fatalf("no gesture")
	}
	return gs[len(gs)-1]
}

// path returns points from a to b in steps of at most step pixels.
func path(a, b Point, step float64) []Point {
	k := int(math.Ceil(a.Dist(b) / step))
	pts := []Point{a}
	for i := 1; i <= k; i++ {
		pts = append(pts, Seg(a, b).At(float64(i)/float64(k)))
	}
	return pts
}

func TestTap(t *testing.T) {
	l := NewLayout(1280, 800, 5, true)
	node := l.Nodes[3].Center
	link, _ := l.Link(0, 2)
	tests := []struct {
		name  string
		evs   []PointerEvent
		want  HitKind
		check func(h Hit) bool
	}{
		{"node", stroke(false, node), HitNode, func(h Hit) bool { return h.Node == 3 }},
		{"node with jitter", stroke(false, node, node.Add(Pt(2, -2)), node.Add(Pt(3, 0))), HitNode, func(h Hit) bool { return h.Node == 3 }},
		{"finger jitter under touch slop", stroke(true, node, node.Add(Pt(8, 0))), HitNode, func(h Hit) bool { return h.Node == 3 }},
		{"link", stroke(false, link.Seg.At(0.5)), HitLink, func(h Hit) bool { return h.Link == LinkID{0, 2} }},
		{"empty cluster", stroke(false, Pt(l.Cluster.X+3, l.Cluster.Y+3)), HitCluster, func(Hit) bool { return true }},
		{"timeline", stroke(false, Pt(l.Timeline.X+l.Timeline.W/4, l.Timeline.Center().Y)), HitTimeline,
			func(h Hit) bool { return math.Abs(h.Frac-0.25) < 1e-9 }},
	}
	for _, tc := range tests {
		var g Recognizer
		gs := feedAll(&g, &l, nil, tc.evs)
		if len(gs) != 1 || gs[0].Kind != GestureTap || gs[0].Target.Kind != tc.want || !tc.check(gs[0].Target) {
			t.Errorf("%s: %+v, want one tap on %v", tc.name, gs, tc.want)
			continue
		}
		if gs[0].Pos != tc.evs[0].Pos || g.Active() {
			t.Errorf("%s: tap at %v (pressed at %v), active after release %v", tc.name, gs[0].Pos, tc.evs[0].Pos, g.Active())
		}
	}
	// A tap on a message hits the message as it was when pressed.
	var g Recognizer
	msgs := []MessageDot{{ID: 5, Pos: link.Seg.At(0.5)}}
	g.Feed(&l, msgs, PointerEvent{Action: PointerDown, Pos: msgs[0].Pos})
	got := g.Feed(&l, nil, PointerEvent{Action: PointerUp, Pos: msgs[0].Pos, Time: 50 * ms})
	if got.Kind != GestureTap || got.Target.Kind != HitMessage || got.Target.Msg != 5 {
		t.Errorf("message tap: %+v", got)
	}
}

func TestCutStroke(t *testing.T) {
	l := NewLayout(1280, 800, 3, true)
	c, R, r := l.Ring.C, l.Ring.R, l.NodeRadius
	left, right := Pt(l.Cluster.X+2, c.Y), Pt(l.Cluster.Right()-2, c.Y)
	tests := []struct {
		name string
		pts  []Point
		want []LinkID // nil: no gesture
	}{
		{"left to right", []Point{left, right}, []LinkID{{0, 2}, {0, 1}}},
		{"right to left", []Point{right, left}, []LinkID{{0, 1}, {0, 2}}},
		{"in small steps", path(left, right, 7), []LinkID{{0, 2}, {0, 1}}},
		{"down through the bottom link", []Point{Pt(c.X, c.Y-R+r+4), Pt(c.X, l.Cluster.Bottom()-2)}, []LinkID{{1, 2}}},
		{"back and forth counts each once", []Point{left, right, left, right}, []LinkID{{0, 2}, {0, 1}}},
		{"zigzag across two links", []Point{left, Pt(c.X, c.Y+R*0.2), Pt(c.X, c.Y+R), Pt(c.X-R, c.Y+R)},
			[]LinkID{{0, 2}, {1, 2}}},
		{"crossing nothing", []Point{Pt(l.Cluster.X+2, l.Cluster.Y+2), Pt(l.Cluster.X+60, l.Cluster.Y+2)}, nil},
		{"starting on a link", []Point{l.Links[1].Seg.At(0.5), right}, []LinkID{{0, 2}, {0, 1}}},
	}
	for _, tc := range tests {
		var g Recognizer
		gs := feedAll(&g, &l, nil, stroke(false, tc.pts...))
		if tc.want == nil {
			if len(gs) != 0 {
				t.Errorf("%s: %+v, want nothing", tc.name, gs)
			}
			continue
		}
		if len(gs) != 1 || gs[0].Kind != GestureCut || !reflect.DeepEqual(gs[0].Links, tc.want) {
			t.Errorf("%s: %+v, want cut %v", tc.name, gs, tc.want)
		}
	}
}

func TestCutStrokeProgress(t *testing.T) {
	l := NewLayout(1280, 800, 3, true)
	c := l.Ring.C
	left, mid, right := Pt(l.Cluster.X+2, c.Y), c, Pt(l.Cluster.Right()-2, c.Y)
	var g Recognizer
	g.Feed(&l, nil, PointerEvent{Action: PointerDown, Pos: left})
	if g.Stroke() != nil {
		t.Errorf("stroke before any move: %v", g.Stroke())
	}
	g.Feed(&l, nil, PointerEvent{Action: PointerMove, Pos: mid})
	if s := g.Stroke(); !reflect.DeepEqual(s, []Point{left, mid}) {
		t.Errorf("stroke = %v", s)
	}
	if x := g.Crossed(); !reflect.DeepEqual(x, []LinkID{{0, 2}}) {
		t.Errorf("crossed halfway = %v", x)
	}
	got := g.Feed(&l, nil, PointerEvent{Action: PointerUp, Pos: right})
	if got.Kind != GestureCut || len(got.Links) != 2 || g.Stroke() != nil || g.Crossed() != nil {
		t.Errorf("after release: %+v, stroke %v", got, g.Stroke())
	}
}

func TestNodeDrag(t *testing.T) {
	l := NewLayout(1280, 800, 5, true)
	top := l.Nodes[0].Center // node 0 is at the top: outward is up
	grab := Pt(5, 3)         // pressed a little off centre
	iso := math.Max(1.5*l.NodeRadius, 24)
	edge := l.Ring.C.Y - l.Ring.R // node 0's place on the ring
	tests := []struct {
		name  string
		to    Point // where the node's centre is dragged
		touch bool
		want  GestureKind
	}{
		{"far outside the ring", Pt(top.X, edge-iso-10), false, GestureIsolate},
		{"outside to the side", Pt(l.Ring.C.X-l.Ring.R-iso-5, l.Ring.C.Y), true, GestureIsolate},
		{"not far enough out", Pt(top.X, edge-iso+5), false, GestureDragCancel},
		{"into the middle", l.Ring.C, false, GestureDragCancel},
		{"a short drag is a click", top.Add(Pt(l.NodeRadius*0.6, 0)), false, GestureTap},
	}
	for _, tc := range tests {
		var g Recognizer
		gs := feedAll(&g, &l, nil, stroke(tc.touch, path(top.Add(grab), tc.to.Add(grab), 9)...))
		end := last(t, gs)
		if end.Kind != tc.want {
			t.Errorf("%s: ended with %+v, want %v", tc.name, end, tc.want)
			continue
		}
		for _, d := range gs[:len(gs)-1] {
			if d.Kind != GestureNodeDrag || d.Node != 0 {
				t.Errorf("%s: during the drag got %+v", tc.name, d)
			}
		}
		if len(gs) > 1 {
			final := gs[len(gs)-2]
			if final.Pos.Dist(tc.to) > 1e-9 || final.WouldIsolate != (tc.want == GestureIsolate) {
				t.Errorf("%s: last drag report %+v, want node at %v", tc.name, final, tc.to)
			}
		}
		switch tc.want {
		case GestureIsolate:
			if end.Node != 0 || end.Pos.Dist(tc.to) > 1e-9 {
				t.Errorf("%s: %+v", tc.name, end)
			}
		case GestureTap:
			if end.Target.Kind != HitNode || end.Target.Node != 0 {
				t.Errorf("%s: tap on %+v", tc.name, end.Target)
			}
		case GestureDragCancel:
			if end.Node != 0 {
				t.Errorf("%s: %+v", tc.name, end)
			}
		}
	}
	// While dragging, Dragged reports the node; a cancel puts it back.
	var g Recognizer
	g.Feed(&l, nil, PointerEvent{Action: PointerDown, Pos: top})
	g.Feed(&l, nil, PointerEvent{Action: PointerMove, Pos: top.Add(Pt(0, -50))})
	if n, p, ok := g.Dragged(); !ok || n != 0 || p != top.Add(Pt(0, -50)) {
		t.Errorf("Dragged = %d, %v, %v", n, p, ok)
	}
	if got := g.Feed(&l, nil, PointerEvent{Action: PointerCancel}); got.Kind != GestureDragCancel || got.Node != 0 || g.Active() {
		t.Errorf("cancel: %+v", got)
	}
	if _, _, ok := g.Dragged(); ok {
		t.Errorf("still dragging after cancel")
	}
	// A lone node has nothing to be cut off from.
	one := NewLayout(1280, 800, 1, true)
	c := one.Nodes[0].Center
	if end := last(t, feedAll(&g, &one, nil, stroke(false, path(c, Pt(c.X, 0), 10)...))); end.Kind != GestureDragCancel {
		t.Errorf("lone node: %+v", end)
	}
	// A configured threshold replaces the default.
	g = *NewRecognizer(GestureConfig{IsolateDistance: 200})
	if end := last(t, feedAll(&g, &l, nil, stroke(false, path(top, Pt(top.X, edge-iso-10), 9)...))); end.Kind != GestureDragCancel {
		t.Errorf("with a 200px threshold: %+v", end)
	}
}

func TestZoneDrag(t *testing.T) {
	l := ComputeLayout(LayoutOptions{Width: 1280, Height: 800, Nodes: 5, Zones: []int{0, 0, 1, 1, 1}, ZoneCount: 3})
	from := l.Nodes[0].Center
	tests := []struct {
		name     string
		to       Point
		want     GestureKind
		wantZone int
	}{
		{"into the empty zone", l.Zones[2].Body.Center(), GestureMoveZone, 2},
		{"into zone 1", l.Zones[1].Body.Center(), GestureMoveZone, 1},
		{"within its own zone", Pt(l.Zones[0].Body.X+l.NodeRadius+3, l.Zones[0].Body.Bottom()-l.NodeRadius-3), GestureDragCancel, -1},
		{"out of every zone", Pt(5, 5), GestureDragCancel, -1},
	}
	for _, tc := range tests {
		var g Recognizer
		gs := feedAll(&g, &l, nil, stroke(false, path(from, tc.to, 11)...))
		end := last(t, gs)
		if end.Kind != tc.want || end.Zone != tc.wantZone || end.Node != 0 {
			t.Errorf("%s: %+v, want %v to zone %d", tc.name, end, tc.want, tc.wantZone)
		}
		if pre := gs[len(gs)-2]; pre.Kind != GestureNodeDrag || pre.Zone != tc.wantZone || pre.WouldIsolate {
			t.Errorf("%s: drag report before release %+v", tc.name, pre)
		}
	}
}

func TestLongPress(t *testing.T) {
	l := NewLayout(390, 844, 5, true)
	node := l.Nodes[1].Center
	down := func(touch bool) PointerEvent {
		return PointerEvent{Action: PointerDown, Pos: node, Touch: touch}
	}
	up := func(at time.Duration, touch bool) PointerEvent {
		return PointerEvent{Action: PointerUp, Pos: node, Time: at, Touch: touch}
	}

	var g Recognizer
	g.Feed(&l, nil, down(true))
	if got := g.Tick(499 * ms); got.Kind != GestureNone {
		t.Errorf("menu too early: %+v", got)
	}
	got := g.Tick(500 * ms)
	if got.Kind != GestureMenu || got.Target.Kind != HitNode || got.Target.Node != 1 || got.Pos != node {
		t.Errorf("long press: %+v", got)
	}
	if got := g.Tick(900 * ms); got.Kind != GestureNone {
		t.Errorf("menu twice: %+v", got)
	}
	if got := g.Feed(&l, nil, up(time.Second, true)); got.Kind != GestureNone {
		t.Errorf("release after the menu: %+v", got)
	}

	// Released late without a Tick in between: still the menu, not a tap.
	g.Feed(&l, nil, down(true))
	if got := g.Feed(&l, nil, up(600*ms, true)); got.Kind != GestureMenu {
		t.Errorf("late release: %+v", got)
	}
	// A mouse held still is a click unless mouse long presses are on.
	g.Feed(&l, nil, down(false))
	g.Tick(2 * time.Second)
	if got := g.Feed(&l, nil, up(2*time.Second, false)); got.Kind != GestureTap {
		t.Errorf("long mouse press: %+v", got)
	}
	m := NewRecognizer(GestureConfig{MouseLongPress: true, LongPress: 300 * ms})
	m.Feed(&l, nil, down(false))
	if got := m.Tick(300 * ms); got.Kind != GestureMenu {
		t.Errorf("mouse long press when enabled: %+v", got)
	}
	// Moving away before the time is up starts a drag instead.
	g.Feed(&l, nil, down(true))
	if got := g.Feed(&l, nil, PointerEvent{Action: PointerMove, Pos: node.Add(Pt(0, 30)), Time: 200 * ms, Touch: true}); got.Kind != GestureNodeDrag {
		t.Errorf("early move: %+v", got)
	}
	if got := g.Tick(time.Second); got.Kind != GestureNone {
		t.Errorf("menu during a drag: %+v", got)
	}
	g.Reset()
	// A move out of the slop that the host reports late, with no Tick since
	// the press (a slow frame), is still a move: a drag, not the menu.
	g.Feed(&l, nil, down(true))
	if got := g.Feed(&l, nil, PointerEvent{Action: PointerMove, Pos: node.Add(Pt(0, 30)), Time: 800 * ms, Touch: true}); got.Kind != GestureNodeDrag {
		t.Errorf("late move out of the slop: %+v", got)
	}
	g.Reset()
	// A late move that stays inside the slop is a finger that rested: the menu.
	g.Feed(&l, nil, down(true))
	if got := g.Feed(&l, nil, PointerEvent{Action: PointerMove, Pos: node.Add(Pt(3, 4)), Time: 800 * ms, Touch: true}); got.Kind != GestureMenu || got.Target.Node != 1 {
		t.Errorf("late move inside the slop: %+v", got)
	}
	g.Reset()
	// A secondary click opens the menu at once.
	got = g.Feed(&l, nil, PointerEvent{Action: PointerDown, Pos: node, Secondary: true})
	if got.Kind != GestureMenu || got.Target.Node != 1 {
		t.Errorf("secondary click: %+v", got)
	}
	if got := g.Feed(&l, nil, up(10*ms, false)); got.Kind != GestureNone {
		t.Errorf("release after secondary click: %+v", got)
	}
}

func TestScrub(t *testing.T) {
	l := NewLayout(1280, 800, 5, true)
	s := l.Speed
	y := s.Center().Y
	var g Recognizer
	gs := feedAll(&g, &l, nil, stroke(false, Pt(s.X, y), Pt(s.X+s.W/2, y), Pt(s.Right()+50, y)))
	if len(gs) != 3 {
		t.Fatalf("scrub gave %+v", gs)
	}
	for i, want := range []float64{0.5, 1, 1} {
		if gs[i].Kind != GestureScrub || gs[i].Target.Kind != HitSpeed || math.Abs(gs[i].Target.Frac-want) > 1e-9 {
			t.Errorf("scrub %d: %+v, want frac %v", i, gs[i], want)
		}
	}
	tl := l.Timeline
	gs = feedAll(&g, &l, nil, stroke(true, Pt(tl.Right()-1, tl.Center().Y), Pt(tl.X+tl.W/4, tl.Center().Y)))
	if end := last(t, gs); end.Kind != GestureScrub || end.Target.Kind != HitTimeline || math.Abs(end.Target.Frac-0.25) > 1e-9 {
		t.Errorf("timeline scrub: %+v", end)
	}
}

func TestIgnoredPointers(t *testing.T) {
	l := NewLayout(1280, 800, 3, true)
	btn := l.Buttons[0].Rect.Center()
	var g Recognizer
	// Pressing a button and sliding off it does nothing.
	if gs := feedAll(&g, &l, nil, stroke(false, btn, btn.Add(Pt(0, 300)))); len(gs) != 0 {
		t.Errorf("slide off a button: %+v", gs)
	}
	// Moves and releases with nothing pressed do nothing.
	for _, a := range []PointerAction{PointerMove, PointerUp, PointerCancel} {
		if got := g.Feed(&l, nil, PointerEvent{Action: a, Pos: btn}); got.Kind != GestureNone || g.Active() {
			t.Errorf("%v with nothing pressed: %+v", a, got)
		}
	}
	// A second finger does not disturb the first finger's drag.
	top := l.Nodes[0].Center
	g.Feed(&l, nil, PointerEvent{Action: PointerDown, ID: 1, Pos: top, Touch: true})
	g.Feed(&l, nil, PointerEvent{Action: PointerDown, ID: 2, Pos: btn, Touch: true})
	g.Feed(&l, nil, PointerEvent{Action: PointerMove, ID: 2, Pos: Pt(0, 0), Touch: true})
	if got := g.Feed(&l, nil, PointerEvent{Action: PointerUp, ID: 2, Pos: btn, Touch: true}); got.Kind != GestureNone {
		t.Errorf("second finger produced %+v", got)
	}
	g.Feed(&l, nil, PointerEvent{Action: PointerMove, ID: 1, Pos: top.Add(Pt(0, -20)), Touch: true})
	if got := g.Feed(&l, nil, PointerEvent{Action: PointerUp, ID: 1, Pos: Pt(top.X, 0), Touch: true}); got.Kind != GestureIsolate || got.Node != 0 {
		t.Errorf("first finger's drag: %+v", got)
	}
	// The same movement is a tap for a finger and a cut attempt for a mouse.
	empty := Pt(l.Cluster.X+20, l.Cluster.Y+20)
	if got := last(t, feedAll(&g, &l, nil, stroke(true, empty, empty.Add(Pt(7, 0))))); got.Kind != GestureTap {
		t.Errorf("finger: %+v", got)
	}
	if gs := feedAll(&g, &l, nil, stroke(false, empty, empty.Add(Pt(7, 0)))); len(gs) != 0 {
		t.Errorf("mouse: %+v", gs)
	}
}

func TestGestureKindString(t *testing.T) {
	if GestureCut.String() != "cut" || GestureScrub.String() != "scrub" || GestureKind(-1).String() != "?" {
		t.Errorf("names: %v %v", GestureCut, GestureScrub)
	}
}

// FuzzGestures feeds arbitrary event sequences and checks that whatever
// comes out names real nodes, zones and links.
func FuzzGestures(f *testing.F) {
	f.Add([]byte{0, 100, 100, 1, 120, 90, 2, 200, 40}, false)
	f.Add([]byte{0, 10, 200, 1, 250, 200, 1, 250, 10, 2, 5, 5, 3, 0, 0}, true)
	f.Fuzz(func(t *testing.T, data []byte, zones bool) {
		o := LayoutOptions{Width: 640, Height: 400, Nodes: 5}
		if zones {
			o.Zones = []int{0, 1, 2, 0, 1}
		}
		l := ComputeLayout(o)
		g := NewRecognizer(GestureConfig{MouseLongPress: true})
		msgs := []MessageDot{{ID: 1, Pos: l.Ring.C}}
		var now time.Duration
		for i := 0; i+2 < len(data); i += 3 {
			now += time.Duration(data[i]>>2) * 10 * ms
			ev := PointerEvent{
				Action: PointerAction(data[i] % 4), ID: int(data[i]>>6) % 2, Time: now,
				Pos: Pt(float64(data[i+1])*640/255, float64(data[i+2])*400/255), Touch: data[i]&32 != 0,
			}
			for _, gs := range []Gesture{g.Feed(&l, msgs, ev), g.Tick(now)} {
				checkGesture(t, &l, gs)
			}
			if ev.Action == PointerUp && ev.ID == g.id && g.Active() {
				t.Fatalf("still active after release")
			}
		}
	})
}

func checkGesture(t *testing.T, l *Layout, gs Gesture) {
	t.Helper()
	n := len(l.Nodes)
	switch gs.Kind {
	case GestureCut:
		seen := map[LinkID]bool{}
		for _, id := range gs.Links {
			if _, ok := l.Link(id.I, id.J); !ok || id.I >= id.J || seen[id] {
				t.Fatalf("cut names bad or repeated link %v in %v", id, gs.Links)
			}
			seen[id] = true
		}
		if len(gs.Links) == 0 {
			t.Fatalf("cut of no links")
		}
	case GestureNodeDrag, GestureIsolate, GestureMoveZone, GestureDragCancel:
		if gs.Node < 0 || gs.Node >= n {
			t.Fatalf("%v of node %d", gs.Kind, gs.Node)
		}
		if gs.Kind == GestureMoveZone && (gs.Zone < 0 || gs.Zone >= len(l.Zones) || gs.Zone == l.Nodes[gs.Node].Zone) {
			t.Fatalf("move of node %d to zone %d", gs.Node, gs.Zone)
		}
		if gs.Kind == GestureIsolate && len(l.Zones) > 0 {
			t.Fatalf("isolate in a zone layout")
		}
	case GestureTap, GestureMenu:
		if gs.Target.Kind == HitNode && (gs.Target.Node < 0 || gs.Target.Node >= n) {
			t.Fatalf("tap on node %d", gs.Target.Node)
		}
	case GestureScrub:
		if (gs.Target.Kind != HitSpeed && gs.Target.Kind != HitTimeline) || gs.Target.Frac < 0 || gs.Target.Frac > 1 {
			t.Fatalf("scrub %+v", gs.Target)
		}
	}
}

func TestGestureConfig(t *testing.T) {
	l := NewLayout(1280, 800, 5, true)
	node := l.Nodes[2].Center
	// A 20px mouse slop turns a 15px wobble into a tap.
	g := NewRecognizer(GestureConfig{TapSlop: 20})
	if got := last(t, feedAll(g, &l, nil, stroke(false, node, node.Add(Pt(15, 0))))); got.Kind != GestureTap {
		t.Errorf("custom mouse slop: %+v", got)
	}
	// A 2px finger slop makes a 5px wobble a drag, and a 3px click-drag
	// limit makes its release a cancel rather than a click.
	g = NewRecognizer(GestureConfig{TouchTapSlop: 2, ClickDrag: 3})
	gs := feedAll(g, &l, nil, stroke(true, node, node.Add(Pt(5, 0))))
	if len(gs) != 2 || gs[0].Kind != GestureNodeDrag || gs[1].Kind != GestureDragCancel {
		t.Errorf("custom touch slop and click drag: %+v", gs)
	}
	// Slack set by hand widens nodes for a mouse too.
	r := l.NodeRadius
	if h := l.HitTest(node.Add(Pt(r+3, 0)), nil, HitOptions{Slack: 4}); h.Kind != HitNode || h.Node != 2 {
		t.Errorf("custom slack: %+v", h)
	}
}

// swipeLayouts are the canvases a swipe is tested on: a desktop window, a
// phone, a book figure at column width and on a phone.
var swipeLayouts = [][2]float64{{1280, 800}, {390, 844}, {720, 450}, {350, 560}}

// crossedBy is every link whose segment the polyline pts crosses, each once.
func crossedBy(l *Layout, pts []Point) map[LinkID]bool {
	out := map[LinkID]bool{}
	for i := 1; i < len(pts); i++ {
		for _, lk := range l.Links {
			if _, ok := SegmentIntersection(pts[i-1], pts[i], lk.Seg.A, lk.Seg.B); ok {
				out[lk.LinkID] = true
			}
		}
	}
	return out
}

// swipe is a finger's stroke from a to b: a first step of 16 px out of the
// tap slop, then steps of at most 6 px.
func swipe(a, b Point) []Point {
	first := a.Add(b.Sub(a).Mul(math.Min(16/a.Dist(b), 1)))
	return append([]Point{a}, path(first, b, 6)...)
}

// requireCut feeds a finger's stroke through pts, with a message dot under
// its start, and checks that it cuts exactly the links it crosses.
func requireCut(t *testing.T, l *Layout, what string, pts []Point, must ...LinkID) {
	t.Helper()
	want := crossedBy(l, pts)
	for _, id := range must {
		if !want[id] {
			t.Fatalf("%s: the stroke %v does not cross %v; the test is wrong", what, pts, id)
		}
	}
	msgs := []MessageDot{{ID: 7, Pos: pts[0]}}
	var g Recognizer
	gs := feedAll(&g, l, msgs, stroke(true, pts...))
	got := map[LinkID]bool{}
	if len(gs) == 1 && gs[0].Kind == GestureCut {
		for _, id := range gs[0].Links {
			got[id] = true
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: stroke %v → %v gave %+v, want a cut of %v", what, pts[0], pts[len(pts)-1], gs, want)
	}
}

// TestSwipeCutsEveryLinkItCrosses swipes a finger across every link of rings
// of 3, 5, 7 and 9 machines, through every point where two links cross, and
// down from the toolbar across the links at the top of the ring. Each
// stroke starts on a message dot, as one near the leader often does.
func TestSwipeCutsEveryLinkItCrosses(t *testing.T) {
	touch := HitOptions{Touch: true}
	for _, sz := range swipeLayouts {
		for _, n := range []int{3, 5, 7, 9} {
			l := NewLayout(sz[0], sz[1], n, true)
			name := func(s string, args ...any) string {
				return fmt.Sprintf("%vx%v, %d machines: ", sz[0], sz[1], n) + fmt.Sprintf(s, args...)
			}
			// clear: a finger pressed at p neither drags a machine nor
			// presses a control, and p is on the stage.
			clear := func(p Point) bool {
				h := l.HitTest(p, nil, touch)
				return l.Cluster.Contains(p) && (h.Kind == HitCluster || h.Kind == HitLink)
			}
			for _, lk := range l.Links {
				d := lk.Seg.B.Sub(lk.Seg.A)
				across := Pt(-d.Y, d.X).Mul(1 / d.Len())
				done := false
				for _, f := range []float64{0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8} {
					for _, side := range []float64{1, -1} {
						mid := lk.Seg.At(f)
						from, to := mid.Add(across.Mul(-24*side)), mid.Add(across.Mul(24*side))
						if done || !clear(from) {
							continue
						}
						requireCut(t, &l, name("across %v", lk.LinkID), swipe(from, to), lk.LinkID)
						done = true
					}
				}
				if !done {
					t.Errorf("%s", name("no place to start a swipe across %v", lk.LinkID))
				}
			}
			// Where two links cross, a swipe through the crossing cuts both.
			for i, a := range l.Links {
				for _, b := range l.Links[i+1:] {
					if a.I == b.I || a.I == b.J || a.J == b.I || a.J == b.J {
						continue
					}
					u, ok := SegmentIntersection(a.Seg.A, a.Seg.B, b.Seg.A, b.Seg.B)
					if !ok {
						continue
					}
					x := a.Seg.At(u)
					// Along the bisector of the two links, so it crosses both
					// at a good angle.
					da, db := a.Seg.B.Sub(a.Seg.A), b.Seg.B.Sub(b.Seg.A)
					da, db = da.Mul(1/da.Len()), db.Mul(1/db.Len())
					if da.Dot(db) < 0 {
						db = db.Mul(-1)
					}
					dir := Pt(-(da.Y + db.Y), da.X+db.X)
					dir = dir.Mul(1 / dir.Len())
					done := false
					for _, r := range []float64{24, 18, 30, 14, -24, -18, -30, -14} {
						from, to := x.Sub(dir.Mul(r)), x.Add(dir.Mul(r))
						if !done && clear(from) {
							requireCut(t, &l, name("through the crossing of %v and %v", a.LinkID, b.LinkID), swipe(from, to), a.LinkID, b.LinkID)
							done = true
						}
					}
					if !done {
						t.Errorf("%s", name("no place to start a swipe through the crossing of %v and %v", a.LinkID, b.LinkID))
					}
				}
			}
			// Down from the bare toolbar across the links that leave the
			// top machine, on both sides of it.
			top := l.Nodes[0].Center
			for _, dx := range []float64{-1, 1} {
				x := top.X + dx*(l.NodeRadius+14)
				from := Pt(x, l.Toolbar.Bottom()-3)
				if h := l.HitTest(from, nil, touch); h.Kind != HitToolbar {
					continue
				}
				requireCut(t, &l, name("down from the toolbar at x=%.0f", x), swipe(from, Pt(x, top.Y+2*l.NodeRadius+20)))
			}
		}
	}
}

// TestCutStrokeCrossesWorkerLinks: a stroke across the links between the
// nodes and the worker machines, under the nodes, cuts those it crosses.
func TestCutStrokeCrossesWorkerLinks(t *testing.T) {
	l := ComputeLayout(LayoutOptions{Width: 1280, Height: 800, Nodes: 3, Panels: true, Workers: 3})
	if len(l.WorkerLinks) != 9 {
		t.Fatalf("%d worker links, want 9", len(l.WorkerLinks))
	}
	y := l.Cluster.Bottom() - 2
	var g Recognizer
	gs := feedAll(&g, &l, nil, stroke(false, Pt(l.Cluster.X+2, y), Pt(l.Cluster.Center().X, y), Pt(l.Cluster.Right()-2, y)))
	got := last(t, gs)
	if got.Kind != GestureCut {
		t.Fatalf("%+v, want a cut", got)
	}
	workers := 0
	for _, id := range got.Links {
		if id.J >= len(l.Nodes) {
			workers++
		}
	}
	if workers != 9 {
		t.Errorf("the stroke cut %v, want every one of the 9 worker links", got.Links)
	}
}
