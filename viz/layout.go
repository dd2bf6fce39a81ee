package viz

import "math"

// Limits of the layout.
const (
	MaxNodes = 9 // most nodes a layout places
	MaxZones = 3 // most zones a zone layout shows
)

// Orientation says how the layout arranged the screen.
type Orientation int

const (
	// Landscape puts the cluster on the left and the panels in a column on
	// the right.
	Landscape Orientation = iota
	// Portrait puts the cluster on top and the panels below it, one at a
	// time behind a tab strip.
	Portrait
)

func (o Orientation) String() string {
	if o == Portrait {
		return "portrait"
	}
	return "landscape"
}

// PanelKind names one of the side panels.
type PanelKind int

// The panels, in the order a column stacks them and a tab strip lists them.
const (
	PanelScenario PanelKind = iota // scenario prompt and step controls
	PanelQuestion                  // the question put to the reader
	PanelNode                      // the selected node's state
	PanelSafety                    // safety properties and the contract
	PanelClient                    // client operations and their results
	numPanels
)

var panelTitles = [numPanels]string{"Scenario", "Question", "Node", "Safety", "Client"}

// PanelKinds returns every panel kind in order.
func PanelKinds() []PanelKind {
	ks := make([]PanelKind, numPanels)
	for i := range ks {
		ks[i] = PanelKind(i)
	}
	return ks
}

// Title returns the short title for the panel's heading or tab.
func (k PanelKind) Title() string { return enumName(panelTitles[:], k) }

func (k PanelKind) String() string { return k.Title() }

// Panel is one side panel's place on screen. A panel that is not Visible
// (hidden behind another tab, or all panels off) has an empty Rect.
type Panel struct {
	Kind    PanelKind
	Rect    Rect
	Visible bool
}

// Tab is one entry of the panel tab strip.
type Tab struct {
	Kind   PanelKind
	Rect   Rect
	Active bool
}

// Button is one toolbar button.
type Button struct {
	Cmd  Command
	Rect Rect
}

// Node is where one node is drawn. Its disc is Circle{Center, NodeRadius}.
type Node struct {
	Index    int
	Center   Point
	Zone     int  // zone index in a zone layout, else -1
	Label    Rect // square inside the disc for the node's name
	LogLabel Rect // left end of the node's log row, for its name
	LogStrip Rect // the rest of the node's log row, for its entries
}

// LinkID names the link between two nodes; I < J.
type LinkID struct{ I, J int }

// MakeLinkID returns the LinkID of the link between a and b in either order.
func MakeLinkID(a, b int) LinkID {
	if a > b {
		a, b = b, a
	}
	return LinkID{a, b}
}

// Link is where the link between nodes I and J is drawn. Seg runs from the
// edge of I's disc to the edge of J's. Lanes are two parallel copies shifted
// a little apart for the two directions, each with its ends on the discs'
// edges: Lanes[0] carries I→J and runs from I to J, Lanes[1] carries J→I and
// runs from J to I. Each lane lies to the right of its direction of travel.
type Link struct {
	LinkID
	Seg   Segment
	Lanes [2]Segment
}

// Lane returns the lane carrying messages from node from to node to, which
// must be the link's two ends.
func (k Link) Lane(from, to int) Segment {
	if from == k.I && to == k.J {
		return k.Lanes[0]
	}
	return k.Lanes[1]
}

// Zone is one labelled region of a zone layout.
type Zone struct {
	Index int
	Name  string
	Rect  Rect // the whole region
	Label Rect // strip at the top for Name
	Body  Rect // where the zone's nodes sit
}

// LayoutOptions are the inputs of ComputeLayout.
type LayoutOptions struct {
	Width, Height float64 // canvas size in logical pixels
	Nodes         int     // node count, clamped to 1..MaxNodes
	Panels        bool    // show the side panels
	// Active is the panel shown when the panels are tabbed.
	Active PanelKind
	// Zones, when not nil, asks for a zone layout: Zones[i] is node i's
	// zone, 0..MaxZones-1 (values out of range are clamped; missing
	// entries are zone 0).
	Zones []int
	// ZoneCount is how many zones to show, so that empty zones appear too;
	// at least one more than the highest zone in Zones, at most MaxZones.
	ZoneCount int
	// Buttons are the toolbar buttons, left to right; nil means
	// DefaultToolbar().
	Buttons []Command
}

