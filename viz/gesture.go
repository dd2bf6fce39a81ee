package viz

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// PointerAction is what a pointer did.
type PointerAction int

// Pointer actions.
const (
	PointerDown   PointerAction = iota // pressed: mouse button down or finger on the screen
	PointerMove                        // moved while pressed (moves while not pressed are ignored)
	PointerUp                          // released
	PointerCancel                      // the system took the pointer away (touch cancel, focus loss)
)

// PointerEvent is one pointer event, from a mouse or a touch screen alike.
type PointerEvent struct {
	Action PointerAction
	// ID tells pointers apart: a touch id, or 0 for the mouse. Only the
	// pointer that started a gesture takes part in it.
	ID  int
	Pos Point
	// Time is when the event happened, from any fixed start: real time or
	// virtual frame time (frame f at 60 ticks a second is
	// time.Duration(f)*time.Second/60).
	Time time.Duration
	// Touch marks events from a touch screen: targets widen and a long
	// press opens the menu.
	Touch bool
	// Secondary marks a press of the secondary (right) mouse button, which
	// opens the menu at once.
	Secondary bool
}

// GestureKind says what a gesture was.
type GestureKind int

// Gesture kinds.
const (
	GestureNone GestureKind = iota
	// GestureTap is a click or tap on Target.
	GestureTap
	// GestureMenu asks for the secondary action menu for Target at Pos: a
	// long press, or a secondary-button click.
	GestureMenu
	// GestureCut is a stroke across links that starts anywhere but on a
	// node or a control (empty space, a link, a message dot, the bare
	// toolbar): Links lists every link it crossed, in the order crossed,
	// each once.
	GestureCut
	// GestureNodeDrag reports, while a node is dragged, where its centre
	// is (Pos), whether dropping it now would isolate it (WouldIsolate)
	// and, in a zone layout, the zone it would move to (Zone, else -1).
	GestureNodeDrag
	// GestureIsolate asks to cut Node off from every other node: it was
	// dropped outside the ring.
	GestureIsolate
	// GestureMoveZone asks to move Node to Zone: it was dropped there.
	GestureMoveZone
	// GestureDragCancel ends a node drag that asks for nothing: the node
	// goes back to its place.
	GestureDragCancel
	// GestureScrub reports the pointer dragging along the speed slider or
	// timeline: Target.Kind says which and Target.Frac where.
	GestureScrub
	// GestureJoin asks to add Node, a spare, to the cluster: it was
	// dragged out of the tray and dropped on the cluster.
	GestureJoin
	// GestureLeave asks to take Node out of the cluster: it was dropped
	// in the tray.
	GestureLeave
	// GestureOnto is Node dropped on another node's disc, Target.
	GestureOnto
)

var gestureNames = [...]string{"none", "tap", "menu", "cut", "node-drag", "isolate", "move-zone", "drag-cancel", "scrub",
	"join", "leave", "onto"}

func (k GestureKind) String() string { return enumName(gestureNames[:], k) }

// Gesture is a recognised gesture. Fields that do not apply to Kind hold
// their zero value, except Node and Zone, which are -1.
type Gesture struct {
	Kind         GestureKind
	Target       Hit      // Tap, Menu, Scrub: what was pressed
	Pos          Point    // Tap, Menu: where; NodeDrag, Isolate, MoveZone: the node's centre
	Node         int      // NodeDrag, Isolate, MoveZone, DragCancel
	Zone         int      // MoveZone; NodeDrag when over another zone
	WouldIsolate bool     // NodeDrag
	Links        []LinkID // Cut
}

// GestureConfig tunes the recognizer. Zero values take the defaults.
type GestureConfig struct {
	// TapSlop is how far a mouse may move and still click; default 4.
	TapSlop float64
	// TouchTapSlop is the same for a finger; default 10.
	TouchTapSlop float64
	// LongPress is how long a still press takes to open the menu;
	// default 500ms.
	LongPress time.Duration
	// MouseLongPress lets a long mouse press open the menu too; by default
	// only touch does.
	MouseLongPress bool
	// IsolateDistance is how far beyond the ring a node must be dropped to
	// be isolated; default 1.5 node radii, at least 24.
	IsolateDistance float64
	// ClickDrag is how far a node may be dragged and still count as a
	// click on it; default one node radius.
	ClickDrag float64
	// Hit tunes hit-testing; Touch is taken from each press.
	Hit HitOptions
}

func (c GestureConfig) slop(touch bool) float64 {
	switch {
	case touch && c.TouchTapSlop > 0:
		return c.TouchTapSlop
	case touch:
		return 10
	case c.TapSlop > 0:
		return c.TapSlop
	}
	return 4
}

func (c GestureConfig) longPress() time.Duration {
	if c.LongPress > 0 {
		return c.LongPress
	}
	return 500 * time.Millisecond
}

func (c GestureConfig) isolateDistance(l *Layout) float64 {
	if c.IsolateDistance > 0 {
		return c.IsolateDistance
	}
	return math.Max(1.5*l.NodeRadius, 24)
}

