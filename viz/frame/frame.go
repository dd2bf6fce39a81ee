// Package frame is the contract between raftlab's app and whatever shows
// it: a Frame is everything drawn in one frame, as plain data in logical
// pixels and tones (colours by meaning); Effects are what the app asks its
// host to do. Painters (package draw with Ebiten, package svg for posters)
// and hosts import this package and never the app, so that they can be
// built and tested with frames alone.
package frame

import "raftlab/viz"

// Tone is a colour by meaning; the draw package maps each onto the theme.
type Tone uint8

// The tones.
const (
	ToneText Tone = iota
	ToneMuted
	ToneAccent
	ToneGood // holding, ok, yes
	ToneBad  // broken, refused, no
	ToneWarn // waiting, slow, lossy
	ToneFollower
	TonePreCandidate
	ToneCandidate
	ToneLeader
	ToneReplica
	ToneDown   // crashed
	TonePaused // frozen
	ToneVote   // vote and pre-vote messages
	ToneAppend // appends and heartbeats
	ToneClient // client requests, forwarded writes, reads
	ToneCopy   // naive-copy messages
	ToneSnap   // a leader's snapshot, sent in place of entries it compacted
	NumTones
)

// Shape is the outline of a machine's disc, so that roles differ by more
// than colour.
type Shape uint8

// Shapes.
const (
	ShapeCircle  Shape = iota // follower, replica
	ShapeDiamond              // pre-candidate (drawn dashed) and candidate
	ShapeSquare               // leader, authority
)

// Frame is everything drawn in one frame, in logical pixels. The draw
// package paints it in order: background, zones, links, messages, nodes,
// logs, panels, controls, overlays.
type Frame struct {
	W, H float64
	// Zoom is how many of the host's pixels a logical pixel takes (0 or
	// 1: one): presenter mode lays the frame out on a smaller canvas and
	// has it painted larger, text and marks with it.
	Zoom    float64
	Theme   Theme
	Embed   bool
	Version uint64

	Zones    []ZoneView
	Links    []LinkView
	Messages []MsgView
	Nodes    []NodeView
	// Workers are Kubernetes' worker machines and their links to the
	// members; empty in a world without them.
	Workers  WorkersView
	Logs     LogsView
	Panels   []PanelView
	Tabs     []Widget
	Toolbar  []Widget
	Speed    SliderView
	Timeline TimelineView
	// Stroke is the cut stroke being drawn, Ghost the node being dragged.
	Stroke []viz.Point
	Ghost  *GhostView
	// Status is the one-line summary of the run at the top right.
	Status TextItem
	// Replay says the stage shows the recorded past; nil when live.
	Replay *ReplayView

	// Caption is an embedded figure's own panel: what to try, the story's
	// step and the figure's controls.
	Caption *MenuView
	Menu    *MenuView
	Help    *HelpView
	// Legend is the key to the marks, opened by Logs.Key.
	Legend  *LegendView
	Banner  *BannerView
	Tooltip *TooltipView
}

// TextItem is a piece of text placed at a point: X, Y is the top-left of
// its line box unless Center is set, then the centre.
type TextItem struct {
	Text   string
	X, Y   float64
	Size   float64
	Tone   Tone
	Bold   bool
	Center bool
}

// ZoneView is one region of the cluster: a side of a partition or a
// failure domain.
type ZoneView struct {
	Rect  viz.Rect
	Label TextItem
	Sub   TextItem
	Tone  Tone
	Empty bool
	Hot   bool // a dragged machine would drop here
}

// LinkState is what a link does in its two directions.
type LinkState uint8

// Link states.
const (
	LinkUp     LinkState = iota // both directions up
	LinkCut                     // both directions down
	LinkOneWay                  // one direction down
)

// LinkView is the connection between two machines.
type LinkView struct {
	ID    viz.LinkID
	Seg   viz.Segment
	Lanes [2]viz.Segment
	// Up is per direction: Up[0] for I→J, Up[1] for J→I.
	Up    [2]bool
	State LinkState
	// Lossy or Slow: drawn thinner and striped, with Label saying the
	// figure ("20% loss", "300 ms").
	Lossy, Slow bool
	Label       TextItem
	Hot         bool // under the pointer or crossed by the stroke
	// Faint: a cut between two sides of a partition, which the zones
	// already show; drawn quietly so the sides stand out.
	Faint bool
}

