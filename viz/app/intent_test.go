package app

import (
	"time"

	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
)

// TestEveryWayInSpeaksIntents: keys, pointer gestures, the page's
// commands and the controls on screen are each turned into an intent,
// which Do alone applies.
func TestEveryWayInSpeaksIntents(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.clock.SetPaused(true)

	key := func(name string) command.Intent {
		in, ok := a.keyIntent(name)
		require.Truef(t, ok, "key %s does nothing", name)
		return in
	}
	assert.Equal(t, command.RunCommand{Cmd: viz.CmdClientWrite}, key("c"))
	assert.Equal(t, command.RunCommand{Cmd: viz.CmdPlayPause}, key("Space"))
	_, ok := a.keyIntent("Escape")
	assert.False(t, ok, "Escape with nothing open does something")

	assert.Equal(t, command.OpenMachine{Node: 2}, a.tapIntent(viz.Hit{Kind: viz.HitNode, Node: 2}))
	assert.Equal(t, command.OpenLink{Link: viz.LinkID{I: 0, J: 1}}, a.tapIntent(viz.Hit{Kind: viz.HitLink, Link: viz.LinkID{I: 0, J: 1}}))
	assert.Nil(t, a.tapIntent(viz.Hit{Kind: viz.HitCluster}), "a tap on nothing with nothing selected asks for something")
	assert.Equal(t, command.Isolate{Node: 1}, a.gestureIntent(viz.Gesture{Kind: viz.GestureIsolate, Node: 1}))
	assert.Equal(t, command.CutLinks{Links: []viz.LinkID{{I: 0, J: 2}}}, a.gestureIntent(viz.Gesture{Kind: viz.GestureCut, Links: []viz.LinkID{{I: 0, J: 2}}}))

	// A click names a control; the page's click asks for what the control
	// runs.
	in, err := a.pageIntent("click", "prevote")
	require.NoError(t, err)
	assert.Equal(t, command.ChangeSetting{Setting: raftcore.SettingPreVote, On: !a.World().Settings().PreVote}, in)

	// Controls of the selected machine's menu, before it is opened.
	require.NoError(t, a.Do(command.Select{Node: 1}))
	for id, want := range map[string]command.Intent{
		"node.pause":             command.ActOnMachine{Node: 1, Verb: raftcore.DoPause},
		"node.slow:20":           command.ActOnMachine{Node: 1, Verb: raftcore.DoSlow, Value: 20},
		"node.drift:0.5":         command.ActOnMachine{Node: 1, Verb: raftcore.DoDrift, Value: 0.5},
		"node.read:linearizable": command.ActOnMachine{Node: 1, Verb: raftcore.DoRead, Mode: raftcore.ReadLinearizable},
		"node.isolate":           command.Isolate{Node: 1},
	} {
		got, err := a.clickIntent(id)
		require.NoError(t, err, id)
		assert.Equal(t, want, got, id)
	}
	_, err = a.control("link.cut")
	assert.ErrorContains(t, err, "no control", "a link's control with no link menu open")
}

