// Package stage is where things go on the canvas: its size and whether a
// finger or a mouse points at it, the layout of the machines, their logs,
// the panels and the controls (viz.ComputeLayout), and the zones the
// cluster is drawn in: one per side while the network is cleanly split,
// so that a partition is seen at a glance, or the world's failure
// domains. The layout is worked out again only when what it depends on
// changes.
package stage

import (
	"strings"

	"raftlab/viz"
	"raftlab/viz/words"
)

// ZoneMode says what the zones of a zone layout stand for.
type ZoneMode uint8

// The zone modes.
const (
	ZonesNone      ZoneMode = iota // a ring
	ZonesPartition                 // the sides of a clean network partition
	ZonesWorld                     // the world's failure domains
)

// phoneWidth is the width under which a canvas is laid out as a phone's.
const phoneWidth = 600

// Input is what the layout depends on besides the canvas.
type Input struct {
	// W and H are the room the machines, logs, panels and controls have:
	// the canvas, less an embedded figure's words.
	W, H float64
	// Names are the machines' names; Caption and Short the widest word
	// under a machine and its short form.
	Names          []string
	Caption, Short string
	Buttons        []viz.Command
	Panels         bool          // side panels are shown (not embedded)
	OnePanel       bool          // one panel at a time, behind tabs (presenter mode)
	Tab            viz.PanelKind // the panel in front, behind tabs
	Figure         bool          // an embedded figure, with its own controls
	// WorldZones is each machine's failure domain in a world with zones
	// (nil otherwise), ZoneCount how many there are. Sides are the sides
	// of a clean network partition (nil when the network is not cleanly
	// split).
	WorldZones []int
	ZoneCount  int
	Sides      [][]int
	// Spares marks the machines that are not in the cluster's
	// configuration: a ring layout keeps them in a tray apart (nil when
	// every machine is a member).
	Spares  []bool
	Measure func(string, float64) float64
	// Logs, when not empty, is room of the log rows' own, outside W×H
	// (viz.LayoutOptions.Logs): a figure about the histories gives them
	// its panel's place.
	Logs viz.Rect
	// Workers is how many worker machines the world has: they take a
	// band of their own under the cluster (viz.LayoutOptions.Workers).
	Workers int
}

// Stage owns the canvas and its layout.
type Stage struct {
	w, h  float64
	touch bool
	lay   viz.Layout
	key   layoutKey
	// zones is each machine's zone (nil for a ring), sides the partition's
	// sides, memo each machine's side when the last partition was drawn,
	// so that sides keep their places when machines move between them.
	zones []int
	sides [][]int
	mode  ZoneMode
	memo  []int
	// bars are the strips above and below a figure's machines that hold
	// its controls.
	bars [2]viz.Rect
	// figure is an embedded figure's geometry, kept with what it was
	// worked out for (see Figure).
	figure struct {
		key  any
		geom FigureGeom
		ok   bool
	}
}

// layoutKey is everything the layout depends on.
type layoutKey struct {
	w, h    float64
	n       int
	panels  bool
	one     bool
	active  viz.PanelKind
	zones   string
	count   int
	buttons string
	words   string // names and caption word
	logs    viz.Rect
	spares  string
	workers int
}

// New is a stage of w×h logical pixels.
func New(w, h float64) *Stage { return &Stage{w: w, h: h} }

// W and H are the canvas's size in logical pixels.
func (s *Stage) W() float64 { return s.w }

// H is the canvas's height.
func (s *Stage) H() float64 { return s.h }

// Resize sets the canvas's size; it reports whether that changed.
func (s *Stage) Resize(w, h float64) bool {
	if w == s.w && h == s.h {
		return false
	}
	s.w, s.h = w, h
	return true
}

// Touch reports whether the reader points with a finger.
func (s *Stage) Touch() bool { return s.touch }

// SetTouch says whether the reader points with a finger (targets widen);
// it reports whether that changed.
func (s *Stage) SetTouch(t bool) bool {
	changed := s.touch != t
	s.touch = t
	return changed
}

// Phone reports whether the canvas is laid out as a phone's.
func (s *Stage) Phone() bool { return s.w < phoneWidth }

// Layout is the current layout (read only).
func (s *Stage) Layout() *viz.Layout { return &s.lay }

// Zones is each machine's zone, or nil for a ring.
func (s *Stage) Zones() []int { return s.zones }

// Sides are the sides of the partition drawn (nil when none).
func (s *Stage) Sides() [][]int { return s.sides }

// Mode says what the zones stand for.
func (s *Stage) Mode() ZoneMode { return s.mode }

// Bars are the strips above and below a figure's machines that hold its
// controls.
func (s *Stage) Bars() [2]viz.Rect { return s.bars }

// Sheet reports whether menus open as a sheet over the panels rather than
// beside what they are about: on a narrow canvas a popover would hide the
// cluster the reader is changing.
func (s *Stage) Sheet() bool { return s.lay.Tabbed && s.lay.Orientation == viz.Portrait }

// ForgetWorld forgets the sides of the old world's partition and the
// layout worked out for it.
func (s *Stage) ForgetWorld() {
	s.key, s.memo = layoutKey{}, nil
	s.figure.ok = false
}

// FigureGeom is where a figure's parts go: the stage (the layout's canvas:
// the figure's controls, the machines and their logs), its words and its
// panel (empty when the figure is about the stage alone).
type FigureGeom struct {
	Stage, Words, Panel viz.Rect
}

