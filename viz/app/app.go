package app

import (
	"fmt"
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
	"strings"
	"time"
)

// DefaultSpeed and FigureSpeed are the speeds when the reader or the page
// chose none (viz.DefaultSpeed, viz.FigureSpeed).
const (
	DefaultSpeed = viz.DefaultSpeed
	FigureSpeed  = viz.FigureSpeed
)

// actRunUs is how long (virtual time) a figure runs after the reader acts
// on it, when the story's next step does not come first.
const actRunUs = 6_000_000

// ClientKey is the key of the app's client requests: the book's
// Deployment, whose replica count each write changes.
const ClientKey = session.ClientKey

// Options configure a new App.
type Options struct {
	Params viz.Params
	// SpeedGiven says the reader chose Params.Speed; otherwise the app
	// starts at DefaultSpeed.
	SpeedGiven bool
	// Problems are messages about bad parameters, shown in the banner.
	Problems []string
	// MissingFigure is a scenario id the reader asked for that does not
	// exist. The app opens the list of figures with one line saying so at
	// its top, rather than a message naming every id; closing the list
	// dismisses the line.
	MissingFigure string
	Width         float64
	Height        float64
	// Measure returns the width in pixels of s at font size size. Nil
	// estimates it, which is enough for tests.
	Measure func(s string, size float64) float64
	// Scenarios lists the scenarios the picker offers. Nil offers none.
	Scenarios session.Catalog
	// BaseURL is the page address share links start with.
	BaseURL string
	// Describe has TakeEffects hand on the figure's description and its
	// announcements as they change (see describe.go), for a page that
	// shows the figure in words too.
	Describe bool
	// Still makes frames for still pictures (posters, print): nothing in
	// them asks to be pressed or scrolled (scene.Builder.Still).
	Still bool
}

// SortProblems splits the problems found in the page's or the command
// line's parameters into the messages for the banner and an unknown figure,
// which Options.MissingFigure handles on its own.
func SortProblems(ps []viz.ParamProblem) (msgs []string, missingFigure string) {
	for _, p := range ps {
		if p.NoSuchScenario {
			missingFigure = strings.TrimSpace(p.Value)
			continue
		}
		msgs = append(msgs, p.Message)
	}
	return msgs, missingFigure
}

// App is the application: world, history, scenario and screen state.
type App struct {
	opts   Options
	params viz.Params
	// The parts that own the app's state: the run shown, the reader's
	// choices on screen, the canvas and its layout, the app's time.
	session *session.Session
	view    *view.View
	stage   *stage.Stage
	clock   *clock.Clock
	// input is the pointer's gesture and press under way.
	input input
	// builder makes frames from the parts; frame is the last one, built
	// at version built.
	builder *scene.Builder
	frame   *frame.Frame
	built   uint64
	// opening is a share link being opened a piece at a time, while it
	// lasts.
	opening *session.Opening
	effects []frame.Effect
	told    told
	version uint64
	stats   frame.Stats
	// host is the canvas's size in the host's pixels, and zoom how many
	// of them a logical pixel takes (presenter mode, see present.go).
	host viz.Point
	zoom float64
	// anim is an animation the host is painting as a GIF (pictures.go).
	anim *animation
}

// input is what the reader's pointer is doing: a gesture the recognizer
// follows (a stroke, a drag), or a press on one of the app's own controls.
type input struct {
	rec   *viz.Recognizer
	press pointerState
}

// pointerState is what a press that the gesture recognizer does not see
// is doing: pressing one of the app's own controls, or scrolling a panel
// or the logs.
type pointerState struct {
	active bool
	id     int
	widget string
	// scrolling: panel (>= 0) or logs, from start with the value then.
	panel    int
	logs     bool
	start    viz.Point
	startVal float64
	moved    bool
}

// plain reports whether the screen keeps Raft's mechanism from the
// reader (scene.Parts.Plain).
func (a *App) plain() bool { return a.voice().Plain() }

