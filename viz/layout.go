package viz

import "math"

// Limits of the layout.
const (
	MaxNodes = 9 // most nodes a layout places
	MaxZones = 3 // most zones a zone layout shows
	// MaxWorkers is the most worker machines a layout places, as many
	// as a world has (raftcore.MaxWorkers).
	MaxWorkers = 10
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
	NumPanels
)

var panelTitles = [NumPanels]string{"Scenario", "Question", "Node", "Safety", "Client"}

// PanelKinds returns every panel kind in order.
func PanelKinds() []PanelKind {
	ks := make([]PanelKind, NumPanels)
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
	Index  int
	Center Point
	Zone   int // zone index in a zone layout, else -1
	// Label is the box inside the disc for the node's name, centred on
	// it: LabelSize high and as wide as the disc allows at that height,
	// which is at least as wide as the longest name.
	Label Rect
	// Caption is the room under the disc for the lines of words about the
	// node (role, term, vote) at CaptionSize: one or two lines high (see
	// CaptionLines), at least as wide as the caption word asked for, and
	// clear of every other disc, caption and the edge of the node's zone
	// or of the cluster.
	Caption Rect
	// Spare marks a node drawn in the tray, apart from the cluster's
	// ring (see LayoutOptions.Spares).
	Spare    bool
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
	// OnePanel shows the panels one at a time behind tabs, however much
	// room there is (presenter mode).
	OnePanel bool
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

	// Names are the nodes' names, drawn inside their discs: LabelSize is
	// the largest (up to a share of the disc) at which the longest fits.
	// Nil stands for single letters.
	Names []string
	// Caption is the widest line every node must be able to show under
	// its disc (its longest role word); "" stands for "Candidate".
	Caption string
	// Short is a narrower form of Caption (an abbreviation) that the
	// layout makes room for instead where Caption cannot fit; "" means
	// none.
	Short string
	// Drop is the shortest label of an empty zone ("Drop here"), Count
	// the shortest label of a side ("9 of 9"); both are measured at
	// ZoneTextSize and "" stands for these.
	Drop, Count string
	// Measure returns the width in pixels of s at font size size; nil
	// estimates it at 0.55 of the size a character.
	Measure func(s string, size float64) float64
	// Spares, when any is true, marks the nodes that are not in the
	// cluster: they wait in the Tray, a strip along the bottom of the
	// cluster, and the others take the ring above it. A zone layout has
	// no tray.
	Spares []bool
	// Logs, when not empty, is room of their own for the log rows,
	// which the caller keeps clear of everything else (an embedded
	// figure about the machines' histories gives them its panel's
	// place): the rows go there, taller than under the cluster, and the
	// cluster has the whole stage.
	Logs Rect
	// Workers is how many worker machines (Kubernetes nodes, not Raft
	// members) to place, 0..MaxWorkers: they go in a band of their own
	// under the cluster, which takes a strip at its top for its label
	// as the control plane (see Layout.Workers).
	Workers int
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

	Cluster     Rect    // where the nodes go
	Ring        Circle  // circle the node centres sit on (zero in a zone layout)
	NodeRadius  float64 // radius of every node's disc
	LabelSize   float64 // font size in pixels for a node's name
	CaptionSize float64 // font size in pixels for the words under a disc
	// CaptionShort says the captions were made room for with the Short
	// form of the caption word, as Caption itself did not fit.
	CaptionShort bool
	// WordsFit says every name fits its disc and every caption holds a
	// line of the caption word (or of its short form, when
	// CaptionShort): a layout without it had to give up some words.
	WordsFit      bool
	MessageRadius float64 // radius of a message dot
	Nodes         []Node
	Links         []Link // every unordered pair, in the order of LinkIndex
	Zones         []Zone // nil unless a zone layout was asked for
	// Tray is the strip along the bottom of the cluster that holds the
	// spare nodes; empty when there are none, or in a zone layout.
	Tray Rect
	Logs Rect // region holding every node's log row
	// Workers are the worker machines' boxes, in the WorkerBand under
	// the cluster; ControlLabel is the strip at the top of the cluster
	// for its label as the control plane, WorkerLinks the links from
	// every node to every worker, worker by worker (see Link). All empty
	// in a world without workers.
	Workers      []Worker
	WorkerBand   Rect
	ControlLabel Rect
	WorkerLinks  []Link
	workers      int
	// compactWorkers gives each worker's box one line (its number and
	// condition), where the full boxes would leave the members without
	// their captions (see bestStage).
	compactWorkers bool

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
	maxZoneLabelH = 22.0

	// ZoneTextSize is the font size of a zone's label, which the app
	// draws; the layout measures Drop and Count at it.
	ZoneTextSize = 11.0
	// CaptionLineHeight is the height of a line under a disc, in font
	// sizes.
	CaptionLineHeight = 1.2
	captionGap        = 7.0   // from a disc's edge to the words under it, clear of its timer ring
	captionMax        = 170.0 // widest room for the words under a disc
	textMargin        = 4.0   // least space between words and another disc or other words
	inkOut            = 7.0   // how far a disc's timer ring reaches out of it
	ringOut           = 12.0  // how far a selected or highlighted disc's ring reaches out of it
	badgeRoom         = 20.0  // above a lone node's disc, for its "cut off" badge
	minNodeR          = 12.0  // smallest disc the search tries
	minLabelSize      = 10.0  // smallest name in a disc
	rStep             = 0.5   // the search's step in node radius
)

