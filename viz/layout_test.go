package viz

import (
	"fmt"
	"math"
	"testing"
)

const eps = 1e-6

var testSizes = []struct{ w, h float64 }{
	{390, 844}, {768, 1024}, {1280, 800}, {1920, 1080},
}

func inside(r, outer Rect) bool {
	return r.X >= outer.X-eps && r.Y >= outer.Y-eps &&
		r.Right() <= outer.Right()+eps && r.Bottom() <= outer.Bottom()+eps
}

func overlap(a, b Rect) bool { return a.Inset(eps).Overlaps(b.Inset(eps)) }

type namedRect struct {
	name string
	r    Rect
}

// regions returns the top-level regions of l that must not overlap.
func regions(l Layout) []namedRect {
	rs := []namedRect{{"toolbar", l.Toolbar}, {"timeline", l.Timeline}, {"cluster", l.Cluster}, {"logs", l.Logs}}
	for _, p := range l.Panels {
		if p.Visible {
			rs = append(rs, namedRect{"panel " + p.Kind.Title(), p.Rect})
		}
	}
	for _, t := range l.Tabs {
		rs = append(rs, namedRect{"tab " + t.Kind.Title(), t.Rect})
	}
	return rs
}

func noOverlaps(rs []namedRect) []string {
	var errs []string
	for i := range rs {
		for j := i + 1; j < len(rs); j++ {
			if overlap(rs[i].r, rs[j].r) {
				errs = append(errs, fmt.Sprintf("%s %v overlaps %s %v", rs[i].name, rs[i].r, rs[j].name, rs[j].r))
			}
		}
	}
	return errs
}

