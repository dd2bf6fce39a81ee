package app

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/app/view"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// raftWords are the words the book keeps until it introduces Raft.
var raftWords = regexp.MustCompile(`(?i)\b(leaders?|leads|leading|terms?|votes?|voted|voting|candidates?|followers?|raft|elections?)\b`)

// frameTexts is every piece of text in f, each with where it is: every
// field named Text or Label, anywhere in the frame (a machine's lines, a
// panel's, a widget's label, the key's, a mark's hover text...), found by
// walking the frame, so that no text a later change adds is missed.
func frameTexts(f *frame.Frame) map[string]string {
	out := map[string]string{}
	var walk func(v reflect.Value, where string)
	walk = func(v reflect.Value, where string) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), where)
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), where)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				fd := v.Type().Field(i)
				if !fd.IsExported() {
					continue
				}
				fv := v.Field(i)
				if fv.Kind() == reflect.String && (fd.Name == "Text" || fd.Name == "Label") {
					if s := fv.String(); s != "" {
						out[s] = where
					}
					continue
				}
				next := fd.Name
				if where != "" {
					next = where + "." + fd.Name
				}
				walk(fv, next)
			}
		}
	}
	walk(reflect.ValueOf(f).Elem(), "")
	return out
}

// everyText is every text the app can show of the world as it is now: the
// frame, the hover text of each machine, message, log cell and timeline
// mark, the menu of each machine and message, and the content of every
// panel (folded or in another tab, with every safety rule shown) for each
// machine selected.
func everyText(a *App) map[string]string {
	out := frameTexts(a.Frame())
	merge := func(m map[string]string, how string) {
		for s, where := range m {
			out[s] = where + how
		}
	}
	f := a.Frame()
	var spots []viz.Point
	for _, n := range f.Nodes {
		spots = append(spots, n.Center)
	}
	for _, m := range f.Messages {
		if m.Fall == 0 {
			spots = append(spots, m.Pos)
		}
	}
	for _, r := range f.Logs.Rows {
		for _, c := range r.Cells {
			spots = append(spots, c.Rect.Center())
		}
	}
	for _, m := range f.Timeline.Marks {
		spots = append(spots, viz.Point{X: m.X, Y: f.Timeline.Track.Center().Y})
	}
	for _, p := range spots {
		a.Hover(p)
		merge(frameTexts(a.Frame()), " (hovering)")
	}
	a.Hover(viz.Point{X: -100, Y: -100})
	saved := *a.view
	var menus []view.Menu
	for i := range f.Nodes {
		menus = append(menus, view.Menu{Kind: view.MenuNode, Node: i})
	}
	for _, m := range f.Messages {
		if m.Fall == 0 {
			menus = append(menus, view.Menu{Kind: view.MenuMsg, Msg: m.ID})
		}
	}
	for _, m := range menus {
		a.view.CloseMenu()
		a.view.OpenMenu(m)
		a.changed()
		merge(frameTexts(a.Frame()), " (menu)")
	}
	a.view.CloseMenu()
	a.view.SetShowRules(true)
	for sel := -1; sel < len(f.Nodes); sel++ {
		a.view.Select(sel, false)
		for _, k := range []viz.PanelKind{viz.PanelScenario, viz.PanelQuestion, viz.PanelNode, viz.PanelSafety, viz.PanelClient} {
			p := a.builder.PanelContent(a.parts(), k, 300)
			merge(frameTexts(&frame.Frame{Panels: []frame.PanelView{p}}), " (panel content)")
		}
	}
	*a.view = saved
	a.changed()
	return out
}

// playedTexts plays figure id (with the given knob setting, if any)
// through its script on a canvas of w×h, embedded or not, and returns
// every text shown on the way.
func playedTexts(t *testing.T, id, knob, value string, w, h float64, embed bool) map[string]string {
	t.Helper()
	s, err := scenarios.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	p := viz.DefaultParams()
	p.Scenario, p.Autoplay, p.Speed, p.Embed = id, true, 10, embed
	a, err := New(Options{Params: p, SpeedGiven: true, Width: w, Height: h, Scenarios: session.BuiltinScenarios()})
	if err != nil {
		t.Fatal(err)
	}
	if knob != "" {
		if err := a.setKnob(knob, value); err != nil {
			t.Fatal(err)
		}
		a.scen().SetAutoplay(true)
	}
	out := map[string]string{}
	until := int64(s.UntilMs * 1000)
	var c hostClock
	for i := 0; i < 1000 && a.World().Now() < until; i++ {
		if i > 0 && a.clock.Paused() {
			// A figure that rests between steps is played on.
			a.clock.SetPaused(false)
		}
		c.run(a, 10*time.Millisecond)
		for s, where := range everyText(a) {
			out[s] = where + " at t=" + words.Clock(a.World().Now())
		}
	}
	if a.World().Now() < until {
		t.Fatalf("%s: the run stopped at %s of %s", id, words.Clock(a.World().Now()), words.Clock(until))
	}
	return out
}

