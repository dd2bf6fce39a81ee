package app

import (
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

// frameTexts is every piece of text in f, each with where it is.
func frameTexts(f *frame.Frame) map[string]string {
	out := map[string]string{}
	add := func(where, s string) {
		if s != "" {
			out[s] = where
		}
	}
	menu := func(where string, m *frame.MenuView) {
		if m == nil {
			return
		}
		add(where, m.Title.Text)
		for _, l := range m.Lines {
			add(where, l.Text)
		}
		for _, r := range m.Rows {
			add(where, r.Label.Text)
			for _, w := range r.Widgets {
				add(where, w.Label)
			}
		}
	}
	for _, z := range f.Zones {
		add("zone", z.Label.Text)
		add("zone", z.Sub.Text)
	}
	for _, l := range f.Links {
		add("link", l.Label.Text)
	}
	for _, m := range f.Messages {
		add("message", m.Label.Text)
	}
	for _, n := range f.Nodes {
		add("machine", n.Name.Text)
		add("machine", n.Lines[0].Text)
		add("machine", n.Lines[1].Text)
		for _, b := range n.Badges {
			add("badge", b.Text)
		}
	}
	for _, r := range f.Logs.Rows {
		add("log", r.Name.Text)
		for _, c := range r.Cells {
			add("log cell", c.Text)
		}
	}
	for _, h := range f.Logs.Header {
		add("log", h.Text)
	}
	add("log", f.Logs.Before.Text)
	add("log", f.Logs.After.Text)
	for _, p := range f.Panels {
		where := "panel " + p.Kind.Title()
		add(where, p.Title.Text)
		for _, l := range p.Lines {
			add(where, l.Text)
		}
		for _, w := range p.Widgets {
			add(where, w.Label)
		}
		if d := p.Diagram; d != nil {
			add(where, d.Last.Text)
			for _, b := range d.Boxes {
				add(where, b.Label.Text)
				add(where, b.Members.Text)
			}
			for _, a := range d.Arrows {
				add(where, a.Label.Text)
			}
		}
	}
	for _, ws := range [][]frame.Widget{f.Tabs, f.Toolbar} {
		for _, w := range ws {
			add("control", w.Label)
		}
	}
	add("speed", f.Speed.Label.Text)
	add("timeline", f.Timeline.Left.Text)
	add("timeline", f.Timeline.Right.Text)
	for _, m := range f.Timeline.Marks {
		add("timeline mark", m.Text)
	}
	for _, b := range f.Timeline.Buttons {
		add("timeline", b.Label)
	}
	if f.Replay != nil {
		add("replay", f.Replay.Text.Text)
	}
	add("status", f.Status.Text)
	menu("caption", f.Caption)
	menu("menu", f.Menu)
	if f.Help != nil {
		add("help", f.Help.Title.Text)
		for _, l := range f.Help.Lines {
			add("help", l.Text)
		}
	}
	if f.Banner != nil {
		for _, l := range f.Banner.Lines {
			add("banner", l.Text)
		}
	}
	if f.Tooltip != nil {
		for _, l := range f.Tooltip.Lines {
			add("hover text", l.Text)
		}
	}
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

// TestFiguresBeforeRaftSpeakPlainWords: the figures before the chapter
// introduces Raft show no leaders, terms, votes, candidates or followers
// anywhere on screen, through their whole scripted run, although
// slow-or-dead runs Raft underneath; a later figure (majority) still
// shows Raft's words.
func TestFiguresBeforeRaftSpeakPlainWords(t *testing.T) {
	type run struct{ id, knob, value string }
	runs := []run{{"three-answers", "", ""}, {"replicated-memory", "", ""}, {"two-worlds", "", ""},
		{"slow-or-dead", "", ""}, {"slow-or-dead", "silence", "crash"}}
	for _, r := range runs {
		for _, embed := range []bool{false, true} {
			name := r.id + " " + r.value
			w, h := 1280.0, 800.0
			if embed {
				name += " embedded"
				w, h = 720, 450
			}
			t.Run(strings.TrimSpace(name), func(t *testing.T) {
				s, err := scenarios.Get(r.id)
				if err != nil {
					t.Fatal(err)
				}
				if s.UI.Words != scenarios.WordsPlain {
					t.Fatalf("%s does not ask for plain words", r.id)
				}
				bad := 0
				for text, where := range playedTexts(t, r.id, r.knob, r.value, w, h, embed) {
					if raftWords.MatchString(text) {
						bad++
						if bad <= 30 {
							t.Errorf("%s: %q", where, text)
						}
					}
				}
			})
		}
	}
	t.Run("majority", func(t *testing.T) {
		found := map[string]bool{}
		for text := range playedTexts(t, "majority", "", "", 1280, 800, false) {
			for _, m := range raftWords.FindAllString(text, -1) {
				found[strings.ToLower(m)] = true
			}
		}
		for _, want := range []string{"leader", "term", "voted", "follower"} {
			if !found[want] {
				t.Errorf("majority shows no %q; it shows %v", want, found)
			}
		}
	})
}

// TestPlainWordsForARefusedWrite: a reader's write refused while the
// machines settle who takes over says why in plain words.
func TestPlainWordsForARefusedWrite(t *testing.T) {
	a := scenarioApp(t, "slow-or-dead", true)
	var c hostClock
	asking := -1
	for i := 0; i < 20000 && asking < 0; i++ {
		c.run(a, time.Millisecond)
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
	for text, where := range everyText(a) {
		refused = refused || strings.Contains(text, "refused (")
		if raftWords.MatchString(text) {
			t.Errorf("%s: %q", where, text)
		}
	}
	if !refused {
		t.Errorf("the write to %s was not refused at once: %v", a.cfg().Name(nodeID(asking)), a.World().Ops())
	}
}

// TestPlainWordsForARestart: crashing and restarting the machine in charge
// (key r) is told in plain words too.
func TestPlainWordsForARestart(t *testing.T) {
	a := scenarioApp(t, "slow-or-dead", true)
	var c hostClock
	for i := 0; i < 1000 && a.leader() < 0; i++ {
		c.run(a, 10*time.Millisecond)
	}
	if a.leader() < 0 {
		t.Fatal("no machine took charge")
	}
	if err := a.Command(viz.CmdRestartLeader); err != nil {
		t.Fatal(err)
	}
	texts := everyText(a)
	if f := a.Frame(); f.Banner == nil || !strings.Contains(f.Banner.Lines[0].Text, "restarted") {
		t.Fatalf("no note says the machine restarted: %v", f.Banner)
	}
	for text, where := range texts {
		if raftWords.MatchString(text) {
			t.Errorf("%s: %q", where, text)
		}
	}
}

// TestPlainWordsForAMachineBehind: in plain words, a machine behind on
// commits is told apart from one that already holds the committed entries
// and awaits only the news.
func TestPlainWordsForAMachineBehind(t *testing.T) {
	a := scenarioApp(t, "replicated-memory", false)
	if !a.plain() {
		t.Fatal("replicated-memory no longer speaks plain words; pick a figure that does")
	}
	name := a.cfg().Name(2)
	for _, c := range []struct {
		cl   raftcore.Clause
		want string
	}{
		{raftcore.Clause{Fact: raftcore.FactBehind, Node: 2, Has: 1, Committed: 3},
			name + " knows 1 of 3 committed entries; the machine in charge will send it the rest."},
		{raftcore.Clause{Fact: raftcore.FactBehind, Node: 2, Has: 1, Committed: 3, Holds: true},
			name + " already holds all 3 committed entries; the machine in charge will tell it they are final."},
		{raftcore.Clause{Fact: raftcore.FactBehind, Node: 2, Committed: 1, Holds: true, Behind: 2},
			name + " already holds the committed entry; the machine in charge will tell it the entry is final (2 machines are behind)."},
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
