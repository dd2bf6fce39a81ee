package app

import (
	"encoding/json"
	"fmt"
	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/stage"
	"raftlab/viz/frame"
	"raftlab/viz/words"
	"strings"
)

// Snapshot is the app's state as the page's snapshot() gives it, for tests
// and for curious readers: the world, the screen state, and where the
// things a test may click are on the canvas.
type Snapshot struct {
	NowMs       float64     `json:"now_ms"`
	HeadMs      float64     `json:"head_ms"`
	Live        bool        `json:"live"`
	Paused      bool        `json:"paused"`
	Visible     bool        `json:"visible"`
	Speed       float64     `json:"speed"`
	SpeedLabel  string      `json:"speed_label"`
	Theme       frame.Theme `json:"theme"`
	Embed       bool        `json:"embed"`
	Protocol    string      `json:"protocol"`
	Nodes       int         `json:"nodes"`
	Seed        int64       `json:"seed"`
	PreVote     bool        `json:"prevote"`
	CheckQuorum bool        `json:"checkquorum"`
	Election    int         `json:"election_ticks"`

	Scenario *ScenarioState `json:"scenario"`
	Selected int            `json:"selected"` // machine id, 0 for none
	Menu     string         `json:"menu"`
	Panel    string         `json:"panel"`
	Help     bool           `json:"help"`
	Banner   string         `json:"banner"`
	Layout   string         `json:"layout"` // "ring", "partition" or "zones"
	Sides    [][]int        `json:"sides,omitempty"`

	Leader   int            `json:"leader"` // machine id, 0 for none
	Machines []MachineState `json:"machines"`
	// Workers are the worker machines (Kubernetes nodes) and Kube the
	// node lifecycle controller's zone state and the checks' counts, in a
	// world with workers.
	Workers    []WorkerState        `json:"workers,omitempty"`
	Kube       *KubeState           `json:"kube,omitempty"`
	Links      []DirLink            `json:"links"`
	InFlight   []FlightState        `json:"in_flight"`
	Ops        []raftcore.Op        `json:"ops"`
	Violations []raftcore.Violation `json:"violations"`
	Contract   []ClauseState        `json:"contract"`
	Answers    []AnswerState        `json:"answers"`
	Marks      []MarkState          `json:"marks"`
	TraceHash  string               `json:"trace_hash"`
	TraceCount uint64               `json:"trace_events"`
	Actions    []raftcore.Action    `json:"actions"`

	Screen ScreenState `json:"screen"`
	// Present is presenter mode, and Zoom how many of the page's pixels a
	// pixel of Screen takes.
	Present bool    `json:"present"`
	Zoom    float64 `json:"zoom"`
}

// ClauseState is a promise of the contract in a snapshot: its situation
// and facts, and its title and why in the words on screen.
type ClauseState struct {
	raftcore.Clause
	Title string `json:"title"`
	Text  string `json:"text"`
}

func clauseStates(v words.Voice, cs []raftcore.Clause) []ClauseState {
	out := make([]ClauseState, len(cs))
	for i, cl := range cs {
		out[i] = ClauseState{Clause: cl, Title: words.ClauseTitle(cl.ID), Text: v.ClauseText(cl)}
	}
	return out
}

// AnswerState is a machine's answer to the question in a snapshot: its
// facts, and the answer in one line.
type AnswerState struct {
	raftcore.Answer
	Text string `json:"text"`
}

func answerStates(as []raftcore.Answer) []AnswerState {
	out := make([]AnswerState, len(as))
	for i, a := range as {
		out[i] = AnswerState{Answer: a, Text: words.AnswerText(a)}
	}
	return out
}

// ScenarioState is the scenario being played.
type ScenarioState struct {
	ID       string              `json:"id"`
	Title    string              `json:"title"`
	Prompt   string              `json:"prompt"`
	Step     int                 `json:"step"`
	Steps    int                 `json:"steps"`
	StepText string              `json:"step_text"`
	Done     bool                `json:"done"`
	Final    string              `json:"final"`
	Autoplay bool                `json:"autoplay"`
	Settings []scenarios.Setting `json:"settings"`
	// Focus is the panel an embedded figure shows (a scenarios.Panel).
	Focus string `json:"focus"`
	// Untrue says which claim of the step shown is false of the world on
	// screen; empty while the words are true (see scenarios.Step.Claims).
	Untrue string `json:"untrue,omitempty"`
}