// ComputeLayout lays out the screen. It never fails: sizes that are
// negative or NaN count as zero and the node count is clamped to
// 1..MaxNodes. On any canvas everything lies inside the canvas, panels,
// tabs, toolbar, timeline, cluster and logs never overlap one another, and
// node discs lie inside the cluster without overlapping.
func ComputeLayout(o LayoutOptions) Layout {
	w, h := sanePos(o.Width), sanePos(o.Height)
	n := clampInt(o.Nodes, 1, MaxNodes)
	active := o.Active
	if active < 0 || active >= NumPanels {
		active = PanelScenario
	}
	l := Layout{Canvas: Rect{0, 0, w, h}, ActivePanel: active, workers: clampInt(o.Workers, 0, MaxWorkers)}
	short := math.Min(w, h)
	pad := clamp(short*0.012, 4, 12)

	cmds := o.Buttons
	if cmds == nil {
		cmds = DefaultToolbar()
	}
	var rest Rect
	l.Toolbar, l.Buttons, l.Speed, rest = layoutToolbar(l.Canvas, cmds, pad)
	l.Timeline, rest = rest.cutBottom(clamp(h*0.06, 36, 64), 0)
	stage := l.layoutSides(rest.Inset(pad), o.Panels, o.OnePanel, pad)
	l = l.bestStageWithWorkers(stage, n, o, pad, clamp(short*0.05, 22, 48))
	l.MessageRadius = clamp(l.NodeRadius*0.25, 3, 8)
	l.layoutLinks()
	l.layoutWorkers()
	return l
}

// layoutSides lays the panels out beside content on a wide canvas, under
// it on a narrow one, when there are panels, and returns the room left for
// the stage.
func (l *Layout) layoutSides(content Rect, panels, one bool, pad float64) (stage Rect) {
	l.Orientation = Portrait
	if l.Canvas.W >= l.Canvas.H {
		l.Orientation = Landscape
	}
	stage = content
	l.Panels = make([]Panel, NumPanels)
	for i := range l.Panels {
		l.Panels[i].Kind = PanelKind(i)
	}
	if !panels {
		return stage
	}
	var area Rect
	if l.Orientation == Landscape && content.W >= minColumnW {
		area, stage = content.cutRight(clamp(content.W*0.3, 240, 440), pad)
		stacked := (area.H - pad*float64(NumPanels-1)) / float64(NumPanels)
		l.layoutPanels(area, one || stacked < minPanelH, pad)
		return stage
	}
	l.Orientation = Portrait
	area, stage = content.cutBottom(content.H*0.38, pad)
	l.layoutPanels(area, true, pad)
	return stage
}

// bestStageWithWorkers is bestStage, and where that leaves some member
// without the words under its disc (its role line) while worker boxes
// take room below, bestStage again with one-line worker boxes: the
// members come first, and a worker's number and condition still show.
func (l Layout) bestStageWithWorkers(stage Rect, n int, o LayoutOptions, pad, rMax float64) Layout {
	best := l.bestStage(stage, n, o, pad, rMax)
	if best.WordsFit || l.workers == 0 {
		return best
	}
	c := l
	c.compactWorkers = true
	if alt := c.bestStage(stage, n, o, pad, rMax); alt.WordsFit {
		return alt
	}
	return best
}

// bestStage puts the log rows below the cluster or beside it, whichever
// lets every word fit, then gives larger nodes, then more room around
// them. Where the caption word cannot fit, its short form may; where no
// circle or ellipse lets the words fit, other shapes may.
func (l Layout) bestStage(stage Rect, n int, o LayoutOptions, pad, rMax float64) Layout {
	sz := newSizer(o)
	var best Layout
	var bestFit placement
	// Each try puts the log rows below the cluster, then beside it; a
	// later try is taken only where it lets the words fit.
	try := func(first bool) {
		for k, beside := range []bool{false, true} {
			c := l
			if !o.Logs.Empty() {
				if beside {
					continue // the rows have their own room
				}
				c.layoutOwnLogs(stage, o.Logs, n)
			} else {
				c.layoutStage(stage, n, pad, beside)
			}
			pl := c.layoutCluster(n, o, rMax, sz)
			if first && k == 0 || pl.better(bestFit) && (first || pl.fit == fitCaption) {
				best, bestFit = c, pl
				best.CaptionShort = sz.caption == o.Short && o.Short != ""
			}
		}
	}
	try(true)
	if bestFit.fit < fitCaption {
		sz.others = true
		try(false)
	}
	if bestFit.fit < fitCaption && o.Short != "" {
		sz.caption, sz.others = o.Short, false
		try(false)
		if bestFit.fit < fitCaption {
			sz.others = true
			try(false)
		}
	}
	best.WordsFit = bestFit.fit == fitCaption
	return best
}

