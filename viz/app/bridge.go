package app

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/frame"
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

	Leader     int                  `json:"leader"` // machine id, 0 for none
	Machines   []MachineState       `json:"machines"`
	Links      []DirLink            `json:"links"`
	InFlight   []FlightState        `json:"in_flight"`
	Ops        []raftcore.Op        `json:"ops"`
	Violations []raftcore.Violation `json:"violations"`
	Contract   []raftcore.Clause    `json:"contract"`
	Answers    []raftcore.Answer    `json:"answers"`
	Marks      []MarkState          `json:"marks"`
	TraceHash  string               `json:"trace_hash"`
	TraceCount uint64               `json:"trace_events"`
	Actions    []raftcore.Action    `json:"actions"`

	Screen ScreenState `json:"screen"`
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
	ID        uint64  `json:"id"`
	Type      string  `json:"type"`
	From      int     `json:"from"`
	To        int     `json:"to"`
	Term      uint64  `json:"term"`
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
	Stats    frame.Stats   `json:"stats"`
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
		NowMs: float64(w.Now()) / 1000, HeadMs: float64(a.hist.HeadUs()) / 1000, Live: a.hist.AtHead(),
		Paused: a.paused, Visible: a.visible, Speed: a.speed, SpeedLabel: viz.FormatSpeed(a.speed),
		Theme: a.theme, Embed: a.params.Embed, Protocol: string(a.cfg.Protocol), Nodes: a.cfg.Nodes, Seed: a.cfg.Seed,
		PreVote: a.cfg.PreVote, CheckQuorum: a.cfg.CheckQuorum, Election: a.cfg.ElectionTicks,
		Selected: a.selected + 1, Menu: a.menu.String(), Panel: a.tab.Title(), Help: a.help, Banner: a.bannerText(),
		Ops: w.Ops(), Violations: w.Violations(), Contract: w.Contract(), Answers: w.Ask(a.questionKey()),
		TraceHash: raftcore.HashString(w.TraceHash()), TraceCount: w.TraceCount(), Actions: w.Actions(),
	}
	if s.Ops == nil {
		s.Ops = []raftcore.Op{}
	}
	if s.Violations == nil {
		s.Violations = []raftcore.Violation{}
	}
	if s.Actions == nil {
		s.Actions = []raftcore.Action{}
	}
	s.Layout = "ring"
	switch a.zoneFor {
	case zonesPartition:
		s.Layout = "partition"
		for _, g := range a.groups {
			ids := make([]int, len(g))
			for k, i := range g {
				ids[k] = i + 1
			}
			s.Sides = append(s.Sides, ids)
		}
	case zonesWorld:
		s.Layout = "zones"
	}
	if r := a.scen; r != nil {
		s.Scenario = &ScenarioState{ID: r.id, Title: r.title, Prompt: r.s.Prompt, Step: r.step(), Steps: r.tr.StepCount(),
			StepText: r.tr.TextOf(r.step()), Done: r.shownDone(), Final: r.tr.Final(), Autoplay: r.autoplay, Settings: r.s.Settings,
			Focus: string(r.s.UI.Focus)}
		// A figure opens on its prompt, not on its first step's words.
		shown := !r.shownDone() && !(a.figure() && r.step() == 0)
		if err := r.tr.Untrue(r.step(), w); err != nil && shown {
			s.Scenario.Untrue = err.Error()
		}
	}
	s.Leader = a.leader() + 1
	for i := 0; i < w.Size(); i++ {
		id := nodeID(i)
		nd := w.Node(id)
		el, to := nd.ElectionTimer()
		m := MachineState{ID: i + 1, Name: a.cfg.Name(id), Role: nd.Role().String(), Status: w.Status(id).String(),
			Term: nd.Term(), Vote: int(nd.Vote()), Leader: int(nd.Lead()), Commit: nd.Commit(), Applied: nd.Applied(),
			LastIndex: nd.LastIndex(), Slow: w.Slow(id), Drift: w.Drift(id), Backlog: w.Backlog(id), Timer: [2]int{el, to}}
		if i < len(a.lay.Nodes) {
			c := a.lay.Nodes[i].Center
			m.X, m.Y, m.R = c.X, c.Y, a.lay.NodeRadius
		}
		s.Machines = append(s.Machines, m)
	}
	for i := 0; i < w.Size(); i++ {
		for j := 0; j < w.Size(); j++ {
			if i == j {
				continue
			}
			l := w.Link(nodeID(i), nodeID(j))
			ls := DirLink{From: i + 1, To: j + 1, Up: l.Up, LatencyMs: [2]float64{float64(l.LatencyMinUs) / 1000, float64(l.LatencyMaxUs) / 1000}, Loss: l.Loss}
			if lk, ok := a.lay.Link(i, j); ok {
				mid := lk.Seg.At(0.5)
				ls.X, ls.Y = mid.X, mid.Y
			}
			s.Links = append(s.Links, ls)
		}
	}
	s.InFlight = []FlightState{}
	for _, m := range f.Messages {
		if m.Fall > 0 {
			continue
		}
		fs := FlightState{ID: m.ID, From: m.From + 1, To: m.To + 1, X: m.Pos.X, Y: m.Pos.Y}
		s.InFlight = append(s.InFlight, fs)
	}
	byID := map[uint64]int{}
	for k, fs := range s.InFlight {
		byID[fs.ID] = k
	}
	for _, m := range w.InFlight() {
		if k, ok := byID[m.ID]; ok {
			s.InFlight[k].Type = m.Type.String()
			s.InFlight[k].Term = m.Term
			s.InFlight[k].SendMs = float64(m.SendUs) / 1000
			s.InFlight[k].DeliverMs = float64(m.DeliverUs) / 1000
		}
	}
	for _, m := range a.hist.Marks() {
		s.Marks = append(s.Marks, MarkState{AtMs: float64(m.At.AtUs) / 1000, Kind: m.Kind.String(), Text: m.Text})
	}
	sc := &s.Screen
	sc.Width, sc.Height, sc.Touch = a.w, a.h, a.touch
	sc.Overflow = f.Overflows(a.measure)
	sc.Speed, sc.Timeline, sc.Cluster, sc.Logs = a.lay.Speed, a.lay.Timeline, a.lay.Cluster, a.lay.Logs
	sc.Ring = [3]float64{a.lay.Ring.C.X, a.lay.Ring.C.Y, a.lay.Ring.R}
	for _, z := range a.lay.Zones {
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
	sc.Stats = a.Stats()
	return s
}

