package app

import (
	"fmt"
	"math"
	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
	"time"
)

// Do applies one of the reader's intents: it is the one place where what
// the reader asks for changes the app. It returns what went wrong, for the
// caller to show or to hand back.
func (a *App) Do(in command.Intent) error {
	defer a.changed()
	defer a.settle()
	a.stopOpening()
	a.session.TakeFork()
	before := a.view.Banner()
	defer func() {
		// Acting in the past forks the run: say so after whatever the
		// action's own note says, since the reader may not expect it.
		if at, forked := a.session.TakeFork(); forked {
			own := ""
			if a.view.Banner() != before {
				own = a.view.Banner().Text
			}
			a.say(words.Forked(own, at), frame.ToneText, 8*time.Second)
		}
	}()
	defer func() {
		// The list of figures says an asked-for figure is missing only
		// until it closes.
		if a.view.Menu().Kind != view.MenuScenarios {
			a.view.SetMissingFigure("")
		}
	}()
	for _, do := range []func(command.Intent) (bool, error){a.doTime, a.doScreen, a.doWorld, a.doSetup} {
		if handled, err := do(in); handled {
			return err
		}
	}
	return fmt.Errorf("app: no way to do %#v", in)
}

// doTime does the intents about time: playing, stepping, the story's steps, the
// timeline.
func (a *App) doTime(in command.Intent) (handled bool, err error) {
	switch in := in.(type) {
	case command.RunCommand:
		return true, a.command(in.Cmd)
	case command.SetPaused:
		a.clock.SetPaused(in.Paused)
	case command.SetSpeed:
		a.clock.SetSpeed(in.Speed)
	case command.Seek:
		a.session.GoTo(in.AtUs)
		a.clock.Forget()
		a.afterWorldMoved()
	case command.GoLive:
		a.goLive()
	case command.ReturnToOtherRun:
		return true, a.returnToOtherRun()
	case command.PlayStep:
		return true, a.playStep()
	case command.PrevStep:
		return true, a.prevStep()
	default:
		return false, nil
	}
	return true, nil
}

// doScreen does the intents about the screen: the selection, menus, panels,
// the help, the key and the theme.
func (a *App) doScreen(in command.Intent) (handled bool, err error) {
	switch in := in.(type) {
	case command.Select:
		if in.Node < -1 || in.Node >= a.World().Size() {
			return true, fmt.Errorf("select: there is no machine %d: use 1 to %d, or 0 for none", in.Node+1, a.World().Size())
		}
		a.selectNode(in.Node)
	case command.ClearSelection:
		a.view.Select(-1, false)
		a.view.CloseMenu()
	case command.Dismiss:
		a.view.Dismiss()
	case command.ShowHelp:
		a.view.SetHelp(in.On)
	case command.SetPresent:
		a.setPresent(in.On)
	case command.ShowLegend:
		a.view.SetLegend(in.On)
	case command.CloseBanner:
		a.view.CloseBanner()
	case command.OpenMachine:
		if a.cfg().IsWorker(raftcore.NodeID(in.Node + 1)) {
			// A worker is no member: it is not selected, as the
			// panels and the log rows are the members'.
			a.openMenu(view.Menu{Kind: view.MenuNode, Node: in.Node})
			break
		}
		if in.Node < 0 || in.Node >= a.World().Size() {
			return true, fmt.Errorf("there is no machine %d", in.Node+1)
		}
		a.selectNode(in.Node)
		a.openMenu(view.Menu{Kind: view.MenuNode, Node: in.Node})
	case command.OpenLink:
		if n := a.World().Size(); in.Link.I < 0 || in.Link.J < 0 || in.Link.I >= n || in.Link.J >= n || in.Link.I == in.Link.J {
			return true, fmt.Errorf("there is no link %d-%d", in.Link.I+1, in.Link.J+1)
		}
		a.openMenu(view.Menu{Kind: view.MenuLink, Link: in.Link})
	case command.OpenMessage:
		a.openMenu(view.Menu{Kind: view.MenuMsg, Msg: in.Msg})
	case command.OpenSetup:
		a.openMenu(view.Menu{Kind: view.MenuMain})
	case command.OpenScenarios:
		a.openMenu(view.Menu{Kind: view.MenuScenarios})
	case command.ShowPanel:
		a.setTab(in.Panel)
	case command.UnfoldPanel:
		a.view.Unfold(in.Panel)
	case command.ShowEveryRule:
		a.view.SetShowRules(in.On)
	case command.ScrollPanel:
		a.view.ScrollTo(in.Panel, in.Px, math.Inf(1))
	case command.ScrollLogs:
		a.view.ScrollLogs(in.Back, a.builder.LogMaxBack(a.parts()))
	case command.OpenZone:
		if in.Zone < 0 || in.Zone >= len(a.cfg().Zones) {
			return true, fmt.Errorf("there is no zone %d", in.Zone+1)
		}
		a.openMenu(view.Menu{Kind: view.MenuZone, Zone: in.Zone})
	case command.SetTheme:
		if in.Theme != frame.ThemeLight && in.Theme != frame.ThemeDark {
			return true, fmt.Errorf("theme: use light or dark")
		}
		a.view.SetTheme(in.Theme)
		a.params.Theme = string(in.Theme)
	default:
		return false, nil
	}
	return true, nil
}