// TestEveryFrontEndReadsOneTable feeds every command of the table through
// every way in that accepts it (the page's commands, a book's prose, keys,
// the keyboard's presses on controls, clicks, act()) and finds the same
// intent each time: there is one vocabulary, parsed in one place.
func TestEveryFrontEndReadsOneTable(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.clock.SetPaused(true)
	ctx := a.commandContext()
	read := func(line string) command.Intent {
		in, err := command.Parse(ctx, line)
		require.NoError(t, err, line)
		return in
	}
	page := func(line string) command.Intent {
		name, rest, _ := strings.Cut(line, " ")
		args := strings.Fields(rest)
		if name == "act" || name == "import" {
			args = []string{rest}
		}
		in, err := a.pageIntent(name, args...)
		require.NoError(t, err, line)
		return in
	}
	for _, c := range command.Table {
		line := c.ExampleLine()
		want := read(line)
		assert.Equal(t, want, page(line), "the page's %s", line)
		in, err := a.Directive(line)
		if c.Prose {
			require.NoError(t, err, line)
			assert.Equal(t, want, in, "prose %q", line)
		} else {
			assert.Error(t, err, "prose may use %q", line)
		}
	}
	for _, b := range viz.KeyBindings() {
		in, ok := a.keyIntent(b.Key)
		require.True(t, ok, b.Key)
		line, _ := command.KeyLine(ctx, b.Key)
		assert.Equal(t, page(line), in, "key %q runs %q", b.Key, line)
	}
	// Every control on screen or in a menu, clicked and pressed, asks for
	// what its line asks for from the page.
	lines := 0
	openEveryMenu(t, a, func(what string, f *frame.Frame) {
		for w := range f.Widgets() {
			require.NotEmptyf(t, w.Do, "%s: control %s runs nothing", what, w.ID)
			in, err := a.clickIntent(w.ID)
			require.NoError(t, err, "%s: %s", what, w.ID)
			assert.Equalf(t, page(w.Do), in, "%s: a click on %s", what, w.ID)
			lines++
		}
		for _, c := range a.Controls() {
			if c.Slider {
				for _, line := range []string{c.Less, c.More} {
					in, err := a.nudgeIntent(c.ID, map[string]int{c.Less: -1, c.More: 1}[line])
					require.NoError(t, err, c.ID)
					assert.Equal(t, page(line), in, "%s: the arrows on %s", what, c.ID)
				}
				continue
			}
			in, err := a.pressIntent(c.ID)
			require.NoError(t, err, "%s: %s", what, c.ID)
			assert.Equalf(t, page(c.Do), in, "%s: Enter on %s", what, c.ID)
		}
	})
	assert.Greater(t, lines, 50, "too few controls were tried")
}

// openEveryMenu opens each kind of menu in turn (and the help) and calls
// f with the frame.
func openEveryMenu(t *testing.T, a *App, f func(what string, fr *frame.Frame)) {
	t.Helper()
	f("nothing open", a.Frame())
	require.NoError(t, a.Do(command.OpenMachine{Node: 0}))
	f("a machine's menu", a.Frame())
	require.NoError(t, a.Do(command.OpenLink{Link: viz.LinkID{I: 0, J: 1}}))
	f("a link's menu", a.Frame())
	for _, m := range a.World().InFlight() {
		if m.Type != raftcore.MsgClient && m.DeliverUs > m.SendUs {
			require.NoError(t, a.Do(command.OpenMessage{Msg: m.ID}))
			f("a message's menu", a.Frame())
			break
		}
	}
	require.NoError(t, a.Do(command.OpenSetup{}))
	f("the setup menu", a.Frame())
	require.NoError(t, a.Do(command.OpenScenarios{}))
	f("the scenarios", a.Frame())
}

// TestEveryControlRunsALine: a control does what its line says, and
// controls with one id run one line.
func TestEveryControlRunsALine(t *testing.T) {
	p := viz.DefaultParams()
	p.Scenario = "majority"
	a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true, Scenarios: session.BuiltinScenarios()})
	require.NoError(t, err)
	var c hostClock
	untilLeader(t, a, &c)
	a.clock.SetPaused(true)
	ids := map[string]bool{}
	openEveryMenu(t, a, func(what string, f *frame.Frame) {
		byID := map[string]string{}
		for w := range f.Widgets() {
			ids[w.ID] = true
			_, err := command.Parse(a.commandContext(), w.Do)
			require.NoErrorf(t, err, "%s: control %s runs %q", what, w.ID, w.Do)
			if line, ok := byID[w.ID]; ok {
				assert.Equalf(t, line, w.Do, "%s: two controls named %s run different lines", what, w.ID)
			}
			byID[w.ID] = w.Do
		}
	})
	for _, id := range []string{"cmd:play-pause", "menu", "node.crash", "link.ij", "msg.drop", "nodes:9", "theme:dark", "scenario:", "scenario:majority", "scenario.autoplay", "scenario.restart", "knob:split=4/1"} {
		assert.Truef(t, ids[id], "no menu shows control %s; seen %v", id, ids)
	}
}

