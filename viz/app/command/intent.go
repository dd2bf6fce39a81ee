// Package command is what a reader can ask of raftlab's app, in two forms:
// intents, the plain values the app's Do applies, and the command table,
// the one vocabulary of words every text way in uses (the page's commands,
// the directives of a book's prose, keys, the keyboard's presses on
// controls, the controls' own clicks and act()). A line such as "cut A-C"
// or "knob split 4/1" is parsed here and nowhere else.
package command

import (
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
)

// Intent is one thing the reader asks of the app: run a command, open a
// menu, act on a machine or a link, change the setup, scroll a panel.
//
// Every way in turns what the reader did into intents, and the app's Do
// alone applies them, the way Ebiten's 2048 example turns keys and swipes
// into a direction that only its board moves by: pointer gestures become
// intents directly (a tap on a machine is OpenMachine, a stroke across
// links CutLinks); every way in that speaks words goes through Parse.
//
// The world changes only through recorded raftcore actions: the intents
// that act on it become raftcore.Actions in Do.
type Intent interface{ isIntent() }

// Time and what the screen shows.
type (
	// RunCommand runs a toolbar or keyboard command. Any command but help
	// closes the help.
	RunCommand struct{ Cmd viz.Command }
	// SetPaused stops or starts virtual time.
	SetPaused struct{ Paused bool }
	// SetSpeed sets virtual seconds per real second, kept to the slider's
	// range.
	SetSpeed struct{ Speed float64 }
	// Seek shows the run at virtual time AtUs.
	Seek struct{ AtUs int64 }
	// GoLive leaves the recorded past for the live end of the run and
	// lets it go on.
	GoLive struct{}
	// ReturnToOtherRun brings back the run left by acting in the past,
	// keeping the one made since in its place.
	ReturnToOtherRun struct{}
	// Select selects machine Node (a layout index; -1 for none).
	Select struct{ Node int }
	// ClearSelection selects no machine and closes the open menu.
	ClearSelection struct{}
	// Dismiss closes the open menu and the help.
	Dismiss struct{}
	// ShowHelp shows or hides the help.
	ShowHelp struct{ On bool }
	// ShowLegend shows or hides the key to the marks on the stage.
	ShowLegend struct{ On bool }
	// CloseBanner hides the note in the banner.
	CloseBanner struct{}
	// OpenMachine selects machine Node and opens its menu, or closes the
	// menu when it is open already.
	OpenMachine struct{ Node int }
	// OpenLink opens (or closes) the menu of a link.
	OpenLink struct{ Link viz.LinkID }
	// OpenMessage opens (or closes) the menu of the message in flight Msg.
	OpenMessage struct{ Msg uint64 }
	// OpenSetup opens (or closes) the menu of scenarios and setup.
	OpenSetup struct{}
	// OpenScenarios opens (or closes) the list of scenarios.
	OpenScenarios struct{}
	// ShowPanel brings a panel's tab to the front.
	ShowPanel struct{ Panel viz.PanelKind }
	// UnfoldPanel opens a stacked panel folded to its title.
	UnfoldPanel struct{ Panel viz.PanelKind }
	// ShowEveryRule lists the safety rules that hold too (On) or only the
	// broken ones.
	ShowEveryRule struct{ On bool }
	// ScrollPanel scrolls a panel's text to Px pixels from its top.
	ScrollPanel struct {
		Panel viz.PanelKind
		Px    float64
	}
	// ScrollLogs shows the logs Back entries back from the newest.
	ScrollLogs struct{ Back uint64 }
)