// playingFigure is figure id embedded in a page, playing its script on
// its own at 10x; runOn plays it on past the steps it rests at.
func playingFigure(t *testing.T, id string) *App {
	t.Helper()
	p := viz.DefaultParams()
	p.Scenario, p.Autoplay, p.Speed, p.Embed = id, true, 10, true
	a, err := New(Options{Params: p, SpeedGiven: true, Width: 1280, Height: 800, Scenarios: session.BuiltinScenarios()})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// runOn runs a playing figure for d of real time, playing on from any
// step it rests at.
func runOn(a *App, c *hostClock, d time.Duration) {
	if a.clock.Paused() {
		a.clock.SetPaused(false)
	}
	c.run(a, d)
}

// TestPlainWordsForARefusedWrite: a reader's write refused while the
// machines settle who takes the writes says why in the figure's words.
func TestPlainWordsForARefusedWrite(t *testing.T) {
	a := playingFigure(t, "slow-or-dead")
	var c hostClock
	asking := -1
	for i := 0; i < 20000 && asking < 0; i++ {
		runOn(a, &c, time.Millisecond)
		for j := 0; j < a.World().Size(); j++ {
			if r := a.World().Node(nodeID(j)).Role(); a.World().Now() > 4_000_000 && (r == raftcore.RoleCandidate || r == raftcore.RolePreCandidate) {
				asking = j
			}
		}
	}
	if asking < 0 {
		t.Fatal("no machine asked to take over after C went silent")
	}
	if err := a.Do(command.ActOnMachine{Node: asking, Verb: raftcore.DoWrite}); err != nil {
		t.Fatal(err)
	}
	a.clock.SetPaused(true)
	c.run(a, 10*time.Millisecond)
	refused := false
	rung := withheld(a.scen().Spec().UI.Withheld())
	for text, where := range everyText(a) {
		refused = refused || strings.Contains(text, "refused (")
		if rung.MatchString(text) {
			t.Errorf("%s: %q", where, text)
		}
	}
	if !refused {
		t.Errorf("the write to %s was not refused at once: %v", a.cfg().Name(nodeID(asking)), a.World().Ops())
	}
}

// TestPlainWordsForARestart: crashing and restarting the machine that
// takes the writes (key r) is told in the figure's words too.
func TestPlainWordsForARestart(t *testing.T) {
	a := playingFigure(t, "slow-or-dead")
	var c hostClock
	for i := 0; i < 1000 && a.leader() < 0; i++ {
		runOn(a, &c, 10*time.Millisecond)
	}
	if a.leader() < 0 {
		t.Fatal("no machine took charge")
	}
	if err := a.Command(viz.CmdRestartLeader); err != nil {
		t.Fatal(err)
	}
	texts := everyText(a)
	if note := a.State().Banner; !strings.Contains(note, "restarted") || !strings.Contains(captionText(a.Frame()), "restarted") {
		t.Fatalf("no note the figure shows says the machine restarted: %q", note)
	}
	rung := withheld(a.scen().Spec().UI.Withheld())
	for text, where := range texts {
		if rung.MatchString(text) {
			t.Errorf("%s: %q", where, text)
		}
	}
}

// TestPlainWordsForAMachineBehind: in the chapter's words, a machine
// behind on commits is told apart from one that already holds the
// committed entries and awaits only the news, from the machine that takes
// the writes, before the chapter speaks of one in charge.
func TestPlainWordsForAMachineBehind(t *testing.T) {
	a := figureApp(t, "replicated-memory", 720, 450)
	if !a.plain() {
		t.Fatal("replicated-memory no longer speaks plain words; pick a figure that does")
	}
	name := a.cfg().Name(2)
	for _, c := range []struct {
		cl   raftcore.Clause
		want string
	}{
		{raftcore.Clause{Fact: raftcore.FactBehind, Node: 2, Has: 1, Committed: 3},
			name + " knows 1 of 3 committed entries; the machine taking the writes will send it the rest."},
		{raftcore.Clause{Fact: raftcore.FactBehind, Node: 2, Has: 1, Committed: 3, Holds: true},
			name + " already holds all 3 committed entries; the machine taking the writes will tell it they are final."},
		{raftcore.Clause{Fact: raftcore.FactBehind, Node: 2, Committed: 1, Holds: true, Behind: 2},
			name + " already holds the committed entry; the machine taking the writes will tell it the entry is final (2 machines are behind)."},
	} {
		if got := a.voice().ClauseText(c.cl); got != c.want {
			t.Errorf("clause %+v reads %q, want %q", c.cl, got, c.want)
		}
	}
}

// TestEveryKeySaysWhatItDoes: the help and the toolbar's hover text say
// in one line what each key and each button does.
func TestEveryKeySaysWhatItDoes(t *testing.T) {
	cmds := viz.DefaultToolbar()
	for _, b := range viz.KeyBindings() {
		cmds = append(cmds, b.Cmd)
	}
	for _, c := range cmds {
		if d := scene.KeyDesc(c); d == "" || strings.Contains(d, "\n") {
			t.Errorf("%v says %q; want one line", c, d)
		}
	}
}