// checkLayout returns every broken promise of a layout made for n nodes.
func checkLayout(l Layout, n int, panels bool) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }

	if len(l.Nodes) != n || len(l.Links) != n*(n-1)/2 || len(l.Panels) != int(NumPanels) {
		bad("%d nodes, %d links, %d panels", len(l.Nodes), len(l.Links), len(l.Panels))
		return errs
	}
	top := regions(l)
	for _, nr := range top {
		if !inside(nr.r, l.Canvas) {
			bad("%s %v is outside the canvas %v", nr.name, nr.r, l.Canvas)
		}
	}
	errs = append(errs, noOverlaps(top)...)

	bar := []namedRect{{"speed", l.Speed}}
	for _, b := range l.Buttons {
		bar = append(bar, namedRect{"button " + b.Cmd.String(), b.Rect})
	}
	for _, nr := range bar {
		if !inside(nr.r, l.Toolbar) {
			bad("%s %v is outside the toolbar %v", nr.name, nr.r, l.Toolbar)
		}
	}
	errs = append(errs, noOverlaps(bar)...)

	r := l.NodeRadius
	if r < 0 || math.IsNaN(r) {
		bad("node radius %v", r)
	}
	var rows []namedRect
	for i, nd := range l.Nodes {
		if nd.Index != i {
			bad("node %d has index %d", i, nd.Index)
		}
		if !l.Cluster.Inset(-eps).ContainsCircle(l.NodeCircle(i)) {
			bad("node %d disc %v is outside the cluster %v", i, l.NodeCircle(i), l.Cluster)
		}
		for j := i + 1; j < n; j++ {
			if d := nd.Center.Dist(l.Nodes[j].Center); d < 2*r-eps {
				bad("nodes %d and %d overlap: centres %v apart, radius %v", i, j, d, r)
			}
		}
		lb := nd.Label
		for _, c := range []Point{{lb.X, lb.Y}, {lb.Right(), lb.Y}, {lb.X, lb.Bottom()}, {lb.Right(), lb.Bottom()}} {
			if c.Dist(nd.Center) > r+eps {
				bad("node %d label %v sticks out of its disc", i, lb)
			}
		}
		for _, part := range []Rect{nd.LogLabel, nd.LogStrip} {
			if !inside(part, l.Logs) {
				bad("node %d log row part %v is outside the logs %v", i, part, l.Logs)
			}
		}
		if overlap(nd.LogLabel, nd.LogStrip) {
			bad("node %d log label overlaps its strip", i)
		}
		rows = append(rows, namedRect{fmt.Sprintf("log row %d", i), Rect{nd.LogLabel.X, nd.LogLabel.Y, nd.LogStrip.Right() - nd.LogLabel.X, nd.LogStrip.H}})
		if (l.Zones == nil) != (nd.Zone == -1) {
			bad("node %d zone %d in a layout with %d zones", i, nd.Zone, len(l.Zones))
		}
	}
	errs = append(errs, noOverlaps(rows)...)

	errs = append(errs, checkLinks(l)...)

	visible := 0
	for k, p := range l.Panels {
		if p.Kind != PanelKind(k) {
			bad("panel %d has kind %v", k, p.Kind)
		}
		if p.Visible {
			visible++
			if p.Rect.Empty() && !l.Canvas.Empty() && panels && l.Canvas.W > 300 && l.Canvas.H > 300 {
				bad("visible panel %v is empty", p.Kind)
			}
		} else if p.Rect != (Rect{}) {
			bad("hidden panel %v has a place %v", p.Kind, p.Rect)
		}
	}
	switch {
	case !panels:
		if visible != 0 || len(l.Tabs) != 0 || l.Tabbed {
			bad("panels off, yet %d visible and %d tabs", visible, len(l.Tabs))
		}
	case l.Tabbed:
		if visible != 1 || !l.Panels[l.ActivePanel].Visible {
			bad("tabbed with %d visible panels, active %v", visible, l.ActivePanel)
		}
		if len(l.Tabs) != int(NumPanels) {
			bad("%d tabs", len(l.Tabs))
		}
		for k, t := range l.Tabs {
			if t.Kind != PanelKind(k) || t.Active != (t.Kind == l.ActivePanel) {
				bad("tab %d is %+v with active panel %v", k, t, l.ActivePanel)
			}
		}
	default:
		if visible != int(NumPanels) || len(l.Tabs) != 0 {
			bad("stacked column shows %d panels and %d tabs", visible, len(l.Tabs))
		}
	}
	if panels {
		for _, p := range l.Panels {
			if !p.Visible {
				continue
			}
			if l.Orientation == Landscape && p.Rect.X < math.Max(l.Cluster.Right(), l.Logs.Right())-eps {
				bad("landscape panel %v is not right of the cluster", p.Kind)
			}
			if l.Orientation == Portrait && p.Rect.Y < math.Max(l.Cluster.Bottom(), l.Logs.Bottom())-eps {
				bad("portrait panel %v is not below the cluster", p.Kind)
			}
		}
	}

	var zs []namedRect
	for z, zn := range l.Zones {
		if zn.Index != z || !inside(zn.Rect, l.Cluster) || !inside(zn.Label, zn.Rect) ||
			!inside(zn.Body, zn.Rect) || overlap(zn.Label, zn.Body) {
			bad("zone %d badly placed: %+v in cluster %v", z, zn, l.Cluster)
		}
		zs = append(zs, namedRect{zn.Name, zn.Rect})
	}
	errs = append(errs, noOverlaps(zs)...)
	for i, nd := range l.Nodes {
		if l.Zones != nil && !zoneHolds(l, nd.Zone, l.NodeCircle(i)) {
			bad("node %d is not inside zone %d's body", i, nd.Zone)
		}
	}
	return errs
}

func zoneHolds(l Layout, z int, c Circle) bool {
	return z >= 0 && z < len(l.Zones) && l.Zones[z].Body.Inset(-eps).ContainsCircle(c)
}

// checkLinks checks that every pair has a link whose segment and lanes end
// on the two discs' edges, with the lanes on either side of the segment and
// running in their own directions.
func checkLinks(l Layout) []string {
	var errs []string
	r := l.NodeRadius
	onEdge := func(p Point, i int) bool { return math.Abs(p.Dist(l.Nodes[i].Center)-r) <= 1e-6*(1+r) }
	k := 0
	for i := range l.Nodes {
		for j := i + 1; j < len(l.Nodes); j++ {
			lk := l.Links[k]
			if lk.LinkID != (LinkID{i, j}) || l.LinkIndex(i, j) != k || l.LinkIndex(j, i) != k {
				errs = append(errs, fmt.Sprintf("link %d is %v", k, lk.LinkID))
			}
			k++
			ci, cj := l.Nodes[i].Center, l.Nodes[j].Center
			if ci.Dist(cj) == 0 {
				continue
			}
			l0, l1 := lk.Lanes[0], lk.Lanes[1]
			if !onEdge(lk.Seg.A, i) || !onEdge(lk.Seg.B, j) || !onEdge(l0.A, i) || !onEdge(l0.B, j) ||
				!onEdge(l1.A, j) || !onEdge(l1.B, i) {
				errs = append(errs, fmt.Sprintf("link %v does not end on the discs' edges: %+v", lk.LinkID, lk))
			}
			dir := cj.Sub(ci)
			if l0.B.Sub(l0.A).Dot(dir) <= 0 || l1.B.Sub(l1.A).Dot(dir) >= 0 {
				errs = append(errs, fmt.Sprintf("link %v lanes run the wrong way", lk.LinkID))
			}
			// Screen right of travel: positive cross product with Y down.
			if r > 0 && (dir.Cross(l0.A.Sub(lk.Seg.A)) <= 0 || dir.Mul(-1).Cross(l1.A.Sub(lk.Seg.B)) <= 0) {
				errs = append(errs, fmt.Sprintf("link %v lanes are not to the right of travel", lk.LinkID))
			}
			if lk.Lane(i, j) != l0 || lk.Lane(j, i) != l1 {
				errs = append(errs, fmt.Sprintf("link %v Lane() picks the wrong lane", lk.LinkID))
			}
		}
	}
	return errs
}

