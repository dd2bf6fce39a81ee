package app

import (
	"fmt"
	"strings"
	"time"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/build"
	"raftlab/viz/app/clock"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
	"raftlab/viz/app/stage"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// DefaultSpeed is the speed when the reader chose none: a tenth of real
// time, so that a message takes a few tenths of a second to cross and an
// election can be followed by eye.
const DefaultSpeed = 0.1

// TraceLimit bounds the trace kept in memory, so that a long run does not
// grow without end; the trace hash still covers every event.
const TraceLimit = 4096

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
	// rec and press are the pointer's gesture and press under way.
	rec   *viz.Recognizer
	press pointerState
	// builder makes frames from the parts; frame is the last one, built
	// at version built.
	builder *build.Builder
	frame   *frame.Frame
	built   uint64
	effects []frame.Effect
	told    told
	version uint64
	stats   frame.Stats
}

// New builds an app from its options. Parameters are assumed checked by
// viz.ParseQuery or viz.ParseArgs; bad values are reported, not fatal.
func New(o Options) (*App, error) {
	a := &App{opts: o, params: o.Params, builder: build.New(o.Measure)}
	if err := a.params.Check(); err != nil {
		return nil, err
	}
	a.rec = viz.NewRecognizer(viz.GestureConfig{})
	speed := a.params.Speed
	if !o.SpeedGiven {
		speed = DefaultSpeed
		if a.params.Embed && a.params.Scenario != "" {
			speed = FigureSpeed
		}
	}
	a.clock = clock.New(speed)
	a.stage = stage.New(0, 0)
	a.view = view.New(frame.Theme(a.params.Theme))
	if err := a.start(0); err != nil {
		return nil, err
	}
	if a.params.T > 0 {
		a.advance(int64(a.params.T * 1e6))
		a.afterWorldMoved()
	}
	if a.params.Link != "" {
		if err := a.openLink(a.params.Link); err != nil {
			o.Problems = append(o.Problems, "The link could not be opened: "+err.Error())
		}
	}
	switch {
	case len(o.Problems) > 0:
		a.say(strings.Join(o.Problems, "\n"), frame.ToneBad, 0)
	case o.MissingFigure != "":
		a.view.SetMissingFigure(o.MissingFigure)
		a.openMenu(view.Menu{Kind: view.MenuScenarios})
	case a.scen() == nil && a.params.Link == "" && a.World().Now() == 0 && a.cfg().Protocol == raftcore.ProtocolRaft:
		// The first election takes a while at a watchable speed; say why.
		a.say(words.NoLeaderYet, frame.ToneText, 20*time.Second)
	}
	a.Resize(o.Width, o.Height)
	a.settle()
	return a, nil
}

// start builds the world for the current parameters (and scenario):
// a new session. electionTicks, if not 0, is the election timeout of a
// free-play run; otherwise the last run's is kept when the protocol is
// the same.
func (a *App) start(electionTicks int) error {
	cfg := a.baseConfig(electionTicks)
	var scen *session.Scenario
	if a.params.Scenario != "" {
		r, err := a.opts.Scenarios.Get(a.params.Scenario)
		if err != nil {
			return err
		}
		scen = r
		r.SetAutoplay(a.params.Autoplay)
		cfg = r.Config(a.params.Seed)
	}
	s, err := session.New(cfg, scen, readCheckBudget)
	if err != nil {
		return err
	}
	a.replaceSession(s)
	if scen != nil {
		// Behind tabs, the scenario's own words come first.
		a.view.SetTab(viz.PanelScenario)
		a.touchLayout()
		if a.figure() {
			a.openFigure()
		}
	}
	return nil
}

// replaceSession makes s the run shown: the view forgets what it had
// chosen of the old world, and the layout follows the new one.
func (a *App) replaceSession(s *session.Session) {
	a.session = s
	a.clock.Forget()
	a.view.ForgetWorld()
	a.stage.ForgetWorld()
	a.touchLayout()
	a.changed()
}

// baseConfig is a free-play world for the parameters.
func (a *App) baseConfig(electionTicks int) raftcore.Config {
	cfg := raftcore.DefaultConfig()
	cfg.Nodes = a.params.Nodes
	cfg.Seed = a.params.Seed
	cfg.Protocol = raftcore.Protocol(a.params.Protocol)
	cfg.PreVote = a.params.PreVote
	cfg.CheckQuorum = a.params.CheckQuorum
	cfg.Names = session.MachineNames(cfg.Nodes)
	cfg.TraceLimit = session.TraceLimit
	switch {
	case electionTicks > 0:
		cfg.ElectionTicks = electionTicks
	case a.session != nil && a.cfg().Protocol == cfg.Protocol:
		cfg.ElectionTicks = a.cfg().ElectionTicks
	}
	return cfg
}

// advance moves the world to virtual time to, stopping a figure that
// plays to its next step there (session.Advance).
func (a *App) advance(to int64) {
	if _, err := a.session.Advance(to, a.stopAt()); err != nil {
		a.say(words.Capital(err.Error()), frame.ToneBad, 0)
	}
}

// stopAt is the step a playing figure stops at (-1: none).
func (a *App) stopAt() int {
	if !a.figure() || a.clock.Paused() {
		return -1
	}
	return a.clock.Pace().Goal
}