// SnapshotJSON is State as JSON.
func (a *App) SnapshotJSON() ([]byte, error) { return json.Marshal(a.State()) }

// Cmd runs a named command from the page script or a test. It returns a
// value for commands that produce one (link, export) and an error that
// names what was wrong. Every command that changes the app is an intent,
// done by Do.
//
//	select N | select 0      select machine N (0: none)
//	play | pause | toggle     run or stop virtual time
//	step | back | prev | next one step, one step back, previous/next notable event
//	speed X                   0.01..10, also "1/10x", "2x"
//	seek MS                   show the run at MS milliseconds
//	key NAME                  press a key ("c", "Space", "?")
//	click ID                  press a control by id (see snapshot screen.widgets)
//	heal                      heal the network
//	nodes N | protocol P      new cluster with N machines / protocol P
//	option NAME on|off        prevote, checkquorum
//	election TICKS            start again with an election timeout of TICKS ticks (2..100)
//	reset                     start the run again
//	scenario ID               start a scenario ("" for free play)
//	theme light|dark
//	panel NAME                show a panel tab (Scenario, Question, Node, Safety, Client)
//	help on|off
//	link                      the share link of this run
//	export schedule|trace     the run as JSON
//	import JSON               open a schedule
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
	in, err := a.cmdIntent(name, args)
	if err != nil {
		return "", err
	}
	return "", a.Do(in)
}

// cmdCommands are the page commands that are toolbar commands.
var cmdCommands = map[string]viz.Command{
	"toggle": viz.CmdPlayPause, "step": viz.CmdStep, "back": viz.CmdStepBack,
	"prev": viz.CmdPrevEvent, "next": viz.CmdNextEvent, "heal": viz.CmdHeal,
}