func TestLayoutSizes(t *testing.T) {
	for _, sz := range testSizes {
		for n := 1; n <= MaxNodes; n++ {
			for _, panels := range []bool{true, false} {
				name := fmt.Sprintf("%vx%v/n=%d/panels=%v", sz.w, sz.h, n, panels)
				t.Run(name, func(t *testing.T) {
					l := NewLayout(sz.w, sz.h, n, panels)
					for _, e := range checkLayout(l, n, panels) {
						t.Error(e)
					}
					// Readable on every supported screen.
					if l.NodeRadius < 16 || l.LabelSize < 10 || 2*0.6*l.LabelSize > l.Nodes[0].Label.W {
						t.Errorf("node radius %v, label size %v, label box %v", l.NodeRadius, l.LabelSize, l.Nodes[0].Label.W)
					}
					for _, b := range l.Buttons {
						if b.Rect.W < 32 || b.Rect.H < 32 {
							t.Errorf("button %v is only %vx%v", b.Cmd, b.Rect.W, b.Rect.H)
						}
					}
					if l.Speed.W < minSlider || l.Speed.H < 24 {
						t.Errorf("speed slider is only %v wide", l.Speed.W)
					}
					if h := l.Nodes[0].LogStrip.H; h < 12 {
						t.Errorf("log rows are only %v high", h)
					}
					for _, p := range l.Panels {
						if p.Visible && (p.Rect.H < 100 || p.Rect.W < 200) {
							t.Errorf("panel %v is only %vx%v", p.Kind, p.Rect.W, p.Rect.H)
						}
					}
				})
			}
		}
	}
}

func TestLayoutOrientation(t *testing.T) {
	tests := []struct {
		w, h   float64
		orient Orientation
		tabbed bool
	}{
		{390, 844, Portrait, true},
		{768, 1024, Portrait, true},
		{1280, 800, Landscape, false},
		{1920, 1080, Landscape, false},
		{844, 390, Landscape, true},   // phone on its side: column too short to stack
		{600, 500, Portrait, true},    // wide but too narrow for a column
		{1024, 768, Landscape, false}, // tablet on its side
	}
	for _, tc := range tests {
		l := NewLayout(tc.w, tc.h, 5, true)
		if l.Orientation != tc.orient || l.Tabbed != tc.tabbed {
			t.Errorf("%vx%v: %v tabbed=%v, want %v tabbed=%v", tc.w, tc.h, l.Orientation, l.Tabbed, tc.orient, tc.tabbed)
		}
		for _, e := range checkLayout(l, 5, true) {
			t.Errorf("%vx%v: %s", tc.w, tc.h, e)
		}
	}
}

func TestLayoutTabs(t *testing.T) {
	for _, k := range PanelKinds() {
		l := ComputeLayout(LayoutOptions{Width: 390, Height: 844, Nodes: 5, Panels: true, Active: k})
		if l.ActivePanel != k {
			t.Errorf("active panel %v, want %v", l.ActivePanel, k)
		}
		r, ok := l.Panel(k)
		if !ok || r.Empty() {
			t.Errorf("active panel %v not visible: %v", k, r)
		}
		for _, other := range PanelKinds() {
			if _, ok := l.Panel(other); ok != (other == k) {
				t.Errorf("with %v active, panel %v visible=%v", k, other, ok)
			}
		}
		// Every tab sits in one strip above the panel.
		for _, tb := range l.Tabs {
			if tb.Rect.Y != l.Tabs[0].Rect.Y || tb.Rect.Bottom() > r.Y+eps || tb.Rect.H < 32 {
				t.Errorf("tab %v at %v is not in a strip above the panel %v", tb.Kind, tb.Rect, r)
			}
		}
	}
	// An out-of-range active panel falls back to the first.
	l := ComputeLayout(LayoutOptions{Width: 390, Height: 844, Nodes: 3, Panels: true, Active: 42})
	if l.ActivePanel != PanelScenario || !l.Panels[PanelScenario].Visible {
		t.Errorf("bad Active gave %v", l.ActivePanel)
	}
	if _, ok := l.Panel(-1); ok {
		t.Errorf("Panel(-1) is visible")
	}
}