// plain reports whether the screen speaks the plain words of a figure
// shown before the book introduces Raft (scenarios.WordsPlain): machines
// are active, silent or in charge, their histories hold writes, and there
// are no leaders, terms or votes, even when Raft runs underneath.
func (a *App) plain() bool {
	return a.scen() != nil && a.scen().Spec().UI.Words == scenarios.WordsPlain
}

// voice is how the screen speaks of the world shown, to the reader's hand.
func (a *App) voice() words.Voice {
	return words.Voice{Cfg: a.cfg(), Plain: a.plain(), Touch: a.stage.Touch()}
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
func (a *App) parts() build.Parts {
	return build.Parts{Session: a.session, View: a.view, Stage: a.stage, Clock: a.clock, Params: a.params,
		Catalog: a.opts.Scenarios, Rec: a.rec, Pressing: a.press.active}
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

// TakeEffects returns and forgets the host requests made since last time:
// with Options.Describe, the description and announcements too, which the
// host thereby takes once a tick at most.
func (a *App) TakeEffects() []frame.Effect {
	if a.opts.Describe {
		a.describeEffects()
	}
	e := a.effects
	a.effects = nil
	return e
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

// Update advances the app to real time now: it runs the world when
// playing, fires long presses and expires the banner. Hosts call it once a
// tick (60 times a second).
func (a *App) Update(now time.Duration) {
	a.stats.Updates++
	step := a.clock.Tick(now, a.view.Help())
	if g := a.rec.Tick(now); g.Kind != viz.GestureNone {
		a.gesture(g)
	}
	if a.view.Banner().Until > 0 && now >= a.view.Banner().Until {
		a.view.CloseBanner()
		a.changed()
	}
	if step > 0 {
		a.advance(a.session.NowUs() + step)
		a.afterWorldMoved()
		a.restIfDue()
		a.changed()
	}
	a.settle()
}

// settle brings what follows from the parts up to date after anything
// changed them: the layout (a figure's words may have grown, a partition
// may have healed), and the open menu, which closes when what it was
// about is gone (a message that arrived). Building a frame then only
// reads the parts.
func (a *App) settle() {
	a.touchLayout()
	if m := a.view.Menu(); m.Open() && a.builder.Menu(a.parts(), m) == nil {
		a.view.CloseMenu()
		a.changed()
	}
}

// afterWorldMoved lets the scenario observe the world and updates what
// depends on the world's shape (partition zones).
func (a *App) afterWorldMoved() {
	if a.session.Observed() {
		a.changed() // a new step is news worth a redraw
	}
	if r := a.scen(); r != nil && (!a.figure() || (!a.clock.Paused() && a.clock.Pace().Goal < 0)) {
		// Not paced step by step: the words follow the story.
		r.Show(r.Latest())
	}
	if a.view.Banner().Text == words.NoLeaderYet && a.leader() >= 0 {
		a.view.CloseBanner()
	}
	a.touchLayout()
}

// act applies one of the reader's actions through the history (recorded,
// so replayable).
func (a *App) act(x raftcore.Action) error {
	a.takeOver()
	if _, _, err := a.session.Act(x); err != nil {
		return err
	}
	a.afterWorldMoved()
	a.keepMoving()
	a.changed()
	return nil
}

// actAll applies several actions as one reader gesture.
func (a *App) actAll(xs []raftcore.Action) error {
	for _, x := range xs {
		if err := a.act(x); err != nil {
			return err
		}
	}
	return nil
}

// Act applies an action given as JSON (the page's act()): the command
// table's act.
func (a *App) Act(data []byte) error {
	in, err := command.ParseArgs(a.commandContext(), "act", string(data))
	if err != nil {
		return err
	}
	return a.Do(in)
}

// Resize lays the screen out for a canvas of w×h logical pixels.
func (a *App) Resize(w, h float64) {
	if a.stage.Resize(w, h) {
		a.settle()
		a.changed()
	}
}

// SetTouch tells the app the reader uses a touch screen: targets widen.
func (a *App) SetTouch(t bool) {
	if a.stage.SetTouch(t) {
		a.settle()
		a.changed()
	}
}

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

// clientTarget is the machine a client write goes to: the selected one,
// else the leader a client would find, else the first running machine.
func (a *App) clientTarget() int {
	if a.view.Selected() >= 0 {
		return a.view.Selected()
	}
	if l := a.leader(); l >= 0 {
		return l
	}
	w := a.World()
	for i := 0; i < w.Size(); i++ {
		if w.Status(nodeID(i)) == raftcore.StatusUp {
			return i
		}
	}
	return 0
}

// nextWrite is the action of the next client write at machine i: the
// Deployment's replica count, counting up.
func (a *App) nextWrite(i int) raftcore.Action {
	n := len(a.World().Ops()) + 1
	return raftcore.Action{Do: raftcore.DoWrite, Node: i + 1, Key: ClientKey, Value: fmt.Sprintf("replicas=%d", n)}
}

// restart starts a new world with the current settings (a scenario starts
// again with its knobs as they are); electionTicks, if not 0, is a free
// play's new election timeout.
func (a *App) restart(electionTicks int) error {
	if a.scen() != nil {
		if err := a.restartScenario(a.scen().Again()); err != nil {
			return err
		}
		a.note("Started again: " + a.scen().Spec().Title + ".")
		return nil
	}
	if err := a.start(electionTicks); err != nil {
		return err
	}
	a.note("New run: " + words.Setup(a.cfg()))
	return nil
}