// layoutCluster places the nodes in the cluster: on a ring, or in zones.
func (l *Layout) layoutCluster(n int, o LayoutOptions, rMax float64, sz sizer) placement {
	if o.Zones != nil {
		return l.layoutZones(n, o.Zones, o.ZoneCount, rMax, sz)
	}
	return l.layoutWithTray(n, o.Spares, rMax, sz)
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
		for i, r := range splitEven(strip, int(NumPanels), 2, true) {
			k := PanelKind(i)
			l.Tabs = append(l.Tabs, Tab{Kind: k, Rect: r, Active: k == l.ActivePanel})
		}
		l.Panels[l.ActivePanel] = Panel{Kind: l.ActivePanel, Rect: body, Visible: true}
		return
	}
	for i, r := range splitEven(area, int(NumPanels), gap, false) {
		l.Panels[i] = Panel{Kind: PanelKind(i), Rect: r, Visible: true}
	}
}

// layoutStage splits the stage between the cluster and the log rows,
// putting the rows beside the cluster or below it.
func (l *Layout) layoutStage(stage Rect, n int, pad float64, beside bool) {
	rowH := clamp(stage.H*0.04, 12, 22)
	logsH := float64(n)*rowH + float64(n-1)*logRowGap
	if beside {
		logsW := clamp(stage.W*0.38, 160, 420)
		l.Cluster = stage
		if l.workers > 0 && stage.W < minColumnW {
			_, narrow := workerGrid(stage.W-logsW-pad, l.workers)
			if _, wide := workerGrid(stage.W, l.workers); wide < narrow {
				// On a narrow stage worker boxes take a band across
				// it, under the cluster and the rows beside it: in
				// fewer rows than under the cluster alone. (On a wide
				// one their links would cross the rows' empty room.)
				l.cutWorkerBand(pad, 0)
			}
		}
		var logs Rect
		logs, l.Cluster = l.Cluster.cutRight(logsW, pad)
		if l.WorkerBand.Empty() {
			l.cutWorkerBand(pad, 0)
		}
		l.Logs = Rect{logs.X, logs.Y + math.Max(logs.H-logsH, 0)/2, logs.W, math.Min(logsH, logs.H)}
		l.layoutLogRows(n)
		return
	}
	l.Logs, l.Cluster = stage.cutBottom(logsH, pad)
	// The log rows' key sits over their name tags, under the band.
	l.cutWorkerBand(pad, keyRoom)
	l.layoutLogRows(n)
}

// layoutOwnLogs gives the cluster the whole stage and the log rows the
// room logs of their own: as tall as they can be up to OwnLogRowH, at the
// top of it.
func (l *Layout) layoutOwnLogs(stage, logs Rect, n int) {
	l.Cluster = stage
	l.cutWorkerBand(logRowGap, 0)
	rowH := clamp((logs.H-float64(n-1)*logRowGap)/float64(n), 12, OwnLogRowH)
	l.Logs = Rect{logs.X, logs.Y, logs.W, math.Min(float64(n)*rowH+float64(n-1)*logRowGap, logs.H)}
	l.layoutLogRows(n)
}

// OwnLogRowH is the tallest a log row grows in room of its own
// (LayoutOptions.Logs).
const OwnLogRowH = 30.0

// layoutLogRows splits Logs into n rows, each a name tag and a strip.
func (l *Layout) layoutLogRows(n int) {
	rows := splitEven(l.Logs, n, logRowGap, false)
	labelW := math.Min(clamp(rows[0].H*2.2, 28, 48), l.Logs.W/3)
	l.Nodes = make([]Node, n)
	for i, row := range rows {
		label, strip := row.cutLeft(labelW, 4)
		l.Nodes[i] = Node{Index: i, Zone: -1, LogLabel: label, LogStrip: strip}
	}
}

// sizer measures the words the layout makes room for.
type sizer struct {
	measure       func(string, float64) float64
	names         []string
	caption       string
	drop, count   float64 // widths of Drop and Count at ZoneTextSize
	labelLongest  string
	labelLongestW float64
	// others lets a group of nodes leave its circle or ellipse for
	// another shape where its words do not fit (see fitGroup).
	others bool
}

func newSizer(o LayoutOptions) sizer {
	s := sizer{measure: o.Measure, names: o.Names, caption: o.Caption}
	if s.measure == nil {
		s.measure = func(t string, size float64) float64 { return float64(len([]rune(t))) * size * 0.55 }
	}
	if s.caption == "" {
		s.caption = "Candidate"
	}
	drop, count := o.Drop, o.Count
	if drop == "" {
		drop = "Drop here"
	}
	if count == "" {
		count = "9 of 9"
	}
	s.drop, s.count = s.measure(drop, ZoneTextSize), s.measure(count, ZoneTextSize)
	if len(s.names) == 0 {
		s.names = []string{"W"}
	}
	return s
}