// Figure is a figure's geometry for key (everything it depends on, which
// must be comparable): kept from the last call with the same key,
// otherwise laid out by lay. Sizing a figure's words wraps every step's
// text, so it is worked out only when what it depends on changes, not on
// every frame of a playing figure.
func (s *Stage) Figure(key any, lay func() FigureGeom) FigureGeom {
	if s.figure.ok && s.figure.key == key {
		return s.figure.geom
	}
	g := lay()
	s.figure.key, s.figure.geom, s.figure.ok = key, g, true
	return g
}

// Fit lays the stage out for in, when anything it depends on changed; it
// reports whether the layout changed. The cluster is a ring, or zones: one
// per side when the network is cleanly split, or the world's domains.
func (s *Stage) Fit(in Input) bool {
	count := s.placeZones(in)
	key := layoutKey{w: in.W, h: in.H, n: len(in.Names), panels: in.Panels, one: in.OnePanel, active: in.Tab, count: count,
		buttons: commandsKey(in.Buttons), words: strings.Join(in.Names, "\x00") + "\x00" + in.Caption, logs: in.Logs, workers: in.Workers}
	for _, z := range s.zones {
		key.zones += string(rune('0' + z))
	}
	if s.zones == nil {
		for _, sp := range in.Spares {
			key.spares += map[bool]string{false: "m", true: "s"}[sp]
		}
	}
	if key == s.key {
		return false
	}
	s.key = key
	o := viz.LayoutOptions{Width: in.W, Height: in.H, Nodes: len(in.Names), Panels: in.Panels, OnePanel: in.OnePanel, Active: in.Tab, Buttons: in.Buttons,
		Names: in.Names, Caption: in.Caption, Short: in.Short, Drop: words.DropHere, Count: words.WidestCount, Measure: in.Measure, Logs: in.Logs, Workers: in.Workers}
	if s.zones != nil {
		o.Zones, o.ZoneCount = s.zones, count
	} else {
		o.Spares = in.Spares
	}
	s.lay = viz.ComputeLayout(o)
	if s.mode == ZonesPartition && count > len(s.sides) && s.Phone() && (!s.lay.WordsFit || s.lay.CaptionShort) {
		// On a phone the drop zone gives way to the words.
		o.ZoneCount = len(s.sides)
		if l := viz.ComputeLayout(o); l.WordsFit && (!s.lay.WordsFit || !l.CaptionShort) {
			s.lay = l
		}
	}
	if in.Figure {
		// A figure's controls take the toolbar's and the timeline's
		// strips; it has no speed slider and no timeline.
		s.bars = [2]viz.Rect{s.lay.Toolbar, s.lay.Timeline}
		s.lay.Speed, s.lay.Timeline = viz.Rect{}, viz.Rect{}
	}
	return true
}

// placeZones sets each machine's zone for in and returns how many zones
// the layout has room for.
func (s *Stage) placeZones(in Input) (count int) {
	n := len(in.Names)
	s.zones, s.sides, s.mode = nil, nil, ZonesNone
	switch {
	case in.WorldZones != nil:
		s.zones, s.mode = in.WorldZones, ZonesWorld
		count = in.ZoneCount
	case len(in.Sides) >= 2 && len(in.Sides) <= viz.MaxZones:
		s.sides, s.mode = keepSides(in.Sides, s.memo), ZonesPartition
		s.zones = make([]int, n)
		for z, g := range s.sides {
			for _, i := range g {
				s.zones[i] = z
			}
		}
		// An empty zone to drop a machine in makes a further split one
		// gesture; on a narrow canvas only where it leaves every word its
		// room (see Fit).
		count = min(len(s.sides)+1, viz.MaxZones)
		if in.Figure && s.Phone() {
			// A figure on a phone has a small stage and its own story:
			// no room for a zone that waits for a drop.
			count = len(s.sides)
		}
	}
	s.memo = nil
	if s.mode == ZonesPartition {
		s.memo = s.zones
	}
	return count
}

func commandsKey(cs []viz.Command) string {
	b := make([]byte, len(cs))
	for i, c := range cs {
		b[i] = byte('a' + int(c))
	}
	return string(b)
}

// keepSides orders the sides of a partition so that each stays in the
// zone most of its machines were in before (memo holds each machine's
// previous zone): a machine dragged to the right goes right, and the
// others stay put.
func keepSides(gs [][]int, memo []int) [][]int {
	if memo == nil {
		return gs
	}
	out := make([][]int, len(gs))
	// Larger sides choose first.
	order := make([]int, len(gs))
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && len(gs[order[j]]) > len(gs[order[j-1]]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var left []int
	for _, g := range order {
		votes := make([]int, viz.MaxZones)
		for _, i := range gs[g] {
			if i < len(memo) && memo[i] >= 0 && memo[i] < len(votes) {
				votes[memo[i]]++
			}
		}
		best := -1
		for z, v := range votes {
			if v > 0 && z < len(out) && out[z] == nil && (best < 0 || v > votes[best]) {
				best = z
			}
		}
		if best < 0 {
			left = append(left, g)
			continue
		}
		out[best] = gs[g]
	}
	for _, g := range left {
		for z := range out {
			if out[z] == nil {
				out[z] = gs[g]
				break
			}
		}
	}
	return out
}