// Layout is where everything goes on a canvas. All values are in logical
// pixels with the origin at the canvas's top-left corner.
type Layout struct {
	Canvas      Rect
	Orientation Orientation

	Toolbar Rect     // top strip
	Buttons []Button // toolbar buttons, inside Toolbar
	Speed   Rect     // speed slider, inside Toolbar
	// Timeline is the strip at the bottom for virtual time and events.
	Timeline Rect

	Cluster       Rect    // where the nodes go
	Ring          Circle  // circle the node centres sit on (zero in a zone layout)
	NodeRadius    float64 // radius of every node's disc
	LabelSize     float64 // font size in pixels for a node's name
	MessageRadius float64 // radius of a message dot
	Nodes         []Node
	Links         []Link // every unordered pair, in the order of LinkIndex
	Zones         []Zone // nil unless a zone layout was asked for
	Logs          Rect   // region holding every node's log row

	Panels      []Panel // one per PanelKind, in order
	Tabbed      bool    // panels share one place behind Tabs
	Tabs        []Tab   // tab strip, when Tabbed
	ActivePanel PanelKind
}

// Layout sizes that do not scale with the canvas.
const (
	maxButton     = 44.0  // touch-sized toolbar button
	buttonGap     = 4.0   // between toolbar buttons
	minSlider     = 140.0 // narrowest speed slider beside the buttons
	maxSlider     = 260.0
	sliderRowH    = 36.0  // speed slider row when it gets a row of its own
	tabStripH     = 40.0  // panel tab strip
	minPanelH     = 110.0 // shortest stacked panel before the column uses tabs
	minColumnW    = 640.0 // narrowest content that still gets a panel column
	nodeGap       = 6.0   // least space between two nodes' discs
	logRowGap     = 2.0
	zoneInset     = 4.0
	minZoneLabelH = 16.0
	maxZoneLabelH = 26.0
)

// NewLayout lays out n nodes on a w×h canvas, with or without the side
// panels. It is ComputeLayout with the other options at their defaults.
func NewLayout(w, h float64, n int, panels bool) Layout {
	return ComputeLayout(LayoutOptions{Width: w, Height: h, Nodes: n, Panels: panels})
}