// sizes are the sizes of everything about a node at one disc radius.
type sizes struct {
	r        float64
	label    float64 // font size of the name
	labelW   float64 // width of the name's box at that size
	namesFit bool    // the longest name fits its box
	capSize  float64 // font size of the words under the disc
	capLine  float64 // their line height
	capW     float64 // width of the caption word
	others   bool    // shapes other than the first may be tried
}

// at sizes a node of radius r: its name as large as a share of the disc,
// smaller while the longest name does not fit, down to minLabelSize.
func (s sizer) at(r float64) sizes {
	z := sizes{r: r, capSize: clamp(r*0.36, 10, 12), others: s.others}
	z.capLine = z.capSize * CaptionLineHeight
	z.capW = s.measure(s.caption, z.capSize) + 2
	for z.label = clamp(r*0.6, minLabelSize, 20); ; z.label = math.Max(z.label-0.5, minLabelSize) {
		z.labelW = math.Max(2*math.Sqrt(math.Max(r*r-z.label*z.label/4, 0))-4, 0)
		widest := 0.0
		for _, name := range s.names {
			// Bold text is drawn twice, a pixel apart.
			widest = math.Max(widest, s.measure(name, z.label)+1)
		}
		if widest <= z.labelW {
			z.namesFit = true
			break
		}
		if z.label <= minLabelSize {
			break
		}
	}
	return z
}

// half is half the width a node takes: its disc or its caption word.
func (z sizes) half() float64 { return math.Max(z.r, z.capW/2) }

// below is how far a node's words reach below its centre with lines lines.
func (z sizes) below(lines int) float64 { return z.r + captionGap + float64(lines)*z.capLine }

// How well nodes fit, worst to best.
const (
	fitNone    = -1 // discs overlap or leave their box
	fitDiscs   = 0  // discs apart and inside
	fitNames   = 1  // and every name fits its disc
	fitCaption = 2  // and every caption holds a line of the caption word
)

// placement is how well a layout fits its nodes: its fit level, at what
// node radius, and with how much room to spare.
type placement struct {
	fit  int
	r    float64
	room float64
}

func (p placement) better(q placement) bool {
	if p.fit != q.fit {
		return p.fit > q.fit
	}
	if p.fit == fitNone {
		// Nothing fits: the smaller, the nearer to fitting.
		return p.r < q.r
	}
	if math.Abs(p.r-q.r) > 1e-9 {
		return p.r > q.r
	}
	return p.room > q.room
}

// ringPoint is the i-th of m points on a circle, the first at the top and
// the rest clockwise.
func ringPoint(c Circle, i, m int) Point {
	a := -math.Pi/2 + 2*math.Pi*float64(i)/float64(m)
	return Point{c.C.X + c.R*math.Cos(a), c.C.Y + c.R*math.Sin(a)}
}

// placeRing puts m nodes on an ellipse in box (a circle when round),
// the first at the angle phase clockwise from the top, with radii as
// large as the box allows up to rcap. top is room kept above a disc. It
// returns the centres, the ellipse's centre and its radii.
func placeRing(m int, box Rect, z sizes, phase, top, rcap float64, round bool) (pts []Point, centre Point, rx, ry float64) {
	pts = make([]Point, m)
	xs, ys := make([]float64, m), make([]float64, m)
	span := func(v []float64) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, x := range v {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		return lo, hi
	}
	for i := range m {
		a := phase + 2*math.Pi*float64(i)/float64(m)
		xs[i], ys[i] = math.Sin(a), -math.Cos(a)
		if math.Abs(xs[i]) < 1e-12 {
			xs[i] = 0
		}
		if math.Abs(ys[i]) < 1e-12 {
			ys[i] = 0
		}
	}
	x0, x1 := span(xs)
	y0, y1 := span(ys)
	half := z.half()
	lines := 2
	rx, ry = 0.0, 0.0
	if m > 1 {
		if x1-x0 > 1e-9 {
			rx = (box.W - 2*half) / (x1 - x0)
		}
		if y1-y0 > 1e-9 {
			ry = (box.H - top - z.r - z.below(2)) / (y1 - y0)
			if ry < 0 {
				lines = 1
				ry = (box.H - top - z.r - z.below(1)) / (y1 - y0)
			}
		}
		if round {
			switch {
			case x1-x0 <= 1e-9:
				rx = ry
			case y1-y0 <= 1e-9:
				ry = rx
			default:
				rx = math.Min(rx, ry)
				ry = rx
			}
		}
		rx, ry = clamp(rx, 0, rcap), clamp(ry, 0, rcap)
	} else if box.H < top+z.r+z.below(2) {
		lines = 1
	}
	// Centre the whole footprint, words and all, in the box.
	fx0, fx1 := rx*x0-half, rx*x1+half
	fy0, fy1 := ry*y0-z.r-top, ry*y1+z.below(lines)
	centre = Point{box.X + (box.W-(fx1-fx0))/2 - fx0, box.Y + (box.H-(fy1-fy0))/2 - fy0}
	for i := range pts {
		pts[i] = Point{centre.X + rx*xs[i], centre.Y + ry*ys[i]}
	}
	return pts, centre, rx, ry
}