// voice is how the screen speaks of the world shown, to the reader's hand
// (scene.Parts.Voice).
func (a *App) voice() words.Voice {
	p := a.parts()
	return p.Voice()
}

// figure reports whether the app shows an embedded figure.
func (a *App) figure() bool { return a.params.Embed && a.scen() != nil }

// secondsClock reports whether the run's clock reads in seconds (see
// scene.Parts.SecondsClock).
func (a *App) secondsClock() bool {
	return a.scen() != nil && a.scen().Spec().UI.SecondsClock()
}

// pace is the speed the scenario played asks for when the reader chose
// none (scenarios.UI.Pace), or 0.
func (a *App) pace() float64 {
	if a.scen() == nil {
		return 0
	}
	return a.scen().Spec().UI.Pace
}

// stopAt is the step a playing figure stops at (-1: none).
func (a *App) stopAt() int {
	if !a.figure() || a.clock.Paused() {
		return -1
	}
	return a.clock.Pace().Goal
}

// Frame returns the frame for the current state, building it only when
// something changed since the last call.
func (a *App) Frame() *frame.Frame {
	if a.frame == nil || a.built != a.version || a.frame.W != a.stage.W() || a.frame.H != a.stage.H() {
		a.stats.FrameBuilds++
		a.built = a.version
		a.frame = a.builder.Build(a.parts(), a.version)
	}
	return a.frame
}

// parts are the app's parts, for the builder to read.
func (a *App) parts() scene.Parts {
	return scene.Parts{Session: a.session, View: a.view, Stage: a.stage, Clock: a.clock, Params: a.params,
		Catalog: a.opts.Scenarios, Rec: a.input.rec, Pressing: a.input.press.active, Zoom: a.zoom}
}

// measure is the width of s at size in the host's font.
func (a *App) measure(s string, size float64) float64 { return a.builder.Measure(s, size) }

// cfg is the world's configuration (read only).
func (a *App) cfg() *raftcore.Config { return a.session.Config() }

// scen is the scenario played, or nil in free play.
func (a *App) scen() *session.Scenario { return a.session.Scenario() }

// World is the world shown now (read only: change it through Act).
func (a *App) World() *raftcore.World { return a.session.World() }

// Params returns the current settings.
func (a *App) Params() viz.Params { return a.params }

// Paused reports whether virtual time stands still.
func (a *App) Paused() bool { return a.clock.Paused() }

// Speed is virtual seconds per real second.
func (a *App) Speed() float64 { return a.clock.Speed() }

// Version changes whenever the frame would look different.
func (a *App) Version() uint64 { return a.version }

// Stats returns the counters.
func (a *App) Stats() frame.Stats {
	s := a.stats
	s.Version = a.version
	return s
}

// CountDraw records whether the host drew or skipped a frame.
func (a *App) CountDraw(drew bool) {
	if drew {
		a.stats.Draws++
	} else {
		a.stats.Skipped++
	}
}

func (a *App) changed() { a.version++ }

// say shows text in the banner for d of real time (0 keeps it until
// replaced or dismissed).
func (a *App) say(text string, tone frame.Tone, d time.Duration) {
	var until time.Duration
	if d > 0 {
		until = a.clock.Now() + d
	}
	a.view.Say(text, tone, until)
	a.changed()
}

// note is a short-lived banner for the result of a reader's action.
func (a *App) note(text string) { a.say(text, frame.ToneText, 4*time.Second) }

// SetVisible pauses the whole app while an embedding page has it out of
// view: no simulation, no drawing.
func (a *App) SetVisible(v bool) {
	if a.clock.SetVisible(v) {
		a.changed()
	}
}

// Visible reports whether the app is in view.
func (a *App) Visible() bool { return a.clock.Visible() }

// Layout returns the current screen layout.
func (a *App) Layout() *viz.Layout { return a.stage.Layout() }

// lay is the current screen layout (read only).
func (a *App) lay() *viz.Layout { return a.stage.Layout() }