// MachineState is one machine in a snapshot.
type MachineState struct {
	ID        int     `json:"id"`
	Name      string  `json:"name"`
	Role      string  `json:"role"`
	Status    string  `json:"status"`
	Term      uint64  `json:"term"`
	Vote      int     `json:"vote"`
	Leader    int     `json:"leader"`
	Commit    uint64  `json:"commit"`
	Applied   uint64  `json:"applied"`
	LastIndex uint64  `json:"last_index"`
	Slow      float64 `json:"slow"`
	Drift     float64 `json:"drift"`
	Backlog   int     `json:"backlog"`
	Timer     [2]int  `json:"election_timer"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
	R         float64 `json:"r"`
	// Member is the machine's part in the cluster as its tag says it
	// ("" for a voter, "learner", "spare", "old + new", "old only",
	// "new only").
	Member string `json:"member,omitempty"`
}

// WorkerState is one worker machine in a snapshot: its node as the
// world describes it, its condition and kubelet in the words on its box,
// its speed and clock, and where its box is drawn.
type WorkerState struct {
	raftcore.KubeNode
	Condition string   `json:"condition"`
	Slow      float64  `json:"slow"`
	Drift     float64  `json:"drift"`
	Rect      viz.Rect `json:"rect"`
}

// KubeState is the node lifecycle controller's zone state and the
// checks' counts in a snapshot.
type KubeState struct {
	Zone   string              `json:"zone"`
	Counts raftcore.KubeCounts `json:"counts"`
}

// DirLink is one direction of a link in a snapshot.
type DirLink struct {
	From      int        `json:"from"`
	To        int        `json:"to"`
	Up        bool       `json:"up"`
	LatencyMs [2]float64 `json:"latency_ms"`
	Loss      float64    `json:"loss"`
	// X, Y is the middle of the drawn link (the same for both directions).
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// FlightState is a message on the wire in a snapshot.
type FlightState struct {
	ID   uint64 `json:"id"`
	Type string `json:"type"`
	From int    `json:"from"`
	To   int    `json:"to"`
	Term uint64 `json:"term"`
	// Why is the reason a refusal carries (raftcore.RejectReason), and
	// Label the tag drawn beside the message ("" when none is drawn).
	Why       string  `json:"why,omitempty"`
	Label     string  `json:"label,omitempty"`
	SendMs    float64 `json:"send_ms"`
	DeliverMs float64 `json:"deliver_ms"`
	X         float64 `json:"x"`
	Y         float64 `json:"y"`
}

// MarkState is a timeline mark in a snapshot.
type MarkState struct {
	AtMs float64 `json:"at_ms"`
	Kind string  `json:"kind"`
	Text string  `json:"text"`
}

// ScreenState is where things are on the canvas, in CSS pixels.
type ScreenState struct {
	Width    float64       `json:"width"`
	Height   float64       `json:"height"`
	Touch    bool          `json:"touch"`
	Widgets  []WidgetState `json:"widgets"`
	Speed    viz.Rect      `json:"speed"`
	Timeline viz.Rect      `json:"timeline"`
	Cluster  viz.Rect      `json:"cluster"`
	Logs     viz.Rect      `json:"logs"`
	Panels   []PanelState  `json:"panels"`
	Ring     [3]float64    `json:"ring"` // centre x, y and radius
	Zones    []viz.Rect    `json:"zones,omitempty"`
	// Tray holds the spare machines, apart from the cluster's ring.
	Tray  viz.Rect    `json:"tray"`
	Stats frame.Stats `json:"stats"`
	// Overflow lists words that do not show whole (Frame.Overflows).
	Overflow []string `json:"overflow"`
}

// WidgetState is a control on screen.
type WidgetState struct {
	ID    string   `json:"id"`
	Label string   `json:"label"`
	On    bool     `json:"on,omitempty"`
	Rect  viz.Rect `json:"rect"`
}

// PanelState is a visible panel and its text, one line per element.
type PanelState struct {
	Kind  string   `json:"kind"`
	Rect  viz.Rect `json:"rect"`
	Title string   `json:"title"`
	Text  []string `json:"text"`
}

// State gathers the snapshot.
func (a *App) State() Snapshot {
	f := a.Frame()
	w := a.World()
	s := Snapshot{
		NowMs: float64(w.Now()) / 1000, HeadMs: float64(a.session.HeadUs()) / 1000, Live: a.session.AtHead(),
		Paused: a.clock.Paused(), Visible: a.clock.Visible(), Speed: a.clock.Speed(), SpeedLabel: viz.FormatSpeed(a.clock.Speed()),
		Theme: a.view.Theme(), Embed: a.params.Embed, Protocol: string(a.cfg().Protocol), Nodes: a.cfg().Nodes, Seed: a.cfg().Seed,
		PreVote: w.Settings().PreVote, CheckQuorum: w.Settings().CheckQuorum, Election: a.cfg().ElectionTicks,
		Selected: a.view.Selected() + 1, Menu: a.view.Menu().String(), Panel: a.view.Tab().Title(), Help: a.view.Help(), Banner: a.voice().Banner(a.view.Banner().Text),
		Ops: nonNil(w.Ops()), Violations: nonNil(w.Violations()), Contract: clauseStates(a.voice(), w.Contract()), Answers: answerStates(w.Ask(a.session.QuestionKey())),
		TraceHash: raftcore.HashString(w.TraceHash()), TraceCount: w.TraceCount(), Actions: nonNil(w.Actions()),
		Leader: a.leader() + 1, Scenario: a.scenarioState(), Machines: a.machinesState(), Links: a.linksState(),
		InFlight: a.flightState(f), Screen: a.screenState(f), Present: a.params.Present, Zoom: a.zoom,
	}
	s.Layout, s.Sides = a.layoutState()
	s.Workers, s.Kube = a.workersState()
	for _, m := range a.session.Marks() {
		s.Marks = append(s.Marks, MarkState{AtMs: float64(m.At.AtUs) / 1000, Kind: m.Kind.String(), Text: a.voice().MarkText(m)})
	}
	return s
}

// nonNil is xs, or an empty list for none, which JSON writes as [].
func nonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// layoutState names the layout ("ring", "partition" or "zones") and the
// partition's sides, by machine id.
func (a *App) layoutState() (string, [][]int) {
	switch a.stage.Mode() {
	case stage.ZonesPartition:
		var sides [][]int
		for _, g := range a.stage.Sides() {
			ids := make([]int, len(g))
			for k, i := range g {
				ids[k] = i + 1
			}
			sides = append(sides, ids)
		}
		return "partition", sides
	case stage.ZonesWorld:
		return "zones", nil
	}
	return "ring", nil
}

// scenarioState is the scenario played, or nil.
func (a *App) scenarioState() *ScenarioState {
	r := a.scen()
	if r == nil {
		return nil
	}
	st := &ScenarioState{ID: r.ID(), Title: r.Spec().Title, Prompt: r.Spec().Prompt, Step: r.Step(), Steps: r.Tracker().StepCount(),
		StepText: r.Tracker().TextOf(r.Step()), Done: r.ShownDone(), Final: r.Tracker().Final(), Autoplay: r.Autoplay(), Settings: r.Spec().Settings,
		Focus: string(r.Spec().UI.Focus)}
	// A figure opens on its prompt, not on its first step's words.
	shown := !r.ShownDone() && !(a.figure() && r.Step() == 0)
	if err := r.Tracker().Untrue(r.Step(), a.World()); err != nil && shown {
		st.Untrue = err.Error()
	}
	return st
}

// machinesState is every machine and where it is drawn.
func (a *App) machinesState() []MachineState {
	w := a.World()
	var out []MachineState
	for i := 0; i < w.Size(); i++ {
		id := nodeID(i)
		nd := w.Node(id)
		el, to := nd.ElectionTimer()
		m := MachineState{ID: i + 1, Name: a.cfg().Name(id), Role: nd.Role().String(), Status: w.Status(id).String(),
			Term: nd.Term(), Vote: int(nd.Vote()), Leader: int(nd.Lead()), Commit: nd.Commit(), Applied: nd.Applied(),
			LastIndex: nd.LastIndex(), Slow: w.Slow(id), Drift: w.Drift(id), Backlog: w.Backlog(id), Timer: [2]int{el, to}}
		if i < len(a.lay().Nodes) {
			c := a.lay().Nodes[i].Center
			m.X, m.Y, m.R = c.X, c.Y, a.lay().NodeRadius
		}
		if f := a.Frame(); i < len(f.Nodes) {
			m.Member = f.Nodes[i].Member
		}
		out = append(out, m)
	}
	return out
}

// workersState is every worker machine and where its box is drawn, and
// the controller's zone state and counts; nothing without workers.
func (a *App) workersState() ([]WorkerState, *KubeState) {
	w := a.World()
	sum, ok := w.Kube()
	if !ok {
		return nil, nil
	}
	out := make([]WorkerState, len(sum.Nodes))
	for k, n := range sum.Nodes {
		out[k] = WorkerState{KubeNode: n, Condition: words.NodeCondition(n.NotReady), Slow: w.Slow(n.ID), Drift: w.Drift(n.ID)}
		if k < len(a.lay().Workers) {
			out[k].Rect = a.lay().Workers[k].Rect
		}
	}
	return out, &KubeState{Zone: sum.Zone, Counts: sum.Counts}
}

// linksState is every direction of every link and where its middle is
// drawn, the links to worker machines too.
func (a *App) linksState() []DirLink {
	w := a.World()
	var out []DirLink
	// The members' links, and each member's to each worker machine (the
	// workers have none between them).
	all := w.Size() + a.cfg().Workers
	for i := 0; i < all; i++ {
		for j := 0; j < all; j++ {
			if i == j || i >= w.Size() && j >= w.Size() {
				continue
			}
			l := w.Link(nodeID(i), nodeID(j))
			ls := DirLink{From: i + 1, To: j + 1, Up: l.Up, LatencyMs: [2]float64{float64(l.LatencyMinUs) / 1000, float64(l.LatencyMaxUs) / 1000}, Loss: l.Loss}
			if lk, ok := a.lay().Link(i, j); ok {
				mid := lk.Seg.At(0.5)
				ls.X, ls.Y = mid.X, mid.Y
			}
			out = append(out, ls)
		}
	}
	return out
}

// flightState is every message on the wire of frame f, where it is drawn
// (not a watch event, which is no message of the simulated network and has
// no number).
func (a *App) flightState(f *frame.Frame) []FlightState {
	out := []FlightState{}
	byID := map[uint64]int{}
	for _, m := range f.Messages {
		if m.Fall == 0 && m.ID != 0 {
			byID[m.ID] = len(out)
			out = append(out, FlightState{ID: m.ID, From: m.From + 1, To: m.To + 1, X: m.Pos.X, Y: m.Pos.Y, Label: m.Label.Text})
		}
	}
	for _, m := range a.World().InFlight() {
		if k, ok := byID[m.ID]; ok {
			out[k].Type = m.Type.String()
			out[k].Term = m.Term
			out[k].Why = m.Why.String()
			out[k].SendMs = float64(m.SendUs) / 1000
			out[k].DeliverMs = float64(m.DeliverUs) / 1000
		}
	}
	return out
}

// screenState is where things are on the canvas of frame f.
func (a *App) screenState(f *frame.Frame) ScreenState {
	lay := a.lay()
	sc := ScreenState{Width: a.stage.W(), Height: a.stage.H(), Touch: a.stage.Touch(), Overflow: f.Overflows(a.measure),
		Speed: lay.Speed, Timeline: lay.Timeline, Cluster: lay.Cluster, Logs: lay.Logs, Ring: [3]float64{lay.Ring.C.X, lay.Ring.C.Y, lay.Ring.R},
		Stats: a.Stats(), Tray: lay.Tray}
	for _, z := range lay.Zones {
		sc.Zones = append(sc.Zones, z.Rect)
	}
	for wd := range f.Widgets() {
		sc.Widgets = append(sc.Widgets, WidgetState{ID: wd.ID, Label: wd.Label, On: wd.On, Rect: wd.Rect})
	}
	for _, p := range f.Panels {
		ps := PanelState{Kind: p.Kind.Title(), Rect: p.Rect, Title: p.Title.Text}
		for _, l := range p.Lines {
			ps.Text = append(ps.Text, l.Text)
		}
		sc.Panels = append(sc.Panels, ps)
	}
	return sc
}

// SnapshotJSON is State as JSON.
func (a *App) SnapshotJSON() ([]byte, error) { return json.Marshal(a.State()) }

// Cmd runs a command of the command table (docs/embedding.md lists
// them) from the page script or a test, given as a name and its
// arguments. Three more return something or press a control: "link" gives
// the share link of this run, "export schedule|trace" the run as JSON, and
// "click ID" presses the control named ID as a tap would. The error names
// what was wrong.
func (a *App) Cmd(name string, args ...string) (string, error) {
	switch strings.ToLower(name) {
	case "link":
		return a.ShareLink(), nil
	case "export":
		var data []byte
		var err error
		switch arg := first(args); arg {
		case "schedule", "":
			data, err = a.ExportSchedule()
		case "trace":
			data, err = a.ExportTrace()
		default:
			return "", fmt.Errorf("export: %q is not an export; use schedule or trace", arg)
		}
		return string(data), err
	}
	in, err := a.pageIntent(name, args...)
	if err != nil {
		return "", err
	}
	return "", a.Do(in)
}

// pageIntent is what the page's command asks for: a command of the table,
// or "click ID", what the control named ID asks for.
func (a *App) pageIntent(name string, args ...string) (command.Intent, error) {
	if strings.EqualFold(name, "click") {
		if len(args) != 1 {
			return nil, fmt.Errorf("click: usage: click ID")
		}
		return a.clickIntent(args[0])
	}
	return command.ParseArgs(a.commandContext(), name, args...)
}

func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}