// placeCaptions gives each node the widest room under its disc, up to
// captionMax wide and two lines high, that keeps clear of the other discs
// (and their timer rings), of the other nodes' captions and of the node's
// box. A caption that cannot be as wide as the caption word beside a
// neighbour loses its second line, or shrinks.
func placeCaptions(cs []Point, boxes []Rect, z sizes) []Rect {
	n := len(cs)
	half := make([]float64, n)
	lines := make([]int, n)
	top := func(i int) float64 { return cs[i].Y + z.r + captionGap }
	bottom := func(i int) float64 { return top(i) + float64(lines[i])*z.capLine }
	ink := z.r + inkOut
	for i, c := range cs {
		b := boxes[i]
		half[i] = math.Max(math.Min(captionMax/2, math.Min(c.X-b.X, b.Right()-c.X)), 0)
		lines[i] = clampInt(int((b.Bottom()-top(i))/z.capLine+1e-9), 0, 2)
		for j, d := range cs {
			if j == i {
				continue
			}
			dx := math.Abs(d.X - c.X)
			for lines[i] > 0 {
				if d.Y+ink+textMargin <= top(i) || d.Y-ink-textMargin >= bottom(i) {
					break
				}
				if dx-ink-textMargin >= z.capW/2 || (lines[i] == 1 && dx-ink-textMargin > 0) {
					// Beside the disc; a last line rather narrow than none.
					half[i] = math.Min(half[i], dx-ink-textMargin)
					break
				}
				lines[i]--
			}
		}
	}
	for i := range cs {
		for j := i + 1; j < n; j++ {
			dx := math.Abs(cs[j].X - cs[i].X)
			for lines[i] > 0 && lines[j] > 0 {
				if bottom(i)+textMargin/2 <= top(j) || bottom(j)+textMargin/2 <= top(i) {
					break
				}
				room := dx - textMargin
				if half[i]+half[j] <= room {
					break
				}
				if room >= z.capW {
					switch {
					case half[i] <= room/2:
						half[j] = room - half[i]
					case half[j] <= room/2:
						half[i] = room - half[j]
					default:
						half[i], half[j] = room/2, room/2
					}
					break
				}
				// Too close side by side: the higher one keeps one line.
				up := i
				if top(j) < top(i) {
					up = j
				}
				if lines[up] == 2 && math.Abs(top(i)-top(j)) > 1e-9 {
					lines[up]--
					continue
				}
				half[i], half[j] = math.Min(half[i], math.Max(room/2, 0)), math.Min(half[j], math.Max(room/2, 0))
				break
			}
		}
	}
	out := make([]Rect, n)
	for i, c := range cs {
		if lines[i] > 0 && half[i] > 0 {
			out[i] = Rect{c.X - half[i], top(i), 2 * half[i], float64(lines[i]) * z.capLine}
		} else {
			// No room for words: an empty box under the disc.
			out[i] = Rect{c.X, c.Y + z.r, 0, 0}
		}
	}
	return out
}

// fits tells how well nodes at cs with captions caps fit: discs inside
// their boxes and apart, then every name in its disc, then every caption
// at least one line of the caption word.
func fits(cs []Point, caps, boxes []Rect, z sizes) int {
	for i, c := range cs {
		if !boxes[i].Inset(-1e-9).ContainsCircle(Circle{c, z.r}) {
			return fitNone
		}
		for j := i + 1; j < len(cs); j++ {
			if c.Dist(cs[j]) < 2*z.r+nodeGap-1e-9 {
				return fitNone
			}
		}
	}
	if !z.namesFit {
		return fitDiscs
	}
	for i := range cs {
		if caps[i].W < z.capW-1e-9 || caps[i].H < z.capLine-1e-9 {
			return fitNames
		}
	}
	return fitCaption
}

// fitGroup places m nodes in box: one alone in the middle (with room
// for a badge above it when lone), more on an ellipse turned whichever
// way fits better and leaves more room between them (a circle when round).
// Where the words do not fit that way at any size and z.others allows,
// a circle gives way to an ellipse, and an ellipse to rows of nodes, each
// row's words under it. It reports how well they fit.
func fitGroup(m int, box Rect, z sizes, lone bool, rcap float64, round bool) (pts []Point, caps []Rect, centre Point, radius float64, fit int) {
	top := 0.0
	if lone {
		top = badgeRoom
	}
	boxes := make([]Rect, m)
	for i := range boxes {
		boxes[i] = box
	}
	bestGap := -1.0
	try := func(p []Point, c Point, rad float64) {
		cp := placeCaptions(p, boxes, z)
		f := fits(p, cp, boxes, z)
		gap := math.Inf(1)
		for i := range p {
			for j := i + 1; j < m; j++ {
				gap = math.Min(gap, p[i].Dist(p[j]))
			}
		}
		if pts == nil || f > fit || (f == fit && gap > bestGap+1e-9) {
			pts, caps, centre, radius, fit, bestGap = p, cp, c, rad, f, gap
		}
	}
	ellipses := func(round bool) {
		phases := []float64{0}
		if m > 1 && !round {
			phases = append(phases, math.Pi/float64(m))
		}
		for _, capped := range []float64{rcap, math.Inf(1)} {
			for _, ph := range phases {
				p, c, rx, ry := placeRing(m, box, z, ph, top, capped, round)
				try(p, c, math.Max(rx, ry))
			}
			if fit == fitCaption {
				return
			}
		}
	}
	ellipses(round)
	if !z.others {
		return pts, caps, centre, radius, fit
	}
	if fit < fitCaption && round && m > 2 {
		ellipses(false)
	}
	for rows := 2; rows <= 3 && fit < fitCaption && m > rows; rows++ {
		p, c, rad := placeRows(m, rows, box, z)
		try(p, c, rad)
	}
	return pts, caps, centre, radius, fit
}