// WorkersView is the band of worker machines under the cluster: its
// label and the cluster's (the control plane), each worker's box and the
// links from every member to every worker, drawn lightly.
type WorkersView struct {
	Band           viz.Rect
	Label, Control TextItem
	Boxes          []WorkerView
	Links          []LinkView
}

// WorkerView is one worker machine: a box (no disc: it has no role, term
// or log) with its name, its condition as the node lifecycle controller
// holds it, and whether its kubelet runs, is paused or crashed.
type WorkerView struct {
	Index    int // machine index, counted after the members
	Rect     viz.Rect
	Tone     Tone // the condition's: ToneGood Ready, ToneBad NotReady
	Crashed  bool
	Paused   bool
	Selected bool
	Name     TextItem
	Lines    [2]TextItem
}

// MsgView is a message on the wire, or one just dropped and falling.
type MsgView struct {
	ID     uint64
	From   int
	To     int
	Pos    viz.Point
	R      float64
	Tone   Tone
	Hollow bool // answers are rings, requests filled discs
	Reject bool
	Label  TextItem
	// Fall is 0 on the wire; above 0 it is how far (to 1) a dropped
	// message has fallen away.
	Fall     float64
	Selected bool
}

// NodeView is one machine.
type NodeView struct {
	Index  int
	Center viz.Point
	R      float64
	Name   TextItem
	Shape  Shape
	Dashed bool // pre-candidate: not yet a real candidate
	Tone   Tone
	// Crashed machines are drawn with a cross, Paused ones with two bars.
	Crashed, Paused bool
	// Lines are the words under the disc: role, then term and vote.
	Lines [2]TextItem
	// Timer is the election timer's progress 0..1 (negative: none). Pulse
	// is the leader's heartbeat ring 0..1 (0: none).
	Timer     float64
	TimerTone Tone
	Pulse     float64
	Slow      float64
	Drift     float64
	// Badges are small tags beside the disc: slow, drifting clock,
	// backlog, waiting clients.
	Badges   []TextItem
	Votes    []VoteDot
	Selected bool
	// Member is the machine's part in the cluster's configuration, as
	// its tag says it: "" for a voter, else "learner", "spare", or while
	// the configuration is joint "old + new", "old only" or "new only".
	Member string
	// Highlight marks a machine the scenario's story is about.
	Highlight bool
	Hidden    bool // being dragged: the ghost is drawn instead
}

// VoteDot is one vote a candidate holds or was refused, drawn on its rim.
type VoteDot struct {
	Pos     viz.Point
	Granted bool
}

// LogsView is the log strip of every machine.
type LogsView struct {
	Rect viz.Rect
	Rows []LogRow
	// Header: the index numbers over the columns.
	Header []TextItem
	// More says how many entries lie left (Before) or right (After) of
	// the window; never silently cut.
	Before, After TextItem
	// Key opens and closes the key to the marks (Frame.Legend).
	Key Widget
	// Card, when not empty, is the box the rows sit in where they are
	// an embedded figure's focus (the machines' histories, drawn
	// large), headed by Title, with Notes under the rows.
	Card  viz.Rect
	Title TextItem
	Notes []TextItem
}

// LogRow is one machine's log.
type LogRow struct {
	Node  int
	Name  TextItem
	Label viz.Rect
	Strip viz.Rect
	Tone  Tone
	Cells []LogCell
	// Snap is the block at the row's start that stands for the entries
	// compacted into the machine's snapshot (an empty Rect: none).
	Snap LogSnap
	// CommitX and AppliedX are where the markers go (negative: none).
	CommitX, AppliedX float64
	// Match and Next are the leader's view of this follower (negative:
	// none).
	MatchX, NextX float64
	Faded         bool // crashed or paused machines' rows
	Selected      bool
}