// cmdIntent is what a page command asks for.
func (a *App) cmdIntent(name string, args []string) (Intent, error) {
	arg := func(i int) string {
		if i < len(args) {
			return args[i]
		}
		return ""
	}
	need := func(n int, usage string) error {
		if len(args) < n {
			return fmt.Errorf("%s: missing argument; usage: %s", name, usage)
		}
		return nil
	}
	// Numbers that are not numbers are left to Do to refuse, with the
	// range it allows.
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			return -1
		}
		return n
	}
	name = strings.ToLower(name)
	if c, ok := cmdCommands[name]; ok {
		return RunCommand{Cmd: c}, nil
	}
	switch name {
	case "select":
		if err := need(1, "select N"); err != nil {
			return nil, err
		}
		if _, err := strconv.Atoi(arg(0)); err != nil {
			return nil, fmt.Errorf("select: %q is not a machine: use 1 to %d, or 0 for none", arg(0), a.World().Size())
		}
		return Select{Node: atoi(arg(0)) - 1}, nil
	case "play", "pause":
		return SetPaused{Paused: name == "pause"}, nil
	case "speed":
		if err := need(1, "speed X"); err != nil {
			return nil, err
		}
		s, err := viz.ParseSpeed(arg(0))
		if err != nil || s < viz.MinSpeed || s > viz.MaxSpeed {
			return nil, fmt.Errorf("speed: %q is not a speed from 0.01 to 10 (such as 0.1, 1/10x or 2x)", arg(0))
		}
		return SetSpeed{Speed: s}, nil
	case "seek":
		if err := need(1, "seek MS"); err != nil {
			return nil, err
		}
		ms, err := strconv.ParseFloat(arg(0), 64)
		if err != nil || ms < 0 {
			return nil, fmt.Errorf("seek: %q is not a time in milliseconds", arg(0))
		}
		return Seek{AtUs: int64(ms * 1000)}, nil
	case "key":
		if err := need(1, "key NAME"); err != nil {
			return nil, err
		}
		in, ok := a.keyIntent(arg(0))
		if !ok {
			return nil, fmt.Errorf("key: %q does nothing", arg(0))
		}
		return in, nil
	case "click":
		if err := need(1, "click ID"); err != nil {
			return nil, err
		}
		w, err := a.control(arg(0))
		in, _ := w.Intent.(Intent)
		return in, err
	case "nodes":
		if err := need(1, "nodes N"); err != nil {
			return nil, err
		}
		return SetNodes{Nodes: atoi(arg(0))}, nil
	case "protocol":
		if err := need(1, "protocol P"); err != nil {
			return nil, err
		}
		return SetProtocol{Protocol: arg(0)}, nil
	case "election":
		if err := need(1, "election TICKS"); err != nil {
			return nil, err
		}
		return SetElection{Ticks: atoi(arg(0))}, nil
	case "option":
		if err := need(2, "option prevote|checkquorum on|off"); err != nil {
			return nil, err
		}
		on, err := parseOnOff(arg(1))
		if err != nil {
			return nil, fmt.Errorf("option: %v", err)
		}
		switch strings.ToLower(arg(0)) {
		case "prevote":
			return SetPreVote{On: on}, nil
		case "checkquorum":
			return SetCheckQuorum{On: on}, nil
		}
		return nil, fmt.Errorf("option: %q is not an option; use prevote or checkquorum", arg(0))
	case "reset":
		return Restart{}, nil
	case "scenario":
		return StartScenario{ID: arg(0)}, nil
	case "theme":
		return SetTheme{Theme: frame.Theme(arg(0))}, nil
	case "panel":
		for _, k := range viz.PanelKinds() {
			if strings.EqualFold(k.Title(), arg(0)) {
				return ShowPanel{Panel: k}, nil
			}
		}
		return nil, fmt.Errorf("panel: %q is not a panel; use Scenario, Question, Node, Safety or Client", arg(0))
	case "help":
		on, err := parseOnOff(arg(0))
		if err != nil {
			return nil, fmt.Errorf("help: %v", err)
		}
		return ShowHelp{On: on}, nil
	case "import":
		if err := need(1, "import JSON"); err != nil {
			return nil, err
		}
		return OpenRun{JSON: arg(0)}, nil
	}
	names := []string{"select", "play", "pause", "speed", "seek", "key", "click", "nodes", "protocol", "election",
		"option", "reset", "scenario", "theme", "panel", "help", "link", "export", "import"}
	for n := range cmdCommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("%q is not a command; use one of %s", name, strings.Join(names, ", "))
}

func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

func parseOnOff(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "on", "true", "yes":
		return true, nil
	case "0", "off", "false", "no", "":
		return false, nil
	}
	return false, fmt.Errorf("%q is not on or off", s)
}