// TestAPageCommandAndItsControlDoTheSame: the page's "set prevote" and a
// click on the PreVote toggle leave the app alike: the same run, with
// PreVote off from that moment, the change recorded as an action.
func TestAPageCommandAndItsControlDoTheSame(t *testing.T) {
	a, b := newApp(t, 3, 1280, 800), newApp(t, 3, 1280, 800)
	require.True(t, a.World().Settings().PreVote, "PreVote is on by default")
	_, err := a.Cmd("set", "prevote", "off")
	require.NoError(t, err)
	require.NoError(t, b.Click("prevote"))
	require.False(t, a.World().Settings().PreVote)
	assert.True(t, a.cfg().PreVote, "the run started with PreVote on")
	assert.Equal(t, a.cfg(), b.cfg())
	assert.Equal(t, a.World().Actions(), b.World().Actions())
	assert.Equal(t, a.State().Banner, b.State().Banner)
}

// TestASetupChangeKeepsTheRunAndForksThePast: a setting changed at the
// live end keeps the world and holds from then on; changed at a moment in
// the past, it forks the run there, the run left kept; starting again
// then begins a new run with the setting as it now is.
func TestASetupChangeKeepsTheRunAndForksThePast(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	var c hostClock
	untilLeader(t, a, &c)
	c.run(a, 2*time.Second)
	before := a.World().Now()
	leaderTerm := a.World().Node(nodeID(a.leader())).Term()
	require.NoError(t, a.Click("checkquorum"))
	w := a.World()
	assert.Equal(t, before, w.Now(), "the run goes on from the moment it was")
	assert.Equal(t, leaderTerm, w.Node(nodeID(a.leader())).Term(), "the world is kept")
	assert.False(t, w.Settings().CheckQuorum)
	last := lastAction(t, a)
	assert.Equal(t, raftcore.Action{Do: raftcore.DoSet, Setting: raftcore.SettingCheckQuorum, Value: "off", AtMs: last.AtMs, AfterEvents: last.AfterEvents}, last)

	c.run(a, time.Second)
	require.NoError(t, a.Do(command.Seek{AtUs: before / 2}))
	require.NoError(t, a.Click("prevote"))
	assert.True(t, a.session.HasOtherRun(), "acting in the past forks the run")
	assert.False(t, a.World().Settings().PreVote)
	assert.True(t, a.World().Settings().CheckQuorum, "the fork is before CheckQuorum was turned off")
	assert.Contains(t, a.State().Banner, "started a new run from there")

	_, err := a.Cmd("reset")
	require.NoError(t, err)
	assert.False(t, a.cfg().PreVote, "starting again keeps the setting chosen")
	assert.True(t, a.cfg().CheckQuorum, "and the settings of the fork's moment")
	assert.Empty(t, a.World().Actions())
}

// A link that is not there is refused with an error, and a link's menu
// left open while the cluster shrinks under it closes instead of
// describing machines that are gone.
func TestALinkMenuNeverNamesAMissingMachine(t *testing.T) {
	a := newApp(t, 1, 1280, 800)
	assert.Error(t, a.Do(command.OpenLink{Link: viz.LinkID{I: 0, J: 1}}))
	assert.Nil(t, a.Frame().Menu)

	a = newApp(t, 3, 1280, 800)
	require.NoError(t, a.Do(command.OpenLink{Link: viz.LinkID{I: 1, J: 2}}))
	require.NotNil(t, a.Frame().Menu)
	require.NoError(t, a.Do(command.SetNodes{Nodes: 2}))
	assert.NotPanics(t, func() { a.Frame() })
	assert.Nil(t, a.Frame().Menu, "the menu of link 2-3 stays open with two machines")
}