func (c GestureConfig) clickDrag(l *Layout) float64 {
	if c.ClickDrag > 0 {
		return c.ClickDrag
	}
	return l.NodeRadius
}

type gestureState int

const (
	idle      gestureState = iota
	pressed                // down, not yet moved past the slop
	cutting                // drawing a cut stroke
	dragging               // dragging a node
	scrubbing              // dragging along the slider or timeline
	spent                  // gesture decided; waiting for release
)

// Recognizer turns pointer events into gestures. Feed it every pointer
// event and call Tick once a frame so a long press fires while the finger
// is still down. The zero value is ready to use with the default
// configuration.
type Recognizer struct {
	cfg      GestureConfig
	state    gestureState
	id       int
	touch    bool
	downPos  Point
	downTime time.Duration
	target   Hit
	grab     Point // pointer minus node centre at the press
	nodePos  Point
	stroke   []Point
	cuts     []LinkID
}

// NewRecognizer returns a recognizer with the given configuration.
func NewRecognizer(cfg GestureConfig) *Recognizer { return &Recognizer{cfg: cfg} }

// Feed takes one pointer event, with the layout and message dots on
// screen now, and returns the gesture it completes or updates, if any.
func (g *Recognizer) Feed(l *Layout, msgs []MessageDot, ev PointerEvent) Gesture {
	if g.state != idle && ev.ID != g.id {
		return none()
	}
	switch ev.Action {
	case PointerDown:
		return g.down(l, msgs, ev)
	case PointerMove:
		return g.move(l, ev)
	case PointerUp:
		return g.up(l, ev)
	case PointerCancel:
		out := none()
		if g.state == dragging {
			out = Gesture{Kind: GestureDragCancel, Node: g.target.Node, Zone: -1}
		}
		g.Reset()
		return out
	}
	return none()
}

// Tick lets time pass with the pointer still; it returns GestureMenu when a
// press has been held long enough.
func (g *Recognizer) Tick(now time.Duration) Gesture {
	if g.longPressDue(now) {
		g.state = spent
		return g.menu()
	}
	return none()
}

// Reset forgets any gesture under way.
func (g *Recognizer) Reset() {
	cfg := g.cfg
	*g = Recognizer{cfg: cfg}
}

// Slop is how far a mouse (touch false) or a finger may wander from where it
// was pressed and still tap.
func (g *Recognizer) Slop(touch bool) float64 { return g.cfg.slop(touch) }

// Active reports whether a pointer is down and taking part in a gesture.
func (g *Recognizer) Active() bool { return g.state != idle }

// Stroke returns the path of the cut stroke under way, or nil.
func (g *Recognizer) Stroke() []Point {
	if g.state != cutting {
		return nil
	}
	return append([]Point(nil), g.stroke...)
}

// Crossed returns the links the cut stroke under way has crossed so far,
// in order, or nil.
func (g *Recognizer) Crossed() []LinkID {
	if g.state != cutting {
		return nil
	}
	return append([]LinkID(nil), g.cuts...)
}

// Dragged returns the node being dragged and where its centre is now.
func (g *Recognizer) Dragged() (node int, pos Point, ok bool) {
	if g.state != dragging {
		return -1, Point{}, false
	}
	return g.target.Node, g.nodePos, true
}

func none() Gesture { return Gesture{Node: -1, Zone: -1} }

func (g *Recognizer) down(l *Layout, msgs []MessageDot, ev PointerEvent) Gesture {
	g.Reset()
	o := g.cfg.Hit
	o.Touch = o.Touch || ev.Touch
	g.state, g.id, g.touch = pressed, ev.ID, ev.Touch
	g.downPos, g.downTime = ev.Pos, ev.Time
	g.target = l.HitTest(ev.Pos, msgs, o)
	if ev.Secondary {
		g.state = spent
		return g.menu()
	}
	return none()
}

func (g *Recognizer) move(l *Layout, ev PointerEvent) Gesture {
	switch g.state {
	case pressed:
		// The slop is tested before the time: a pointer seen outside it has
		// moved, even when the host reports the move late (a slow frame on a
		// busy tablet); only a pointer seen still past the time is a long
		// press. Tick, called every frame, fires the menu for a still one.
		if ev.Pos.Dist(g.downPos) <= g.cfg.slop(g.touch) {
			if g.longPressDue(ev.Time) {
				g.state = spent
				return g.menu()
			}
			return none()
		}
		switch g.target.Kind {
		case HitNode:
			if g.target.Node >= len(l.Nodes) {
				g.state = spent
				return none()
			}
			g.state = dragging
			g.grab = g.downPos.Sub(l.Nodes[g.target.Node].Center)
		case HitCluster, HitLink, HitMessage, HitToolbar, HitNone:
			// A stroke cuts unless it starts on a machine or a control:
			// also from a message dot (links near the leader always carry
			// some) or the bare toolbar just above the ring's top.
			g.state = cutting
			g.stroke = []Point{g.downPos}
		case HitSpeed, HitTimeline:
			g.state = scrubbing
		default:
			g.state = spent
			return none()
		}
		return g.move(l, ev)
	case dragging:
		g.nodePos = ev.Pos.Sub(g.grab)
		kind, zone, _ := g.dropTarget(l)
		return Gesture{Kind: GestureNodeDrag, Node: g.target.Node, Pos: g.nodePos,
			Zone: zone, WouldIsolate: kind == GestureIsolate}
	case cutting:
		g.extendStroke(l, ev.Pos)
	case scrubbing:
		return g.scrub(l, ev.Pos)
	}
	return none()
}

