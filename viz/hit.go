package viz

// HitKind says what kind of thing lies under a point.
type HitKind int

// Hit kinds. Where things overlap the earlier kinds in this list win:
// message dot, then node, then link, then the sliders and panels. The
// app's controls (the toolbar's buttons, the tabs) are not among them: the
// app hit-tests its controls against the frame it drew.
const (
	HitNone     HitKind = iota // outside everything (margins, gaps)
	HitMessage                 // a message dot; Hit.Msg is its id
	HitNode                    // a node's disc; Hit.Node
	HitLink                    // near a link, inside the cluster; Hit.Link, Hit.Lane
	HitSpeed                   // the speed slider; Hit.Frac
	HitPanel                   // a visible panel; Hit.Panel
	HitTimeline                // the timeline strip; Hit.Frac
	HitLog                     // a node's log row; Hit.Node
	HitCluster                 // empty space in the cluster
	HitToolbar                 // the toolbar between its controls
	HitZone                    // a zone's label strip; Hit.Zone
)

var hitNames = [...]string{"none", "message", "node", "link", "speed", "panel", "timeline", "log", "cluster", "toolbar", "zone"}

func (k HitKind) String() string { return enumName(hitNames[:], k) }

// enumName returns names[v], or "?" when v is out of range.
func enumName[T ~int](names []string, v T) string {
	if v < 0 || int(v) >= len(names) {
		return "?"
	}
	return names[v]
}

// MessageDot is a message drawn at Pos, for hit-testing.
type MessageDot struct {
	ID  int64
	Pos Point
}

// Hit is what lies under a point. Fields that do not apply to Kind hold
// their zero value, except Node, which is -1 unless Kind is HitNode or
// HitLog.
type Hit struct {
	Kind  HitKind
	Node  int       // HitNode, HitLog
	Link  LinkID    // HitLink
	Lane  int       // HitLink: the nearer lane, 0 for Link.I→Link.J, 1 for J→I
	Msg   int64     // HitMessage
	Panel PanelKind // HitPanel
	Frac  float64   // HitSpeed, HitTimeline: 0 at the left end, 1 at the right
	// Zone is the zone under the point in a zone layout, else -1.
	Zone int
}

// HitOptions tune how generous hit-testing is. Zero values take defaults
// that depend on Touch.
type HitOptions struct {
	// Touch widens every target for fingers.
	Touch bool
	// LinkTolerance is how far from a link's lanes a point still hits it;
	// default 5 pixels, 12 for touch.
	LinkTolerance float64
	// Slack widens node discs and message dots; default 0, 8 for touch.
	Slack float64
}

func (o HitOptions) linkTolerance() float64 {
	switch {
	case o.LinkTolerance > 0:
		return o.LinkTolerance
	case o.Touch:
		return 12
	}
	return 5
}

func (o HitOptions) slack() float64 {
	switch {
	case o.Slack > 0:
		return o.Slack
	case o.Touch:
		return 8
	}
	return 0
}

// HitTest returns what lies under p. msgs are the message dots drawn now
// (later ones are drawn on top). Of several message dots, nodes or links
// within reach, the nearest wins; a tie goes to the one drawn on top.
func (l *Layout) HitTest(p Point, msgs []MessageDot, o HitOptions) Hit {
	h := Hit{Kind: HitNone, Node: -1, Zone: l.ZoneAt(p)}
	if m, ok := l.hitMessage(p, msgs, o.slack()); ok {
		h.Kind, h.Msg = HitMessage, m
		return h
	}
	if i, ok := l.hitNode(p, o.slack()); ok {
		h.Kind, h.Node = HitNode, i
		return h
	}
	// A worker's box is a machine too (Hit.Node past the nodes).
	if i := l.WorkerAt(p); i >= 0 {
		h.Kind, h.Node = HitNode, i
		return h
	}
	// A zone's label strip opens the zone's menu, so it comes before the
	// links that may cross it.
	for _, z := range l.Zones {
		if z.Label.Contains(p) {
			h.Kind = HitZone
			return h
		}
	}
	if id, lane, ok := l.hitLink(p, o.linkTolerance()); ok && l.Cluster.Contains(p) {
		h.Kind, h.Link, h.Lane = HitLink, id, lane
		return h
	}
	if l.Speed.Contains(p) {
		h.Kind, h.Frac = HitSpeed, l.Speed.Frac(p)
		return h
	}
	for _, pn := range l.Panels {
		if pn.Visible && pn.Rect.Contains(p) {
			h.Kind, h.Panel = HitPanel, pn.Kind
			return h
		}
	}
	if l.Timeline.Contains(p) {
		h.Kind, h.Frac = HitTimeline, l.Timeline.Frac(p)
		return h
	}
	for i, nd := range l.Nodes {
		if nd.LogLabel.Contains(p) || nd.LogStrip.Contains(p) {
			h.Kind, h.Node = HitLog, i
			return h
		}
	}
	switch {
	case l.Cluster.Contains(p):
		h.Kind = HitCluster
	case l.Toolbar.Contains(p):
		h.Kind = HitToolbar
	}
	return h
}

// nearest returns the index of the candidate nearest p within reach, with
// ties going to the later candidate, and false when none is in reach.
func nearest(count int, dist func(i int) float64, reach float64) (int, bool) {
	best, bestD := -1, 0.0
	for i := range count {
		if d := dist(i); d <= reach && (best < 0 || d <= bestD) {
			best, bestD = i, d
		}
	}
	return best, best >= 0
}

func (l *Layout) hitMessage(p Point, msgs []MessageDot, slack float64) (int64, bool) {
	i, ok := nearest(len(msgs), func(i int) float64 { return p.Dist(msgs[i].Pos) }, l.MessageRadius+slack)
	if !ok {
		return 0, false
	}
	return msgs[i].ID, true
}

func (l *Layout) hitNode(p Point, slack float64) (int, bool) {
	return nearest(len(l.Nodes), func(i int) float64 { return p.Dist(l.Nodes[i].Center) }, l.NodeRadius+slack)
}

func (l *Layout) hitLink(p Point, tol float64) (LinkID, int, bool) {
	dist := func(i int) float64 {
		lk := l.Links[i]
		return min(lk.Lanes[0].Dist(p), lk.Lanes[1].Dist(p), lk.Seg.Dist(p))
	}
	i, ok := nearest(len(l.Links), dist, tol)
	if !ok {
		return LinkID{}, 0, false
	}
	lk := l.Links[i]
	lane := 0
	// A point as near both lanes (on the link's centre line) takes lane 0.
	if lk.Lanes[1].Dist(p) < lk.Lanes[0].Dist(p)-1e-9 {
		lane = 1
	}
	return lk.LinkID, lane, true
}