// doWorld does the intents that act on the world, each recorded as actions.
func (a *App) doWorld(in command.Intent) (handled bool, err error) {
	switch in := in.(type) {
	case command.Act:
		return true, a.act(in.Action)
	case command.ActOnMachine:
		return true, a.actOnMachine(in)
	case command.ActOnLink:
		return true, a.actOnLink(in)
	case command.CutLinks:
		return true, a.cutLinks(in.Links)
	case command.Isolate:
		a.view.CloseMenu()
		return true, a.isolate(in.Node)
	case command.Reconnect:
		a.view.CloseMenu()
		return true, a.reconnect(in.Node)
	case command.MoveToZone:
		return true, a.moveToZone(in.Node, in.Zone)
	case command.ActOnZone:
		a.view.CloseMenu()
		return true, a.actOnZone(in)
	case command.ChangeMembers:
		a.view.CloseMenu()
		return true, a.changeMembers(in)
	case command.DropMessage:
		a.view.CloseMenu()
		if err := a.act(raftcore.Action{Do: raftcore.DoDrop, ID: in.Msg}); err != nil {
			return true, fmt.Errorf("that message has already arrived")
		}
		a.note(words.Dropped(in.Msg))
	default:
		return false, nil
	}
	return true, nil
}

// doSetup does the intents about the setup, scenarios and sharing.
func (a *App) doSetup(in command.Intent) (handled bool, err error) {
	switch in := in.(type) {
	case command.SetNodes:
		if in.Nodes < 1 || in.Nodes > viz.MaxNodes {
			return true, fmt.Errorf("nodes: use 1 to %d", viz.MaxNodes)
		}
		return true, a.freePlay(func(p *viz.Params) { p.Nodes = in.Nodes })
	case command.SetMembers:
		if in.Members < 0 || in.Members > a.params.Nodes {
			return true, fmt.Errorf("members: use 1 to %d (the rest start as spares), or 0 for every machine", a.params.Nodes)
		}
		return true, a.freePlay(func(p *viz.Params) { p.Members = in.Members })
	case command.SetProtocol:
		if _, err := raftcore.ParseProtocol(in.Protocol); err != nil {
			return true, fmt.Errorf("protocol: %v", err)
		}
		return true, a.freePlay(func(p *viz.Params) { p.Protocol = in.Protocol })
	case command.SetPreVote:
		return true, a.freePlay(func(p *viz.Params) { p.PreVote = in.On })
	case command.SetCheckQuorum:
		return true, a.freePlay(func(p *viz.Params) { p.CheckQuorum = in.On })
	case command.ChangeSetting:
		return true, a.changeSetting(in.Setting, in.On)
	case command.SetElection:
		if in.Ticks < 2 || in.Ticks > 100 {
			return true, fmt.Errorf("election: use 2 to 100 ticks")
		}
		return true, a.restart(func(c *raftcore.Config) { c.ElectionTicks = in.Ticks })
	case command.SetSnapshots:
		return true, a.restart(func(c *raftcore.Config) { c.SnapshotCount, c.CatchUpEntries = in.Count, in.CatchUp })
	case command.Restart:
		return true, a.restart(nil)
	case command.Reseed:
		a.params.Seed++
		return true, a.restart(nil)
	case command.StartScenario:
		a.view.CloseMenu()
		return true, a.startScenario(in.ID)
	case command.SetKnob:
		return true, a.setKnob(in.Knob, in.Value)
	case command.SetAutoplay:
		return true, a.setAutoplay(in.On)
	case command.OpenInLab:
		return true, a.openInLab()
	case command.CopyLink:
		link, err := a.linkFor(a.params)
		if err != nil {
			return true, fmt.Errorf("no link can hold this run (%v): export it as a schedule instead", err)
		}
		a.effects = append(a.effects, frame.Effect{Kind: frame.EffectCopy, Text: link})
		a.note(words.LinkCopied)
	case command.SaveRun:
		return true, a.save("raftlab-run.json", a.ExportSchedule)
	case command.SaveTrace:
		return true, a.save("raftlab-trace.json", a.ExportTrace)
	case command.SavePicture:
		return true, a.savePicture(in)
	case command.SaveFrames:
		return true, a.saveFrames(in)
	case command.ChooseRun:
		a.effects = append(a.effects, frame.Effect{Kind: frame.EffectOpen})
	case command.OpenRun:
		return true, a.openRun([]byte(in.JSON))
	default:
		return false, nil
	}
	return true, nil
}