func (g *Recognizer) up(l *Layout, ev PointerEvent) Gesture {
	out := none()
	switch g.state {
	case pressed:
		if g.longPressDue(ev.Time) {
			out = g.menu()
		} else {
			out = Gesture{Kind: GestureTap, Target: g.target, Pos: g.downPos, Node: -1, Zone: -1}
		}
	case dragging:
		g.nodePos = ev.Pos.Sub(g.grab)
		out = g.drop(l)
	case cutting:
		g.extendStroke(l, ev.Pos)
		if len(g.cuts) > 0 {
			out = Gesture{Kind: GestureCut, Links: g.cuts, Node: -1, Zone: -1}
		}
	case scrubbing:
		out = g.scrub(l, ev.Pos)
	}
	g.Reset()
	return out
}

func (g *Recognizer) longPressDue(now time.Duration) bool {
	return g.state == pressed && (g.touch || g.cfg.MouseLongPress) && now-g.downTime >= g.cfg.longPress()
}

func (g *Recognizer) menu() Gesture {
	return Gesture{Kind: GestureMenu, Target: g.target, Pos: g.downPos, Node: -1, Zone: -1}
}

func (g *Recognizer) scrub(l *Layout, p Point) Gesture {
	t := g.target
	if t.Kind == HitSpeed {
		t.Frac = l.Speed.Frac(p)
	} else {
		t.Frac = l.Timeline.Frac(p)
	}
	return Gesture{Kind: GestureScrub, Target: t, Node: -1, Zone: -1}
}

// dropTarget says what dropping the dragged node at its current place
// would ask for: GestureIsolate, GestureMoveZone with the zone,
// GestureOnto with the node it lies on, GestureJoin or GestureLeave
// across the tray's edge, or GestureDragCancel.
func (g *Recognizer) dropTarget(l *Layout) (GestureKind, int, int) {
	node := g.target.Node
	if node < 0 || node >= len(l.Nodes) {
		return GestureDragCancel, -1, -1
	}
	if len(l.Zones) > 0 {
		if z := l.ZoneAt(g.nodePos); z >= 0 && z != l.Nodes[node].Zone {
			return GestureMoveZone, z, -1
		}
		return GestureDragCancel, -1, -1
	}
	switch l.TrayDrop(node, g.nodePos) {
	case 1:
		return GestureJoin, -1, -1
	case -1:
		return GestureLeave, -1, -1
	}
	if j := l.NodeAt(g.nodePos, node); j >= 0 {
		return GestureOnto, -1, j
	}
	if l.Nodes[node].Spare {
		return GestureDragCancel, -1, -1
	}
	if len(l.Nodes) > 1 && g.nodePos.Dist(l.Ring.C)-l.Ring.R > g.cfg.isolateDistance(l) && (l.Tray.Empty() || g.nodePos.Y < l.Tray.Y) {
		return GestureIsolate, -1, -1
	}
	return GestureDragCancel, -1, -1
}

func (g *Recognizer) drop(l *Layout) Gesture {
	node := g.target.Node
	if node >= 0 && node < len(l.Nodes) && g.nodePos.Dist(l.Nodes[node].Center) <= g.cfg.clickDrag(l) {
		return Gesture{Kind: GestureTap, Target: g.target, Pos: g.downPos, Node: -1, Zone: -1}
	}
	kind, zone, onto := g.dropTarget(l)
	out := Gesture{Kind: kind, Node: node, Zone: zone}
	if kind != GestureDragCancel {
		out.Pos = g.nodePos
	}
	if kind == GestureOnto {
		out.Target = Hit{Kind: HitNode, Node: onto}
	}
	return out
}

// extendStroke adds p to the cut stroke and records the links the new
// piece crosses, in the order it crosses them, skipping links already cut.
func (g *Recognizer) extendStroke(l *Layout, p Point) {
	prev := g.stroke[len(g.stroke)-1]
	if p == prev {
		return
	}
	g.stroke = append(g.stroke, p)
	type crossing struct {
		t  float64
		id LinkID
	}
	var found []crossing
	// The links between the nodes and the worker machines cut as theirs
	// do.
	for _, links := range [2][]Link{l.Links, l.WorkerLinks} {
		for _, lk := range links {
			if slices.Contains(g.cuts, lk.LinkID) {
				continue
			}
			if t, ok := SegmentIntersection(prev, p, lk.Seg.A, lk.Seg.B); ok {
				found = append(found, crossing{t, lk.LinkID})
			}
		}
	}
	slices.SortStableFunc(found, func(a, b crossing) int { return cmp.Compare(a.t, b.t) })
	for _, c := range found {
		g.cuts = append(g.cuts, c.id)
	}
}