// The world: each of these becomes recorded raftcore actions.
type (
	// Act records an action as it is given, as the page's act() does.
	Act struct{ Action raftcore.Action }
	// ActOnMachine acts on machine Node (a layout index) as its menu does:
	// raftcore.DoPause, DoResume, DoCrash, DoRestart, DoTimeout, DoSlow
	// (Value is milliseconds per message), DoDrift (Value is the clock's
	// rate), DoWrite (the next client write) or DoRead (of the question's
	// key, served by Mode; "" is the app's read mode).
	ActOnMachine struct {
		Node  int
		Verb  raftcore.Verb
		Value float64
		Mode  raftcore.ReadMode
	}
	// ActOnLink acts on a link as its menu does: raftcore.DoCut or
	// DoRestore (both ways, or with OneWay from I to J, or from J to I when
	// Back), DoLatency (LatencyMs, the least and most) or DoLoss (Loss, the
	// share of messages lost).
	ActOnLink struct {
		Link      viz.LinkID
		Verb      raftcore.Verb
		OneWay    bool
		Back      bool
		LatencyMs [2]float64
		Loss      float64
	}
	// CutLinks is a stroke across links: it cuts them, or restores them
	// when the first one crossed was cut.
	CutLinks struct{ Links []viz.LinkID }
	// Isolate cuts machine Node off from every other machine.
	Isolate struct{ Node int }
	// Reconnect restores every link of machine Node.
	Reconnect struct{ Node int }
	// MoveToZone moves machine Node to side Zone of a partition (the empty
	// zone makes a new side), or, in a world with zones, to zone Zone.
	MoveToZone struct{ Node, Zone int }
	// OpenZone opens (or closes) the menu of zone Zone of a world with
	// zones.
	OpenZone struct{ Zone int }
	// ActOnZone acts on zone Zone as a whole, as its menu does:
	// raftcore.DoZoneCrash, DoZoneRestart, DoZoneCut or DoZoneHeal.
	ActOnZone struct {
		Zone int
		Verb raftcore.Verb
	}
	// DropMessage drops a message in flight: it never arrives.
	DropMessage struct{ Msg uint64 }
	// ChangeMembers asks the leader for a change to the cluster:
	// raftcore.DoAdd or DoAddLearner (Node, a spare, joins), DoPromote
	// (Node, a learner, gets a vote), DoRemove (Node leaves), or
	// DoTransferLeader (Node, a voter, is to lead); DoJoint changes the
	// voters to Voters in one joint step. Node and Voters are layout
	// indexes.
	ChangeMembers struct {
		Verb   raftcore.Verb
		Node   int
		Voters []int
	}
)

// The setup, scenarios and sharing.
type (
	// SetNodes starts a free-play run of Nodes machines.
	SetNodes struct{ Nodes int }
	// SetMembers starts a free-play run with Members machines in the
	// cluster and the rest as spares (0: every machine).
	SetMembers struct{ Members int }
	// SetProtocol starts a free-play run of a protocol.
	SetProtocol struct{ Protocol string }
	// SetPreVote starts a free-play run with PreVote on or off.
	SetPreVote struct{ On bool }
	// SetCheckQuorum starts a free-play run with CheckQuorum on or off.
	SetCheckQuorum struct{ On bool }
	// ChangeSetting turns a setting of raft (raftcore's "set": prevote,
	// checkquorum or a deliberate bug) on or off from now on, keeping the
	// run; in the past it forks the run there.
	ChangeSetting struct {
		Setting string
		On      bool
	}
	// SetElection starts the run again with an election timeout of Ticks
	// ticks.
	SetElection struct{ Ticks int }
	// SetSnapshots starts the run again taking a snapshot every Count
	// applied entries (0: never), keeping CatchUp entries before it.
	SetSnapshots struct{ Count, CatchUp int }
	// SetTheme changes the palette.
	SetTheme struct{ Theme frame.Theme }
	// Restart starts the run again with the same settings (a scenario
	// with its knobs as they are).
	Restart struct{}
	// Reseed starts the run again with the next seed.
	Reseed struct{}
	// StartScenario starts a scenario by id ("" for free play).
	StartScenario struct{ ID string }
	// SetKnob starts the scenario again with one of its knobs set.
	SetKnob struct{ Knob, Value string }
	// SetAutoplay has the app play the scenario's script from the start,
	// or stop playing it.
	SetAutoplay struct{ On bool }
	// PlayStep plays a figure on to its story's next step, where it
	// rests.
	PlayStep struct{}
	// PrevStep takes a figure back to where its story's step began (or
	// the step before), and rests there.
	PrevStep struct{}
	// OpenInLab has the host open the full lab at this moment of this
	// run, in a new tab.
	OpenInLab struct{}
	// CopyLink hands the host the share link of the run so far.
	CopyLink struct{}
	// SaveRun hands the host the run as a schedule file.
	SaveRun struct{}
	// SaveTrace hands the host the run's trace as a file.
	SaveTrace struct{}
	// SavePicture has the host save the next frame as a PNG as the screen
	// shows it; or, with Part set, a picture for a slide of that part
	// (the whole frame, the stage, or one panel) as Format says: a PNG
	// at twice the size, or an SVG.
	SavePicture struct {
		Part   PicturePart
		Format string // "png" or "svg"; "" with no Part
	}
	// SaveFrames saves the stage as SVG pictures of the last Seconds of
	// virtual time, frame by frame, in one zip file: an animation for a
	// slide.
	SaveFrames struct {
		Seconds float64
		GIF     bool // one animated GIF the host paints, instead of SVG frames
	}
	// ChooseRun asks the host for a schedule file to open.
	ChooseRun struct{}
	// OpenRun opens a schedule (JSON): its world, replayed to its end.
	OpenRun struct{ JSON string }
)