func TestLayoutPanelsOffGivesClusterMoreRoom(t *testing.T) {
	for _, sz := range testSizes {
		with, without := NewLayout(sz.w, sz.h, 5, true), NewLayout(sz.w, sz.h, 5, false)
		area := func(r Rect) float64 { return r.W * r.H }
		if area(without.Cluster) <= area(with.Cluster) || without.Ring.R+without.NodeRadius < with.Ring.R+with.NodeRadius {
			t.Errorf("%vx%v: cluster without panels %v (ring %v) is not larger than with %v (ring %v)", sz.w, sz.h,
				without.Cluster, without.Ring.R, with.Cluster, with.Ring.R)
		}
	}
}

func TestLayoutRingOrder(t *testing.T) {
	for n := 2; n <= MaxNodes; n++ {
		l := NewLayout(1280, 800, n, true)
		c := l.Ring.C
		top := l.Nodes[0].Center
		if math.Abs(top.X-c.X) > eps || math.Abs(top.Y-(c.Y-l.Ring.R)) > eps {
			t.Errorf("n=%d: node 0 at %v, want top of ring %v", n, top, l.Ring)
		}
		prev := -math.Pi
		for i, nd := range l.Nodes {
			if d := nd.Center.Dist(c); math.Abs(d-l.Ring.R) > eps {
				t.Errorf("n=%d: node %d is %v from the centre, ring radius %v", n, i, d, l.Ring.R)
			}
			// Clockwise on screen: the angle (Y down) grows from the top.
			a := math.Atan2(nd.Center.Y-c.Y, nd.Center.X-c.X)
			if a < -math.Pi/2-eps {
				a += 2 * math.Pi
			}
			if a <= prev {
				t.Errorf("n=%d: node %d at angle %v after %v: not clockwise", n, i, a, prev)
			}
			prev = a
		}
		if n >= 3 && l.Nodes[1].Center.X <= c.X {
			t.Errorf("n=%d: node 1 is left of the top node", n)
		}
	}
	// One node stands in the middle, a little above the centre to leave
	// room for its words.
	l := NewLayout(1280, 800, 1, true)
	c := l.Cluster.Center()
	if nd := l.Nodes[0]; math.Abs(nd.Center.X-c.X) > eps || nd.Center.Y > c.Y || math.Abs((nd.Center.Y-l.NodeRadius+nd.Caption.Bottom())/2-c.Y) > eps ||
		l.Ring.R != 0 || len(l.Links) != 0 {
		t.Errorf("one node is not alone in the middle of %v: %+v", l.Cluster, l.Nodes[0])
	}
}

func TestLayoutClampsInput(t *testing.T) {
	tests := []struct {
		n, want int
	}{{0, 1}, {-4, 1}, {1, 1}, {9, 9}, {12, 9}}
	for _, tc := range tests {
		if l := NewLayout(1280, 800, tc.n, true); len(l.Nodes) != tc.want {
			t.Errorf("n=%d gave %d nodes, want %d", tc.n, len(l.Nodes), tc.want)
		}
	}
	for _, sz := range [][2]float64{{0, 0}, {math.NaN(), 500}, {-10, -10}, {math.Inf(1), 300}, {30, 20}, {5000, 40}} {
		l := NewLayout(sz[0], sz[1], 5, true)
		if hasNaN(l) {
			t.Errorf("%v: layout has NaN", sz)
		}
		for _, e := range checkLayout(l, 5, true) {
			t.Errorf("%v: %s", sz, e)
		}
	}
}