// LogSnap is a log row's compacted prefix, drawn as one block: Index is
// the last entry compacted, which Text says.
type LogSnap struct {
	Rect  viz.Rect
	Index uint64
	Text  TextItem
}

// LogCell is one entry.
type LogCell struct {
	Rect      viz.Rect
	Index     uint64
	Term      uint64
	Color     int // index into the draw package's term palette
	Committed bool
	Text      string
	Conflict  bool // differs from the leader's entry at the same index
}

// PanelView is one side panel.
type PanelView struct {
	Kind    viz.PanelKind
	Rect    viz.Rect
	Title   TextItem
	Lines   []TextItem
	Widgets []Widget
	Diagram *DiagramView
	// Gauges are bars in the body that run full as a span passes (a
	// Lease's grace period).
	Gauges []Gauge
	// Clip is where the body may draw; lines outside it are not drawn.
	Clip viz.Rect
	// More says the body continues below (scroll to see).
	More bool
	// Folded: only the title shows; its one widget opens it.
	Folded bool
}

// Gauge is a bar that fills from the left as a span passes: Fill is the
// share passed, 0 to 1, drawn in Tone over a pale track.
type Gauge struct {
	Rect viz.Rect
	Fill float64
	Tone Tone
}

// WidgetKind is how a control looks.
type WidgetKind uint8

// Widget kinds.
const (
	WidgetButton WidgetKind = iota // a labelled button
	WidgetChip                     // one of a set of choices
	WidgetToggle                   // on or off
	WidgetIcon                     // a toolbar button drawn as an icon
	WidgetTab                      // a panel tab
	WidgetFold                     // a folded panel's title: press to open
)

// Widget is a control the reader can press. ID is its stable name, for
// tests and the page; Do is what pressing it does, as a line of the app's
// command table ("crash 2", "knob split 4/1"): opaque to painters, and
// the same line the page or a key would run.
type Widget struct {
	ID      string
	Do      string
	Kind    WidgetKind
	Rect    viz.Rect
	Label   string
	Icon    string // toolbar icon name: play, pause, step, back, prev, next, write, heal, resume, help, menu
	On      bool
	Enabled bool
	Tone    Tone
	Size    float64
}

// SliderView is the speed slider.
type SliderView struct {
	Rect  viz.Rect
	Track viz.Rect
	Frac  float64
	Label TextItem
}

// TimelineView is the strip of virtual time at the bottom.
type TimelineView struct {
	Rect  viz.Rect
	Track viz.Rect
	// Head is where the recorded run ends, Now where the world shown is,
	// both as fractions of Track.
	Head, Now float64
	Marks     []MarkView
	Left      TextItem
	Right     TextItem
	// Buttons: back to the live end while replaying the past, and back to
	// the run abandoned by acting in the past.
	Buttons []Widget
}

// MarkView is a notable moment on the timeline.
type MarkView struct {
	X    float64
	Tone Tone
	// Source is which of the run's marks (the session's list) this one
	// shows. Its words are written only where they are shown, in the
	// tooltip of the mark under the pointer: a long run has hundreds of
	// marks and a frame would otherwise write them all.
	Source int
	// Major marks (faults, elections, broken rules) are drawn taller.
	Major bool
}

// GhostView is a machine being dragged.
type GhostView struct {
	Node         int
	Pos          viz.Point
	R            float64
	WouldIsolate bool
	Zone         int
}

// MenuView is a popover: a title, some text and rows of controls.
type MenuView struct {
	Rect  viz.Rect
	Title TextItem
	Lines []TextItem
	Rows  []MenuRow
}

// MenuRow is a label and its controls.
type MenuRow struct {
	Label   TextItem
	Widgets []Widget
}

// HelpView is the help overlay.
type HelpView struct {
	Rect  viz.Rect
	Title TextItem
	Lines []TextItem
}

// BannerView is a message across the top of the cluster.
type BannerView struct {
	Rect  viz.Rect
	Lines []TextItem
	Tone  Tone
	Close Widget
	// InToolbar: the note sits in the toolbar's free stretch.
	InToolbar bool
}

// TooltipView is hover text.
type TooltipView struct {
	Rect  viz.Rect
	Lines []TextItem
}