// ComputeLayout lays out the screen. It never fails: sizes that are
// negative or NaN count as zero and the node count is clamped to
// 1..MaxNodes. On any canvas everything lies inside the canvas, panels,
// tabs, toolbar, timeline, cluster and logs never overlap one another, and
// node discs lie inside the cluster without overlapping.
func ComputeLayout(o LayoutOptions) Layout {
	w, h := sanePos(o.Width), sanePos(o.Height)
	n := clampInt(o.Nodes, 1, MaxNodes)
	active := o.Active
	if active < 0 || active >= numPanels {
		active = PanelScenario
	}
	l := Layout{Canvas: Rect{0, 0, w, h}, ActivePanel: active}
	short := math.Min(w, h)
	pad := clamp(short*0.012, 4, 12)

	cmds := o.Buttons
	if cmds == nil {
		cmds = DefaultToolbar()
	}
	var rest Rect
	l.Toolbar, l.Buttons, l.Speed, rest = layoutToolbar(l.Canvas, cmds, pad)
	l.Timeline, rest = rest.cutBottom(clamp(h*0.06, 36, 64), 0)
	content := rest.Inset(pad)

	l.Orientation = Portrait
	if w >= h {
		l.Orientation = Landscape
	}
	stage := content
	l.Panels = make([]Panel, numPanels)
	for i := range l.Panels {
		l.Panels[i].Kind = PanelKind(i)
	}
	if o.Panels {
		var area Rect
		if l.Orientation == Landscape && content.W >= minColumnW {
			area, stage = content.cutRight(clamp(content.W*0.3, 240, 440), pad)
			stacked := (area.H - pad*float64(numPanels-1)) / float64(numPanels)
			l.layoutPanels(area, stacked < minPanelH, pad)
		} else {
			l.Orientation = Portrait
			area, stage = content.cutBottom(content.H*0.38, pad)
			l.layoutPanels(area, true, pad)
		}
	}

	// Put the log rows below the cluster or beside it, whichever gives
	// larger nodes, then more room around them.
	rMax := clamp(short*0.05, 22, 48)
	bestR, bestRoom := -1.0, -1.0
	var best Layout
	for _, beside := range []bool{false, true} {
		c := l
		c.layoutStage(stage, n, pad, beside)
		var room float64
		if o.Zones != nil {
			room = c.layoutZones(n, o.Zones, o.ZoneCount, rMax)
		} else {
			room = c.layoutRing(n, rMax)
		}
		if c.NodeRadius > bestR+1e-9 || (c.NodeRadius > bestR-1e-9 && room > bestRoom) {
			best, bestR, bestRoom = c, c.NodeRadius, room
		}
	}
	l = best
	l.LabelSize = clamp(l.NodeRadius*0.6, 10, 20)
	l.MessageRadius = clamp(l.NodeRadius*0.25, 3, 8)
	for i := range l.Nodes {
		side := l.NodeRadius * math.Sqrt2
		c := l.Nodes[i].Center
		l.Nodes[i].Label = Rect{c.X - side/2, c.Y - side/2, side, side}
	}
	l.layoutLinks()
	return l
}

// layoutToolbar puts the buttons in a row along the top and the speed
// slider to their right, or in a second row when the canvas is too narrow.
func layoutToolbar(canvas Rect, cmds []Command, pad float64) (bar Rect, buttons []Button, speed Rect, rest Rect) {
	nb := float64(len(cmds))
	const vpad = 4.0
	rowW := canvas.W - 2*pad
	btn := maxButton
	oneRow := nb*maxButton+math.Max(nb-1, 0)*buttonGap+3*buttonGap+minSlider <= rowW
	barH := btn + 2*vpad
	if !oneRow && nb > 0 {
		btn = clamp((rowW-(nb-1)*buttonGap)/nb, 0, maxButton)
		barH = vpad + btn + buttonGap + sliderRowH + vpad
	}
	bar, rest = canvas.cutTop(barH, 0)
	inner := Rect{bar.X + pad, bar.Y + vpad, rowW, bar.H - 2*vpad}.Inset(0)
	row, below := inner.cutTop(btn, buttonGap)
	x := row.X
	for _, c := range cmds {
		bx := math.Min(x, row.Right())
		r := Rect{bx, row.Y, math.Min(btn, row.Right()-bx), row.H}
		buttons = append(buttons, Button{Cmd: c, Rect: r})
		x += btn + buttonGap
	}
	if oneRow {
		used := nb*btn + math.Max(nb-1, 0)*buttonGap
		speed, _ = row.cutRight(math.Min(maxSlider, row.W-used-3*buttonGap), 0)
	} else {
		speed = below
	}
	return bar, buttons, speed, rest
}

// layoutPanels places the panels in area: stacked one above another, or
// one at a time below a tab strip.
func (l *Layout) layoutPanels(area Rect, tabbed bool, gap float64) {
	l.Tabbed = tabbed
	if tabbed {
		strip, body := area.cutTop(math.Min(tabStripH, area.H*0.3), gap/2)
		for i, r := range splitEven(strip, int(numPanels), 2, true) {
			k := PanelKind(i)
			l.Tabs = append(l.Tabs, Tab{Kind: k, Rect: r, Active: k == l.ActivePanel})
		}
		l.Panels[l.ActivePanel] = Panel{Kind: l.ActivePanel, Rect: body, Visible: true}
		return
	}
	for i, r := range splitEven(area, int(numPanels), gap, false) {
		l.Panels[i] = Panel{Kind: PanelKind(i), Rect: r, Visible: true}
	}
}