func hasNaN(l Layout) bool {
	var fs []float64
	add := func(rs ...Rect) {
		for _, r := range rs {
			fs = append(fs, r.X, r.Y, r.W, r.H)
		}
	}
	add(l.Canvas, l.Toolbar, l.Speed, l.Timeline, l.Cluster, l.Logs)
	fs = append(fs, l.Ring.C.X, l.Ring.C.Y, l.Ring.R, l.NodeRadius, l.LabelSize, l.MessageRadius)
	for _, b := range l.Buttons {
		add(b.Rect)
	}
	for _, nd := range l.Nodes {
		add(nd.Label, nd.LogLabel, nd.LogStrip)
		fs = append(fs, nd.Center.X, nd.Center.Y)
	}
	for _, lk := range l.Links {
		for _, s := range []Segment{lk.Seg, lk.Lanes[0], lk.Lanes[1]} {
			fs = append(fs, s.A.X, s.A.Y, s.B.X, s.B.Y)
		}
	}
	for _, p := range l.Panels {
		add(p.Rect)
	}
	for _, tb := range l.Tabs {
		add(tb.Rect)
	}
	for _, z := range l.Zones {
		add(z.Rect, z.Label, z.Body)
	}
	for _, f := range fs {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return true
		}
	}
	return false
}

func TestLayoutToolbar(t *testing.T) {
	wide := NewLayout(1280, 800, 5, true)
	narrow := NewLayout(390, 844, 5, true)
	if len(wide.Buttons) != len(DefaultToolbar()) {
		t.Fatalf("%d buttons", len(wide.Buttons))
	}
	// Wide: one row, slider to the right of the buttons.
	last := wide.Buttons[len(wide.Buttons)-1].Rect
	if wide.Speed.X < last.Right() || wide.Speed.Y != wide.Buttons[0].Rect.Y {
		t.Errorf("wide slider %v not beside the buttons (last %v)", wide.Speed, last)
	}
	// Narrow: the slider gets a row of its own below the buttons.
	if narrow.Speed.Y < narrow.Buttons[0].Rect.Bottom() || narrow.Speed.W < 300 {
		t.Errorf("narrow slider %v not in its own row", narrow.Speed)
	}
	for i := 1; i < len(wide.Buttons); i++ {
		if wide.Buttons[i].Rect.X <= wide.Buttons[i-1].Rect.X {
			t.Errorf("buttons are not left to right")
		}
		if wide.Buttons[i].Cmd != DefaultToolbar()[i] {
			t.Errorf("button %d is %v", i, wide.Buttons[i].Cmd)
		}
	}
	custom := ComputeLayout(LayoutOptions{Width: 1280, Height: 800, Nodes: 3, Buttons: []Command{CmdHelp}})
	if len(custom.Buttons) != 1 || custom.Buttons[0].Cmd != CmdHelp {
		t.Errorf("custom toolbar: %+v", custom.Buttons)
	}
	empty := ComputeLayout(LayoutOptions{Width: 1280, Height: 800, Nodes: 3, Buttons: []Command{}})
	if len(empty.Buttons) != 0 || empty.Speed.W < minSlider {
		t.Errorf("empty toolbar: %+v, speed %v", empty.Buttons, empty.Speed)
	}
}

func TestLayoutLogsBesideOrBelow(t *testing.T) {
	// A wide stage puts the logs beside the ring, a narrow one below it.
	wide := NewLayout(1920, 1080, 9, true)
	if wide.Logs.X < wide.Cluster.Right() {
		t.Errorf("1920x1080: logs %v not beside the cluster %v", wide.Logs, wide.Cluster)
	}
	phone := NewLayout(390, 844, 9, true)
	if phone.Logs.Y < phone.Cluster.Bottom() {
		t.Errorf("390x844: logs %v not below the cluster %v", phone.Logs, phone.Cluster)
	}
	for i := 1; i < 9; i++ {
		if phone.Nodes[i].LogStrip.Y <= phone.Nodes[i-1].LogStrip.Y {
			t.Errorf("log rows are not in node order")
		}
	}
}