// placeRows puts m nodes in rows across box, the upper rows taking one
// more where they cannot all be equal, each row centred and spaced evenly
// (up to about a node and a half apart) with room for two lines of words
// under it where the box is tall enough, else one. The order runs along
// the first row and back along the next, so that neighbours stay
// neighbours. It returns the centres, the box's centre and how far the
// farthest node is from it.
func placeRows(m, rows int, box Rect, z sizes) (pts []Point, centre Point, radius float64) {
	// A row reaches from the top of its discs to the bottom of its words;
	// the next row's discs and their timer rings keep a margin below.
	// Every node is linked to every other, so no three may stand in a
	// line, or one link would run along another and through a disc: each
	// row bows (its ends rise by lift; a parabola has no three points in a
	// line), and the middle of three rows moves off the columns.
	lift := z.r * 0.45
	lines := 2
	rowH := z.r + z.below(lines) + lift
	sep := inkOut + textMargin
	if float64(rows)*rowH+float64(rows-1)*sep > box.H {
		lines = 1
		rowH = z.r + z.below(lines) + lift
	}
	pitch := math.Max(math.Min((box.H-rowH)/float64(max(rows-1, 1)), rowH+sep+z.r), rowH+sep)
	y0 := box.Y + (box.H-(float64(rows-1)*pitch+rowH))/2 + z.r + lift
	cellCap := 1.6 * (2*z.half() + textMargin)
	centre = box.Center()
	for row := range rows {
		cnt := m / rows
		if row < m%rows {
			cnt++
		}
		cell := math.Min(box.W/float64(cnt), cellCap)
		x0 := box.X + (box.W-float64(cnt)*cell)/2 + cell/2
		y := y0 + float64(row)*pitch
		mid := float64(cnt-1) / 2
		bow := lift / math.Max(mid*mid, 1)
		shift := 0.0
		if rows == 3 && row == 1 {
			shift = cell / 6
		}
		for j := range cnt {
			k := j
			if row%2 == 1 {
				k = cnt - 1 - j
			}
			d := float64(k) - mid
			p := Point{x0 + float64(k)*cell + shift, y - lift + bow*d*d}
			pts = append(pts, p)
			radius = math.Max(radius, centre.Dist(p))
		}
	}
	return pts, centre, radius
}

// ringMargin is the room kept between a ring and the edge of its box.
func ringMargin(box Rect) float64 {
	return clamp(math.Min(box.W, box.H)*0.04, 2, 24)
}

// clearOfEdges is r moved in from each side of canvas it comes nearer to
// than reach, by what it lacks (never to less than half its size).
func clearOfEdges(r, canvas Rect, reach float64) Rect {
	if d := math.Min(reach-(r.X-canvas.X), r.W/4); d > 0 {
		r.X, r.W = r.X+d, r.W-d
	}
	if d := math.Min(reach-(canvas.Right()-r.Right()), r.W/4); d > 0 {
		r.W -= d
	}
	if d := math.Min(reach-(r.Y-canvas.Y), r.H/4); d > 0 {
		r.Y, r.H = r.Y+d, r.H-d
	}
	if d := math.Min(reach-(canvas.Bottom()-r.Bottom()), r.H/4); d > 0 {
		r.H -= d
	}
	return r
}

// layoutRing puts the nodes on one ring in the cluster, with the largest
// discs (up to rMax) at which every name and caption fits; where none
// does, the largest at which the names fit, else the discs.
func (l *Layout) layoutRing(n int, rMax float64, sz sizer) placement {
	// A disc's outermost ring (the selection's) reaches ringOut out of it:
	// never as far as the canvas's edge.
	box := clearOfEdges(l.Cluster.Inset(ringMargin(l.Cluster)), l.Canvas, ringOut)
	got := placement{fit: fitNone - 1}
	for r := rMax; r >= minNodeR-1e-9 || (got.fit == fitNone && r >= 4); r -= rStep {
		z := sz.at(r)
		_, _, _, R, fit := fitGroup(n, box, z, false, math.Inf(1), true)
		if p := (placement{fit: fit, r: r, room: R}); p.better(got) {
			got = p
		}
		if fit == fitCaption {
			break
		}
	}
	if got.fit == fitNone {
		// Nothing fits: at least keep the discs apart and inside.
		z, pts, c, R := l.fallbackRing(n, rMax, sz)
		l.setNodes(z, pts, placeCaptions(pts, repeatRect(l.Cluster, n), z))
		l.Ring = Circle{c, R}
		return placement{fit: fitNone, r: z.r, room: R}
	}
	z := sz.at(got.r)
	pts, caps, c, R, _ := fitGroup(n, box, z, false, math.Inf(1), true)
	l.setNodes(z, pts, caps)
	l.Ring = Circle{c, R}
	if n == 1 {
		l.Ring = Circle{pts[0], 0}
	}
	return got
}