// layoutStage splits the stage between the cluster and the log rows,
// putting the rows beside the cluster or below it.
func (l *Layout) layoutStage(stage Rect, n int, pad float64, beside bool) {
	rowH := clamp(stage.H*0.04, 12, 22)
	logsH := float64(n)*rowH + float64(n-1)*logRowGap
	if beside {
		var logs Rect
		logs, l.Cluster = stage.cutRight(clamp(stage.W*0.38, 160, 420), pad)
		l.Logs = Rect{logs.X, logs.Y + math.Max(logs.H-logsH, 0)/2, logs.W, math.Min(logsH, logs.H)}
	} else {
		l.Logs, l.Cluster = stage.cutBottom(logsH, pad)
	}
	rows := splitEven(l.Logs, n, logRowGap, false)
	labelW := math.Min(clamp(rows[0].H*2.2, 28, 48), l.Logs.W/3)
	l.Nodes = make([]Node, n)
	for i, row := range rows {
		label, strip := row.cutLeft(labelW, 4)
		l.Nodes[i] = Node{Index: i, Zone: -1, LogLabel: label, LogStrip: strip}
	}
}

// fitRing sizes m nodes on a ring that must stay within avail of its
// centre: it returns the ring radius R and the node radius r (at most
// rMax) such that each disc stays inside and neighbours keep nodeGap apart.
func fitRing(m int, avail, rMax float64) (ringR, nodeR float64) {
	if avail <= 0 {
		return 0, 0
	}
	if m <= 1 {
		return 0, math.Min(rMax, avail)
	}
	s := math.Sin(math.Pi / float64(m))
	r := clamp((avail*s-nodeGap/2)/(1+s), 0, rMax)
	return avail - r, r
}

// ringPoint is the i-th of m points on a circle, the first at the top and
// the rest clockwise.
func ringPoint(c Circle, i, m int) Point {
	a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(m)
	return Point{c.C.X + c.R*math.Cos(a), c.C.Y + c.R*math.Sin(a)}
}

// ringRoom is how far from the centre of box a ring's outer edge may reach.
func ringRoom(box Rect) float64 {
	short := math.Min(box.W, box.H)
	return short/2 - clamp(short*0.06, 2, 40)
}

// layoutRing puts the nodes on one ring in the cluster and returns how far
// the ring's outer edge reaches from its centre.
func (l *Layout) layoutRing(n int, rMax float64) float64 {
	room := ringRoom(l.Cluster)
	R, r := fitRing(n, room, rMax)
	l.Ring = Circle{l.Cluster.Center(), R}
	l.NodeRadius = r
	for i := range l.Nodes {
		l.Nodes[i].Center = ringPoint(l.Ring, i, n)
	}
	return room
}

// layoutZones splits the cluster into labelled zones along its longer side
// and puts each zone's nodes on a small ring inside it. Every node gets the
// same radius: the smallest that fits in every zone. It returns the room
// for a ring in the most crowded zone that has nodes.
func (l *Layout) layoutZones(n int, zoneOf []int, count int, rMax float64) float64 {
	zs := make([]int, n)
	k := clampInt(count, 1, MaxZones)
	for i := range zs {
		if i < len(zoneOf) {
			zs[i] = clampInt(zoneOf[i], 0, MaxZones-1)
		}
		k = max(k, zs[i]+1)
	}
	members := make([][]int, k)
	for i, z := range zs {
		members[z] = append(members[z], i)
	}
	c := l.Cluster
	across := c.W >= c.H // zones side by side, else one above another
	l.Zones = make([]Zone, k)
	for z, region := range splitEven(c, k, zoneInset, across) {
		label, body := region.Inset(zoneInset).cutTop(clamp(math.Min(region.W, region.H)*0.1, minZoneLabelH, maxZoneLabelH), 2)
		l.Zones[z] = Zone{Index: z, Name: "Zone " + string(rune('A'+z)), Rect: region, Label: label, Body: body}
	}
	r, minRoom := rMax, math.Inf(1)
	for z, m := range members {
		if len(m) > 0 {
			room := ringRoom(l.Zones[z].Body)
			_, rz := fitRing(len(m), room, rMax)
			r, minRoom = math.Min(r, rz), math.Min(minRoom, room)
		}
	}
	l.NodeRadius = r
	for z, m := range members {
		room := ringRoom(l.Zones[z].Body)
		ring := Circle{l.Zones[z].Body.Center(), 0}
		if len(m) > 1 {
			ring.R = math.Max(room-r, 0)
		}
		for j, i := range m {
			l.Nodes[i].Center = ringPoint(ring, j, len(m))
			l.Nodes[i].Zone = z
		}
	}
	return minRoom
}