func TestZoneLayout(t *testing.T) {
	tests := []struct {
		name   string
		zones  []int
		count  int
		wantK  int
		inZone map[int]int
	}{
		{"three zones", []int{0, 0, 1, 1, 2}, 0, 3, map[int]int{0: 0, 1: 0, 2: 1, 3: 1, 4: 2}},
		{"two zones", []int{0, 1, 0, 1, 0}, 0, 2, map[int]int{4: 0, 3: 1}},
		{"empty third zone", []int{0, 0, 1, 1, 1}, 3, 3, map[int]int{2: 1}},
		{"all in one", []int{0, 0, 0, 0, 0}, 0, 1, map[int]int{3: 0}},
		{"clamped values", []int{-2, 7, 1, 0, 2}, 0, 3, map[int]int{0: 0, 1: 2}},
		{"short slice", []int{2}, 0, 3, map[int]int{0: 2, 4: 0}},
		{"count too high", []int{0, 1, 0, 1, 0}, 9, 3, map[int]int{1: 1}},
	}
	for _, tc := range tests {
		for _, sz := range testSizes {
			for _, panels := range []bool{true, false} {
				l := ComputeLayout(LayoutOptions{Width: sz.w, Height: sz.h, Nodes: 5, Panels: panels, Zones: tc.zones, ZoneCount: tc.count})
				where := fmt.Sprintf("%s %vx%v panels=%v", tc.name, sz.w, sz.h, panels)
				if len(l.Zones) != tc.wantK {
					t.Errorf("%s: %d zones, want %d", where, len(l.Zones), tc.wantK)
				}
				for i, z := range tc.inZone {
					if l.Nodes[i].Zone != z {
						t.Errorf("%s: node %d in zone %d, want %d", where, i, l.Nodes[i].Zone, z)
					}
					if got := l.ZoneAt(l.Nodes[i].Center); got != z {
						t.Errorf("%s: ZoneAt(node %d) = %d, want %d", where, i, got, z)
					}
				}
				for _, e := range checkLayout(l, 5, panels) {
					t.Errorf("%s: %s", where, e)
				}
				if l.NodeRadius < 14 {
					t.Errorf("%s: node radius %v", where, l.NodeRadius)
				}
				for z, zn := range l.Zones {
					if zn.Name != "Zone "+string(rune('A'+z)) || zn.Label.H < minZoneLabelH {
						t.Errorf("%s: zone %d named %q with label %v", where, z, zn.Name, zn.Label)
					}
				}
			}
		}
	}
	l := ComputeLayout(LayoutOptions{Width: 1280, Height: 800, Nodes: 3, Zones: []int{0, 1, 2}})
	plain := NewLayout(1280, 800, 3, false)
	if l.ZoneAt(Pt(-5, -5)) != -1 || plain.ZoneAt(Pt(400, 400)) != -1 {
		t.Errorf("ZoneAt outside every zone is not -1")
	}
}

func TestLinkLookup(t *testing.T) {
	l := NewLayout(1280, 800, 4, false)
	lk, ok := l.Link(3, 1)
	if !ok || lk.LinkID != (LinkID{1, 3}) {
		t.Errorf("Link(3, 1) = %v, %v", lk.LinkID, ok)
	}
	for _, p := range [][2]int{{2, 2}, {-1, 0}, {0, 4}} {
		if _, ok := l.Link(p[0], p[1]); ok || l.LinkIndex(p[0], p[1]) != -1 {
			t.Errorf("Link(%d, %d) found", p[0], p[1])
		}
	}
	if MakeLinkID(5, 2) != (LinkID{2, 5}) || MakeLinkID(2, 5) != (LinkID{2, 5}) {
		t.Errorf("MakeLinkID does not order its ends")
	}
}

func TestPanelKinds(t *testing.T) {
	ks := PanelKinds()
	if len(ks) != 5 {
		t.Fatalf("%d panel kinds", len(ks))
	}
	want := []string{"Scenario", "Question", "Node", "Safety", "Client"}
	for i, k := range ks {
		if k.Title() != want[i] || k.String() != want[i] {
			t.Errorf("panel %d titled %q", i, k.Title())
		}
	}
	if PanelKind(9).Title() != "?" || Landscape.String() != "landscape" || Portrait.String() != "portrait" {
		t.Errorf("fallback names wrong")
	}
}

func FuzzLayout(f *testing.F) {
	f.Add(390.0, 844.0, uint8(5), true, uint16(0), uint8(0))
	f.Add(1920.0, 1080.0, uint8(9), false, uint16(0b1001_0110_0001), uint8(3))
	f.Add(844.0, 390.0, uint8(7), true, uint16(0b0110_0101_1011), uint8(4))
	f.Fuzz(func(t *testing.T, w, h float64, n uint8, panels bool, zoneBits uint16, active uint8) {
		nodes := int(n%MaxNodes) + 1
		o := LayoutOptions{Width: w, Height: h, Nodes: nodes, Panels: panels, Active: PanelKind(active % 6)}
		if zoneBits&1 == 1 {
			o.Zones = make([]int, nodes)
			for i := range o.Zones {
				o.Zones[i] = int(zoneBits>>(1+i)) % 3
			}
		}
		l := ComputeLayout(o)
		if hasNaN(l) {
			t.Fatalf("NaN in layout for %vx%v", w, h)
		}
		for _, e := range checkLayout(l, nodes, panels) {
			t.Errorf("%vx%v n=%d panels=%v zones=%v: %s", w, h, nodes, panels, o.Zones, e)
		}
	})
}