// fallbackRing is the ring when the words cannot fit: the largest discs
// that stay inside the cluster and apart, centred.
func (l *Layout) fallbackRing(n int, rMax float64, sz sizer) (sizes, []Point, Point, float64) {
	short := math.Min(l.Cluster.W, l.Cluster.H)
	avail := math.Max(short/2-clamp(short*0.06, 2, 40), 0)
	R, r := 0.0, math.Min(rMax, avail)
	if n > 1 {
		s := math.Sin(math.Pi / float64(n))
		r = clamp((avail*s-nodeGap/2)/(1+s), 0, rMax)
		R = avail - r
	}
	c := Circle{l.Cluster.Center(), R}
	pts := make([]Point, n)
	for i := range pts {
		pts[i] = ringPoint(c, i, n)
	}
	return sz.at(r), pts, c.C, R
}

func repeatRect(r Rect, n int) []Rect {
	out := make([]Rect, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// setNodes puts the nodes at pts with captions caps and sizes z.
func (l *Layout) setNodes(z sizes, pts []Point, caps []Rect) {
	l.NodeRadius, l.LabelSize, l.CaptionSize = z.r, z.label, z.capSize
	for i := range l.Nodes {
		c := pts[i]
		l.Nodes[i].Center = c
		l.Nodes[i].Caption = caps[i]
		l.Nodes[i].Label = Rect{c.X, c.Y, 0, 0}
		if z.labelW > 0 {
			l.Nodes[i].Label = Rect{c.X - z.labelW/2, c.Y - z.label/2, z.labelW, z.label}
		}
	}
}

// CaptionLines is how many lines of words fit under node i's disc.
func (l *Layout) CaptionLines(i int) int {
	if i < 0 || i >= len(l.Nodes) || l.CaptionSize <= 0 {
		return 0
	}
	return int(l.Nodes[i].Caption.H/(l.CaptionSize*CaptionLineHeight) + 1e-6)
}

// zoneLabelH is the height of a zone's label strip in cluster c.
func zoneLabelH(c Rect) float64 {
	return clamp(math.Min(c.W, c.H)*0.07, minZoneLabelH, maxZoneLabelH)
}

// zoneNeed is the least length along the split a zone needs at sizes z:
// its width when zones sit side by side (across), else its height; the
// other side of the zone is full. An empty zone needs room for its label
// and a disc to be dropped in; a side needs room for its nodes (found by
// bisection) and its count.
func zoneNeed(m int, c Rect, across bool, z sizes, sz sizer) (float64, bool) {
	labelH := zoneLabelH(c)
	if m == 0 {
		if across {
			return math.Max(sz.drop+8, 2*z.r+8) + 2*zoneInset, true
		}
		return labelH + 2 + 2*z.r + 8 + 2*zoneInset, true
	}
	full := c.W
	if !across {
		full = c.H
	}
	body := func(length float64) Rect {
		zr := Rect{c.X, c.Y, c.W, c.H}
		if across {
			zr.W = length
		} else {
			zr.H = length
		}
		_, b := zr.Inset(zoneInset).cutTop(labelH, 2)
		return b
	}
	ok := func(length float64) bool {
		_, _, _, _, fit := fitGroup(m, body(length), z, m == 1, math.Inf(1), false)
		return fit == fitCaption
	}
	if !ok(full) {
		return full, false
	}
	lo, hi := 0.0, full
	if across {
		lo = math.Min(sz.count+8+2*zoneInset, full)
	}
	if ok(lo) {
		return lo, true
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi, true
}

// layoutZones splits the cluster into labelled zones, side by side or
// one above another, each as long as its nodes need plus a share of the
// rest in proportion to its nodes (an empty zone gets no share), and puts
// each zone's nodes on a small ring or ellipse inside it. Every node gets
// the same radius: the largest (up to rMax) at which every zone fits.
func (l *Layout) layoutZones(n int, zoneOf []int, count int, rMax float64, sz sizer) placement {
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
	// A disc at a zone's side reaches with its outermost ring (the
	// selection's, ringOut beyond it) out of the zone: where the zone
	// meets the canvas's edge the cluster keeps that far in, so that the
	// edge never cuts the ring.
	full := l.Cluster
	c := clearOfEdges(full, l.Canvas, ringOut-zoneInset)
	l.Cluster = c
	defer func() { l.Cluster = full }()
	var best *Layout
	var bestFit placement
	for r := rMax; r >= minNodeR-1e-9 || (bestFit.fit == fitNone && r >= 4); r -= rStep {
		z := sz.at(r)
		for _, across := range []bool{c.W >= c.H, c.W < c.H} {
			try := *l
			try.Nodes = append([]Node(nil), l.Nodes...)
			pl := try.zonesAt(members, across, z, sz)
			if best == nil || pl.better(bestFit) {
				best, bestFit = &try, pl
			}
		}
		if bestFit.fit == fitCaption {
			break
		}
	}
	*l = *best
	return bestFit
}

// zonesAt lays the zones out at sizes z, side by side (across) or one
// above another.
func (l *Layout) zonesAt(members [][]int, across bool, z sizes, sz sizer) placement {
	c := l.Cluster
	k := len(members)
	n := len(l.Nodes)
	full := c.W
	if !across {
		full = c.H
	}
	needs := make([]float64, k)
	total := zoneInset * float64(k-1)
	for i, m := range members {
		need, _ := zoneNeed(len(m), c, across, z, sz)
		needs[i] = need
		total += need
	}
	spare := full - total
	if spare < 0 {
		// Too little room: every zone gives up the same part of its need.
		gaps := zoneInset * float64(k-1)
		f := math.Max(full-gaps, 0) / math.Max(total-gaps, 1e-9)
		for i := range needs {
			needs[i] *= f
		}
		spare = 0
	}
	labelH := zoneLabelH(c)
	l.Zones = make([]Zone, k)
	off := 0.0
	room := spare / math.Max(full, 1)
	for zi, m := range members {
		length := needs[zi] + spare*float64(len(m))/float64(max(n, 1))
		region := Rect{c.X + off, c.Y, length, c.H}
		if !across {
			region = Rect{c.X, c.Y + off, c.W, length}
		}
		if zi == k-1 {
			// The last zone ends where the cluster does.
			if across {
				region.W = c.Right() - region.X
			} else {
				region.H = c.Bottom() - region.Y
			}
		}
		off += length + zoneInset
		label, body := region.Inset(zoneInset).cutTop(labelH, 2)
		l.Zones[zi] = Zone{Index: zi, Name: "Zone " + string(rune('A'+zi)), Rect: region, Label: label, Body: body}
		if len(m) == 0 {
			continue
		}
		pts, caps, _, _, _ := fitGroup(len(m), body, z, len(m) == 1, zoneRingCap(len(m), z), false)
		for j, i := range m {
			l.Nodes[i].Center = pts[j]
			l.Nodes[i].Caption = caps[j]
			l.Nodes[i].Zone = zi
		}
	}
	l.liftLoneNodes(members, across, z)
	pts := make([]Point, n)
	caps := make([]Rect, n)
	boxes := make([]Rect, n)
	for i, nd := range l.Nodes {
		pts[i], boxes[i] = nd.Center, l.Zones[nd.Zone].Body
	}
	// Captions again over all the nodes: a zone's words keep clear of the
	// next zone's nodes too.
	copy(caps, placeCaptions(pts, boxes, z))
	fit := fits(pts, caps, boxes, z)
	l.setNodes(z, pts, caps)
	l.Ring = Circle{}
	return placement{fit: fit, r: z.r, room: room}
}

// liftLoneNodes moves the node of a zone that holds only one off the
// line between two nodes of other zones: zones in a row, one node each,
// would put their nodes in a straight line, and the middle disc would
// hide the link between the outer two. The node moves across the row
// (down or up, or left when the zones are stacked), as far as its zone
// allows, up to two radii.
func (l *Layout) liftLoneNodes(members [][]int, across bool, z sizes) {
	for zi, m := range members {
		if len(m) != 1 {
			continue
		}
		i := m[0]
		c := l.Nodes[i].Center
		hidden := false
		for a := range l.Nodes {
			for b := a + 1; b < len(l.Nodes); b++ {
				if a != i && b != i && l.Nodes[a].Zone != zi && l.Nodes[b].Zone != zi &&
					(Segment{l.Nodes[a].Center, l.Nodes[b].Center}).Dist(c) < 1.5*z.r {
					hidden = true
				}
			}
		}
		if !hidden {
			continue
		}
		body := l.Zones[zi].Body
		if across {
			// Down, where the link passes over the disc, clear of the
			// words under it; up, through those words, only when the
			// zone has no room below.
			below := body.Bottom() - c.Y - z.below(2)
			if d := math.Min(2*z.r, below); d >= 1.5*z.r {
				c.Y += d
			} else {
				c.Y -= math.Max(0, math.Min(2*z.r, c.Y-z.r-textMargin-body.Y))
			}
		} else {
			c.X -= math.Max(0, math.Min(2*z.r, c.X-z.half()-body.X))
		}
		l.Nodes[i].Center = c
	}
}

// zoneRingCap is the largest ring radius for m nodes in a zone: about a
// node and a half of room between neighbours, so that a roomy zone does
// not scatter its few nodes to its corners.
func zoneRingCap(m int, z sizes) float64 {
	if m < 2 {
		return 0
	}
	return 1.6 * (2*z.half() + textMargin) / (2 * math.Sin(math.Pi/float64(m)))
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
		return l.workerLink(a, b)
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