func (l *Layout) layoutLinks() {
	n := len(l.Nodes)
	r := l.NodeRadius
	off := clamp(r*0.16, 0, 6)
	along := math.Sqrt(math.Max(r*r-off*off, 0))
	l.Links = make([]Link, 0, n*(n-1)/2)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ci, cj := l.Nodes[i].Center, l.Nodes[j].Center
			d := cj.Sub(ci).Unit()
			side := d.Perp().Mul(off)
			lane := func(from, to Point, s Point) Segment {
				dir := to.Sub(from).Unit()
				return Segment{from.Add(dir.Mul(along)).Add(s), to.Sub(dir.Mul(along)).Add(s)}
			}
			l.Links = append(l.Links, Link{
				LinkID: LinkID{i, j},
				Seg:    Segment{ci.Add(d.Mul(r)), cj.Sub(d.Mul(r))},
				Lanes:  [2]Segment{lane(ci, cj, side), lane(cj, ci, side.Mul(-1))},
			})
		}
	}
}

// LinkIndex returns the position in Links of the link between a and b, or
// -1 when they are the same node or out of range.
func (l *Layout) LinkIndex(a, b int) int {
	n := len(l.Nodes)
	if a == b || a < 0 || b < 0 || a >= n || b >= n {
		return -1
	}
	id := MakeLinkID(a, b)
	return id.I*n - id.I*(id.I+1)/2 + id.J - id.I - 1
}

// Link returns the link between a and b in either order.
func (l *Layout) Link(a, b int) (Link, bool) {
	i := l.LinkIndex(a, b)
	if i < 0 {
		return Link{}, false
	}
	return l.Links[i], true
}

// NodeCircle returns node i's disc.
func (l *Layout) NodeCircle(i int) Circle {
	return Circle{l.Nodes[i].Center, l.NodeRadius}
}

// Panel returns where panel k is and whether it is visible now.
func (l *Layout) Panel(k PanelKind) (Rect, bool) {
	if k < 0 || int(k) >= len(l.Panels) {
		return Rect{}, false
	}
	p := l.Panels[k]
	return p.Rect, p.Visible
}

// ZoneAt returns the zone whose region contains p, or -1.
func (l *Layout) ZoneAt(p Point) int {
	for _, z := range l.Zones {
		if z.Rect.Contains(p) {
			return z.Index
		}
	}
	return -1
}

// splitEven cuts r into k equal pieces left to right (across) or top to
// bottom, gap apart; the gaps shrink to nothing when r is too small.
func splitEven(r Rect, k int, gap float64, across bool) []Rect {
	length := r.H
	if across {
		length = r.W
	}
	gaps := float64(k - 1)
	gap = clamp(gap, 0, length/(2*math.Max(gaps, 1)))
	size := (length - gap*gaps) / float64(k)
	out := make([]Rect, k)
	for i := range out {
		off := float64(i) * (size + gap)
		if across {
			out[i] = Rect{r.X + off, r.Y, size, r.H}
		} else {
			out[i] = Rect{r.X, r.Y + off, r.W, size}
		}
	}
	return out
}

func sanePos(v float64) float64 {
	if !(v > 0) || math.IsInf(v, 1) {
		return 0
	}
	return v
}

func clampInt(v, lo, hi int) int {
	return min(max(v, lo), hi)
}