// compositions returns every way to write n as an ordered sum of k
// positive parts.
func compositions(n, k int) [][]int {
	if k == 1 {
		return [][]int{{n}}
	}
	var out [][]int
	for first := 1; first <= n-k+1; first++ {
		for _, rest := range compositions(n-first, k-1) {
			out = append(out, append([]int{first}, rest...))
		}
	}
	return out
}

func letterNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(rune('A' + i))
	}
	return out
}

func etcdNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("etcd-%d", i+1)
	}
	return out
}

func estimate(s string, size float64) float64 { return float64(len([]rune(s))) * size * 0.55 }

// circleOverlapsRect reports whether a disc and a box share more than an
// edge.
func circleOverlapsRect(c Circle, r Rect) bool {
	if r.Empty() {
		return false
	}
	x := clamp(c.C.X, r.X, r.Right())
	y := clamp(c.C.Y, r.Y, r.Bottom())
	return c.C.Dist(Pt(x, y)) < c.R-eps
}

// checkWords returns every broken promise about the words of a layout:
// each name fits its box in its disc; each caption lies inside the node's
// zone (or the cluster) and clear of every other disc and caption, and
// (when full) holds at least a line of the caption word.
func checkWords(l Layout, names []string, caption string, full, namesFit bool) []string {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	capW := estimate(caption, l.CaptionSize)
	for i, nd := range l.Nodes {
		if w := estimate(names[i], l.LabelSize); namesFit && w > nd.Label.W+eps {
			bad("name %q is %v wide at size %v, its box %v", names[i], w, l.LabelSize, nd.Label.W)
		}
		if l.LabelSize < minLabelSize {
			bad("names at size %v", l.LabelSize)
		}
		cp := nd.Caption
		if full && (cp.W < capW-eps || l.CaptionLines(i) < 1) {
			bad("node %d caption %v holds no line of %q (%v wide)", i, cp, caption, capW)
		}
		if cp.Y < nd.Center.Y+l.NodeRadius-eps {
			bad("node %d caption %v is not under its disc", i, cp)
		}
		box := l.Cluster
		if nd.Zone >= 0 {
			box = l.Zones[nd.Zone].Body
		}
		if !cp.Empty() && !inside(cp, box) {
			bad("node %d caption %v is outside %v", i, cp, box)
		}
		for j, other := range l.Nodes {
			if j == i {
				continue
			}
			if circleOverlapsRect(l.NodeCircle(j), cp) {
				bad("node %d caption %v overlaps node %d's disc %v", i, cp, j, l.NodeCircle(j))
			}
			if circleOverlapsRect(l.NodeCircle(j), nd.Label) {
				bad("node %d name overlaps node %d's disc", i, j)
			}
			if j > i && overlap(cp, other.Caption) {
				bad("captions of nodes %d %v and %d %v overlap", i, cp, j, other.Caption)
			}
		}
	}
	return errs
}

// figureSizes are the canvases the partition layouts must read well on:
// a laptop, a book's column (720x450, and the 500x450 its figure's stage
// keeps beside its caption column), a phone held upright with the panels
// (390x844) and a phone-sized figure (350x560 without panels). A 350x560
// canvas with the panels is also laid out, but may give up words.
var figureSizes = []struct {
	w, h   float64
	panels []bool
}{{1280, 800, []bool{true, false}}, {720, 450, []bool{true, false}}, {500, 450, []bool{false}}, {390, 844, []bool{true}}, {350, 560, []bool{true, false}}}