// Selected is the selected machine's index, or -1.
func (a *App) Selected() int { return a.view.Selected() }

// nodeID converts a layout index to a machine id.
func nodeID(i int) raftcore.NodeID { return raftcore.NodeID(i + 1) }

// leader returns the index of the machine that leads in the highest term
// among running machines, or -1.
func (a *App) leader() int {
	w := a.World()
	best, term := -1, uint64(0)
	for i := 0; i < w.Size(); i++ {
		n := w.Node(nodeID(i))
		if w.Status(nodeID(i)) == raftcore.StatusUp && n.Role() == raftcore.RoleLeader && (best < 0 || n.Term() > term) {
			best, term = i, n.Term()
		}
	}
	return best
}

// nextWrite is the action of the next client write at machine i, or,
// with i -1, to the cluster, whose client picks a running machine as
// etcd's does (raftcore's endpoint.go): the Deployment's replica count,
// counting up. The toolbar and its key write to the cluster; a machine's
// menu, or a command naming a machine, to that machine.
func (a *App) nextWrite(i int) raftcore.Action {
	w := a.World()
	n := len(w.Ops()) + w.ForgottenOps().Count + 1
	return raftcore.Action{Do: raftcore.DoWrite, Node: i + 1, Key: ClientKey, Value: fmt.Sprintf("replicas=%d", n)}
}

// commandContext is what the command table needs to know of the app to
// read a line: the machines' names, the speed and the run's times.
func (a *App) commandContext() command.Context {
	return command.Context{Names: a.commandNames(), Speed: a.clock.Speed(), NowUs: a.session.NowUs(), HeadUs: a.session.HeadUs(),
		TickUs: int64(a.cfg().TickMs) * 1000, Open: a.view.Menu().Kind != view.MenuNone || a.view.Help()}
}

// machineNames are the machines' names, by layout index.
func (a *App) machineNames() []string {
	ns := make([]string, a.World().Size())
	for i := range ns {
		ns[i] = a.cfg().Name(nodeID(i))
	}
	return ns
}

// commandNames are the names a command line may give a machine, by
// index: the members', then the worker machines' ("worker-1"), which a
// worker's menu acts on.
func (a *App) commandNames() []string {
	ns := a.machineNames()
	for id := raftcore.NodeID(a.World().Size() + 1); a.cfg().IsWorker(id); id++ {
		ns = append(ns, a.cfg().WorkerName(id))
	}
	return ns
}

// allMachines are the machines' ids.
func (a *App) allMachines() []raftcore.NodeID {
	ids := make([]raftcore.NodeID, a.World().Size())
	for i := range ids {
		ids[i] = nodeID(i)
	}
	return ids
}

// hoverKey is what the mouse hovers over in the frame shown, or nothing
// while no mouse hovers or a press, a gesture or the help is under way.
func (a *App) hoverKey() view.HoverTarget {
	p, ok := a.view.Hover()
	if !ok || a.input.rec.Active() || a.input.press.active || a.view.Help() {
		return view.HoverTarget{}
	}
	f := a.Frame()
	return scene.HoverAt(f, a.lay(), p, scene.Dots(f, nil))
}

// widgetAt is the control under p in the frame shown.
func (a *App) widgetAt(p viz.Point) (frame.Widget, bool) { return scene.WidgetAt(a.Frame(), p) }

// panelAt is the panel under p in the frame shown.
func (a *App) panelAt(p viz.Point) (viz.PanelKind, bool) { return scene.PanelAt(a.Frame(), p) }

// menuRect is where the open menu is drawn.
func (a *App) menuRect() (viz.Rect, bool) {
	f := a.Frame()
	if f.Menu == nil {
		return viz.Rect{}, false
	}
	return f.Menu.Rect, true
}

// Title is the title of the scenario shown, or "" in free play.
func (a *App) Title() string {
	if r := a.scen(); r != nil {
		return r.Spec().Title
	}
	return ""
}
