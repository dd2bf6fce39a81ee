package app

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/viz"
	"raftlab/viz/frame"
)

// TestEveryWayInSpeaksIntents: keys, pointer gestures, the page's
// commands and the controls on screen are each turned into an intent,
// which Do alone applies.
func TestEveryWayInSpeaksIntents(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	a.paused = true

	key := func(name string) Intent {
		in, ok := a.keyIntent(name)
		require.Truef(t, ok, "key %s does nothing", name)
		return in
	}
	assert.Equal(t, RunCommand{Cmd: viz.CmdClientWrite}, key("c"))
	assert.Equal(t, RunCommand{Cmd: viz.CmdPlayPause}, key("Space"))
	_, ok := a.keyIntent("Escape")
	assert.False(t, ok, "Escape with nothing open does something")

	assert.Equal(t, OpenMachine{Node: 2}, a.tapIntent(viz.Hit{Kind: viz.HitNode, Node: 2}))
	assert.Equal(t, OpenLink{Link: viz.LinkID{I: 0, J: 1}}, a.tapIntent(viz.Hit{Kind: viz.HitLink, Link: viz.LinkID{I: 0, J: 1}}))
	assert.Equal(t, ShowPanel{Panel: viz.PanelSafety}, a.tapIntent(viz.Hit{Kind: viz.HitTab, Panel: viz.PanelSafety}))
	assert.Nil(t, a.tapIntent(viz.Hit{Kind: viz.HitCluster}), "a tap on nothing with nothing selected asks for something")
	assert.Equal(t, Isolate{Node: 1}, a.gestureIntent(viz.Gesture{Kind: viz.GestureIsolate, Node: 1}))
	assert.Equal(t, CutLinks{Links: []viz.LinkID{{I: 0, J: 2}}}, a.gestureIntent(viz.Gesture{Kind: viz.GestureCut, Links: []viz.LinkID{{I: 0, J: 2}}}))

	cmd := func(name string, args ...string) Intent {
		in, err := a.cmdIntent(name, args)
		require.NoError(t, err, name)
		return in
	}
	assert.Equal(t, SetPaused{Paused: false}, cmd("play"))
	assert.Equal(t, RunCommand{Cmd: viz.CmdStep}, cmd("step"))
	assert.Equal(t, Select{Node: 1}, cmd("select", "2"))
	assert.Equal(t, SetNodes{Nodes: 7}, cmd("nodes", "7"))
	assert.Equal(t, SetPreVote{On: true}, cmd("option", "prevote", "on"))
	assert.Equal(t, SetElection{Ticks: 50}, cmd("election", "50"))
	assert.Equal(t, Seek{AtUs: 1500}, cmd("seek", "1.5"))
	// A click names a control; the command asks for what the control
	// asks for.
	assert.Equal(t, SetPreVote{On: !a.params.PreVote}, cmd("click", "prevote"))
	assert.Equal(t, CopyLink{}, cmd("click", "share.link"))

	// Controls of the selected machine's menu, before it is opened.
	require.NoError(t, a.Do(Select{Node: 1}))
	for id, want := range map[string]Intent{
		"node.pause":             ActOnMachine{Node: 1, Verb: raftcore.DoPause},
		"node.slow:20":           ActOnMachine{Node: 1, Verb: raftcore.DoSlow, Value: 20},
		"node.drift:0.5":         ActOnMachine{Node: 1, Verb: raftcore.DoDrift, Value: 0.5},
		"node.read:linearizable": ActOnMachine{Node: 1, Verb: raftcore.DoRead, Mode: raftcore.ReadLinearizable},
		"node.isolate":           Isolate{Node: 1},
	} {
		w, err := a.control(id)
		require.NoError(t, err, id)
		assert.Equal(t, want, w.Intent, id)
	}
	_, err := a.control("link.cut")
	assert.ErrorContains(t, err, "no control", "a link's control with no link menu open")
}

// openEveryMenu opens each kind of menu in turn (and the help) and calls
// f with the frame.
func openEveryMenu(t *testing.T, a *App, f func(what string, fr *frame.Frame)) {
	t.Helper()
	f("nothing open", a.Frame())
	require.NoError(t, a.Do(OpenMachine{Node: 0}))
	f("a machine's menu", a.Frame())
	require.NoError(t, a.Do(OpenLink{Link: viz.LinkID{I: 0, J: 1}}))
	f("a link's menu", a.Frame())
	for _, m := range a.World().InFlight() {
		if m.Type != raftcore.MsgClient && m.DeliverUs > m.SendUs {
			require.NoError(t, a.Do(OpenMessage{Msg: m.ID}))
			f("a message's menu", a.Frame())
			break
		}
	}
	require.NoError(t, a.Do(OpenSetup{}))
	f("the setup menu", a.Frame())
	require.NoError(t, a.Do(OpenScenarios{}))
	f("the scenarios", a.Frame())
}

// TestEveryControlCarriesAComparableIntent: a control does what its intent
// says, controls with one id ask for one thing, and the intents can be
// compared (the drawing package compares widgets).
func TestEveryControlCarriesAComparableIntent(t *testing.T) {
	p := viz.DefaultParams()
	p.Scenario = "majority"
	a, err := New(Options{Params: p, Width: 1280, Height: 800, SpeedGiven: true, Scenarios: BuiltinScenarios()})
	require.NoError(t, err)
	var c clock
	untilLeader(t, a, &c)
	a.paused = true
	ids := map[string]bool{}
	openEveryMenu(t, a, func(what string, f *frame.Frame) {
		byID := map[string]Intent{}
		for w := range f.Widgets() {
			ids[w.ID] = true
			require.NotNilf(t, w.Intent, "%s: control %s asks for nothing", what, w.ID)
			require.Truef(t, reflect.TypeOf(w.Intent).Comparable(), "%s: control %s asks for %T, which cannot be compared", what, w.ID, w.Intent)
			if in, ok := byID[w.ID]; ok {
				assert.Equalf(t, in, w.Intent, "%s: two controls named %s ask for different things", what, w.ID)
			}
			byID[w.ID] = w.Intent.(Intent)
		}
	})
	for _, id := range []string{"cmd:play-pause", "menu", "node.crash", "link.ij", "msg.drop", "nodes:9", "theme:dark", "scenario:", "scenario:majority", "scenario.autoplay", "scenario.restart", "knob:split=4/1"} {
		assert.Truef(t, ids[id], "no menu shows control %s; seen %v", id, ids)
	}
}

// TestAPageCommandAndItsControlDoTheSame: the page's "option prevote" and
// a click on the PreVote toggle leave the app alike.
func TestAPageCommandAndItsControlDoTheSame(t *testing.T) {
	a, b := newApp(t, 3, 1280, 800), newApp(t, 3, 1280, 800)
	require.True(t, a.cfg.PreVote, "PreVote is on by default")
	_, err := a.Cmd("option", "prevote", "off")
	require.NoError(t, err)
	require.NoError(t, b.Click("prevote"))
	require.False(t, a.cfg.PreVote)
	assert.Equal(t, a.cfg, b.cfg)
	assert.Equal(t, a.State().Banner, b.State().Banner)
}