// TestPartitionLayoutsAreReadable lays out every way of splitting 1..9
// nodes into two or three sides, with and without an empty zone to drop
// a node in, with letters and etcd-style names, on a laptop, a book
// column and a phone. Every name fits its disc and every caption holds a
// line of the caption word, or of its short form where the long one
// cannot fit; only on a 350x560 phone with the panels, or with an extra
// empty zone, may the layout give words up, and then it says so.
func TestPartitionLayoutsAreReadable(t *testing.T) {
	for _, sz := range figureSizes {
		for _, panels := range sz.panels {
			for _, names := range []func(int) []string{letterNames, etcdNames} {
				for n := 1; n <= MaxNodes; n++ {
					nm := names(n)
					mustFit := !(sz.w < 390 && panels)
					check := func(o LayoutOptions, where string, mustFit bool, shape []int) {
						l := ComputeLayout(o)
						if mustFit && !l.WordsFit {
							t.Errorf("%s: words do not fit", where)
						}
						word := o.Caption
						if l.CaptionShort {
							word = o.Short
						}
						errs := append(checkLayout(l, n, o.Panels), checkWords(l, nm, word, l.WordsFit, l.WordsFit)...)
						if shape != nil {
							errs = append(errs, checkZoneShares(l, shape, o.ZoneCount)...)
						}
						for _, e := range errs {
							t.Errorf("%s: %s", where, e)
						}
					}
					// The whole ring first.
					o := LayoutOptions{Width: sz.w, Height: sz.h, Nodes: n, Panels: panels, Names: nm, Caption: "Pre-candidate", Short: "Pre-cand."}
					check(o, fmt.Sprintf("%vx%v panels=%v %s.. ring", sz.w, sz.h, panels, nm[0]), mustFit, nil)
					for k := 2; k <= MaxZones; k++ {
						for _, shape := range compositions(n, k) {
							zones := make([]int, 0, n)
							for z, m := range shape {
								for range m {
									zones = append(zones, z)
								}
							}
							// An empty zone to drop a node in must leave the
							// words room where the canvas is at least 600
							// wide; on a phone the app offers one only where
							// it does.
							for count := k; count <= min(k+1, MaxZones); count++ {
								o.Zones, o.ZoneCount = zones, count
								where := fmt.Sprintf("%vx%v panels=%v %s.. %v+%d", sz.w, sz.h, panels, nm[0], shape, count-k)
								check(o, where, mustFit && (count == k || sz.w >= 600), shape)
							}
						}
					}
				}
			}
		}
	}
}

// checkZoneShares checks that an empty zone is no longer than a disc or
// its label needs, and that a side with more nodes is not given less room.
func checkZoneShares(l Layout, shape []int, count int) []string {
	var errs []string
	if len(l.Zones) != count {
		return []string{fmt.Sprintf("%d zones, want %d", len(l.Zones), count)}
	}
	across := l.Zones[0].Rect.Y == l.Zones[len(l.Zones)-1].Rect.Y
	length := func(z Zone) float64 {
		if across {
			return z.Rect.W
		}
		return z.Rect.H
	}
	for z := len(shape); z < count; z++ {
		need := math.Max(estimate("Drop here", ZoneTextSize)+8, 2*l.NodeRadius+8) + 2*zoneInset
		if !across {
			need = l.Zones[z].Label.H + 2 + 2*l.NodeRadius + 8 + 2*zoneInset
		}
		if length(l.Zones[z]) > need+eps {
			errs = append(errs, fmt.Sprintf("empty zone %v is longer than the %v it needs", l.Zones[z].Rect, need))
		}
	}
	for a := range shape {
		for b := range shape {
			if across && shape[a] > shape[b] && length(l.Zones[a]) < length(l.Zones[b])-eps {
				errs = append(errs, fmt.Sprintf("side %d of %d nodes %v is smaller than side %d of %d %v", a, shape[a], l.Zones[a].Rect, b, shape[b], l.Zones[b].Rect))
			}
		}
	}
	return errs
}

// TestLoneZoneNodesHideNoLink: three zones of one node each would put the
// nodes in a line, the middle disc over the outer two's link; every link
// must pass clear of the third disc.
func TestLoneZoneNodesHideNoLink(t *testing.T) {
	for _, sz := range testSizes {
		for _, panels := range []bool{true, false} {
			l := ComputeLayout(LayoutOptions{Width: sz.w, Height: sz.h, Nodes: 3, Panels: panels, Zones: []int{0, 1, 2}})
			for _, lk := range l.Links {
				for k := range l.Nodes {
					if k != lk.I && k != lk.J && lk.Seg.Dist(l.Nodes[k].Center) < l.NodeRadius {
						t.Errorf("%vx%v panels=%v: node %d hides the link %d-%d", sz.w, sz.h, panels, k, lk.I, lk.J)
					}
				}
			}
		}
	}
}