func (RunCommand) isIntent()       {}
func (SaveFrames) isIntent()       {}
func (SetPresent) isIntent()       {}
func (SetPaused) isIntent()        {}
func (GoLive) isIntent()           {}
func (SetSpeed) isIntent()         {}
func (Seek) isIntent()             {}
func (ReturnToOtherRun) isIntent() {}
func (Select) isIntent()           {}
func (ClearSelection) isIntent()   {}
func (Dismiss) isIntent()          {}
func (ShowHelp) isIntent()         {}
func (ShowLegend) isIntent()       {}
func (CloseBanner) isIntent()      {}
func (OpenMachine) isIntent()      {}
func (OpenLink) isIntent()         {}
func (OpenMessage) isIntent()      {}
func (OpenSetup) isIntent()        {}
func (OpenScenarios) isIntent()    {}
func (ShowPanel) isIntent()        {}
func (UnfoldPanel) isIntent()      {}
func (ShowEveryRule) isIntent()    {}
func (ScrollPanel) isIntent()      {}
func (ScrollLogs) isIntent()       {}
func (Act) isIntent()              {}
func (ActOnMachine) isIntent()     {}
func (ActOnLink) isIntent()        {}
func (CutLinks) isIntent()         {}
func (Isolate) isIntent()          {}
func (Reconnect) isIntent()        {}
func (MoveToZone) isIntent()       {}
func (OpenZone) isIntent()         {}
func (ActOnZone) isIntent()        {}
func (DropMessage) isIntent()      {}
func (SetNodes) isIntent()         {}
func (SetProtocol) isIntent()      {}
func (SetMembers) isIntent()       {}
func (ChangeMembers) isIntent()    {}
func (SetPreVote) isIntent()       {}
func (SetCheckQuorum) isIntent()   {}
func (ChangeSetting) isIntent()    {}
func (SetElection) isIntent()      {}
func (SetSnapshots) isIntent()     {}
func (SetTheme) isIntent()         {}
func (Restart) isIntent()          {}
func (Reseed) isIntent()           {}
func (StartScenario) isIntent()    {}
func (SetKnob) isIntent()          {}
func (SetAutoplay) isIntent()      {}
func (PlayStep) isIntent()         {}
func (PrevStep) isIntent()         {}
func (OpenInLab) isIntent()        {}
func (CopyLink) isIntent()         {}
func (SaveRun) isIntent()          {}
func (SaveTrace) isIntent()        {}
func (SavePicture) isIntent()      {}
func (ChooseRun) isIntent()        {}
func (OpenRun) isIntent()          {}

// PicturePart is what a picture for a slide shows.
type PicturePart struct {
	// Kind is "" (the screen as it is), "all", "stage" (the machines and
	// their logs) or "panel".
	Kind  string
	Panel viz.PanelKind // with Kind "panel"
}

// SetPresent turns presenter mode on or off: everything larger, one panel
// at a time behind tabs, for a projector.
type SetPresent struct{ On bool }

// SmallSnapshots is the Setup menu's small snapshot setting: a snapshot
// every few entries, so that compaction shows within seconds of writes.
var SmallSnapshots = SetSnapshots{Count: 10, CatchUp: 5}

// SnapshotChoice is the snapshot setting a name stands for: off, small
// or default (the lab's default, raftcore.DefaultSnapshotCount).
func SnapshotChoice(name string) (SetSnapshots, bool) {
	switch name {
	case "off":
		return SetSnapshots{}, true
	case "small":
		return SmallSnapshots, true
	case "default":
		return SetSnapshots{Count: raftcore.DefaultSnapshotCount, CatchUp: raftcore.DefaultCatchUpEntries}, true
	}
	return SetSnapshots{}, false
}