// try does an intent of the reader's own hands (a pointer, a key, a
// control) and says in the banner what went wrong.
func (a *App) try(in command.Intent) error {
	err := a.Do(in)
	if err != nil {
		a.say(err.Error(), frame.ToneBad, 6*time.Second)
	}
	return err
}

// tryLine does a command line of the reader's own hands (a key, a
// control) and says in the banner what went wrong.
func (a *App) tryLine(line string) error {
	in, err := command.Parse(a.commandContext(), line)
	if err != nil {
		a.say(err.Error(), frame.ToneBad, 6*time.Second)
		return err
	}
	return a.try(in)
}

// Command runs a toolbar or keyboard command, as its button or key does.
func (a *App) Command(c viz.Command) error { return a.Do(command.RunCommand{Cmd: c}) }

// command runs a toolbar or keyboard command.
func (a *App) command(c viz.Command) error {
	if c != viz.CmdHelp {
		a.view.SetHelp(false)
	}
	switch c {
	case viz.CmdPlayPause:
		if a.figure() && a.clock.Paused() {
			return a.playStep()
		}
		a.clock.SetPaused(!a.clock.Paused())
	case viz.CmdStep, viz.CmdStepBack, viz.CmdPrevEvent, viz.CmdNextEvent:
		a.clock.SetPaused(true)
		a.move(c)
		a.afterWorldMoved()
	case viz.CmdClientWrite:
		return a.act(a.nextWrite(-1))
	case viz.CmdRestartLeader:
		return a.restartLeader()
	case viz.CmdSpreadTimers:
		return a.spreadTimers()
	case viz.CmdAlignTimers:
		return a.alignTimers()
	case viz.CmdSplitVote:
		return a.splitVote()
	case viz.CmdResumeAll:
		return a.resumeAll()
	case viz.CmdHeal:
		return a.act(raftcore.Action{Do: raftcore.DoHeal})
	case viz.CmdPresent:
		a.setPresent(!a.params.Present)
	case viz.CmdHelp:
		a.view.SetHelp(!a.view.Help())
		a.view.CloseMenu()
	default:
		return fmt.Errorf("unknown command %v", c)
	}
	return nil
}

// move shows the run a step or a notable event on or back, and says so
// when there is none.
func (a *App) move(c viz.Command) {
	switch c {
	case viz.CmdStep:
		if !a.session.Step() {
			a.note(words.NothingDue)
		}
	case viz.CmdStepBack:
		if !a.session.StepBack() {
			a.note(words.RunStart)
		}
	case viz.CmdPrevEvent:
		if m, ok := a.session.PrevMark(); ok {
			a.note(a.voice().MarkText(m))
		} else {
			a.session.GoTo(0)
			a.note(words.NothingBefore)
		}
	case viz.CmdNextEvent:
		if m, ok := a.session.NextMark(); ok {
			a.note(a.voice().MarkText(m))
		} else {
			a.note(words.NothingNext)
		}
	}
}

// restartLeader crashes the leader and brings it back.
func (a *App) restartLeader() error {
	l := a.leader()
	if l < 0 {
		a.note(a.voice().NoLeaderNow())
		return nil
	}
	if err := a.actAll([]raftcore.Action{{Do: raftcore.DoCrash, Node: l + 1}, {Do: raftcore.DoRestart, Node: l + 1}}); err != nil {
		return err
	}
	a.note(a.voice().Restarted(a.cfg().Name(nodeID(l))))
	return nil
}

// resumeAll brings back every paused or crashed machine.
func (a *App) resumeAll() error {
	w := a.World()
	var xs []raftcore.Action
	for i := 0; i < w.Size(); i++ {
		switch w.Status(nodeID(i)) {
		case raftcore.StatusPaused:
			xs = append(xs, raftcore.Action{Do: raftcore.DoResume, Node: i + 1})
		case raftcore.StatusCrashed:
			xs = append(xs, raftcore.Action{Do: raftcore.DoRestart, Node: i + 1})
		}
	}
	if len(xs) == 0 {
		a.note(words.AllRunning)
	}
	return a.actAll(xs)
}

// save hands the host a file made by export.
func (a *App) save(name string, export func() ([]byte, error)) error {
	data, err := export()
	if err != nil {
		return err
	}
	a.effects = append(a.effects, frame.Effect{Kind: frame.EffectSave, Name: name, Data: data})
	return nil
}
