package app

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"raftlab/raftcore"
	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
)

// The chapter "One authoritative history" never shows Raft's mechanism,
// and its figures climb a ladder of words with it (scenarios.Words). The
// tests here play every figure of the chapter, with every knob value, to
// the end, and hear everything it shows and says on the way: every text
// of every frame, the hover text of its machines, messages, cells and
// marks, its menus and panels, its story's steps and closing line, the
// description a screen reader reads and every announcement, and the text
// of the page's snapshot. None may say a word its rung withholds.

// heard is every text a figure showed or said, each with where it was
// heard: the first time in each place (the canvas's parts, the story, the
// description, an announcement, the snapshot), and when.
type heard map[string][]string

func (h heard) add(text, where string) {
	if text == "" {
		return
	}
	place := strings.Fields(where)[0]
	for _, w := range h[text] {
		if strings.Fields(w)[0] == place {
			return
		}
	}
	h[text] = append(h[text], where)
}

func (h heard) addAll(m map[string]string, when string) {
	for text, where := range m {
		h.add(text, where+" "+when)
	}
}

// spoken is what the app hands a screen reader: the description, each
// announcement and each step's words.
func (h heard) spoken(a *App, when string) {
	for _, e := range a.TakeEffects() {
		switch e.Kind {
		case frame.EffectDescribe, frame.EffectAnnounce, frame.EffectStep:
			h.add(e.Text, string(e.Kind)+" "+when)
		}
	}
}

// snapshot hears the text fields of the page's snapshot.
func (h heard) snapshot(a *App, when string) {
	s := a.State()
	where := "snapshot " + when
	h.add(s.Banner, where)
	if sc := s.Scenario; sc != nil {
		for _, text := range []string{sc.Prompt, sc.StepText, sc.Final} {
			h.add(text, where)
		}
	}
	for _, c := range s.Contract {
		h.add(c.Title, where)
		h.add(c.Text, where)
	}
	for _, an := range s.Answers {
		h.add(an.Text, where)
	}
	for _, m := range s.Marks {
		h.add(m.Text, where)
	}
	for _, w := range s.Screen.Widgets {
		h.add(w.Label, where)
	}
	for _, p := range s.Screen.Panels {
		h.add(p.Title, where)
		for _, l := range p.Text {
			h.add(l, where)
		}
	}
}

// atRest hears everything the figure shows and says as it stands: the
// frame with every hover text, menu and panel, the description, the
// story's words and the snapshot.
func (h heard) atRest(a *App, when string) {
	h.spoken(a, when)
	h.addAll(everyText(a), when)
	for _, on := range []command.Intent{command.ShowLegend{On: true}, command.ShowHelp{On: true}} {
		if err := a.Do(on); err == nil {
			h.addAll(frameTexts(a.Frame()), when)
		}
	}
	_ = a.Do(command.ShowLegend{On: false})
	_ = a.Do(command.ShowHelp{On: false})
	h.add(a.Describe(), "describe "+when)
	if r := a.scen(); r != nil {
		h.add(r.Tracker().TextOf(r.Step()), "story "+when)
		if r.Tracker().Done() {
			h.add(r.Tracker().Final(), "closing line "+when)
		}
	}
	h.snapshot(a, when)
	h.spoken(a, when)
}

// hearFigure plays figure s (built with its knobs set) from catalog cat,
// embedded in a page of w×h as the book shows it, or (embed false) in the
// full app, to the end of its story, and returns everything it showed and
// said: at the start, on the way, resting at each step and at the end.
func hearFigure(t *testing.T, cat session.Catalog, s *scenarios.Scenario, w, h float64, embed bool) heard {
	t.Helper()
	p := viz.DefaultParams()
	p.Scenario, p.Embed = s.ID, embed
	if !embed {
		p.Autoplay, p.Speed = true, 10
	}
	a, err := New(Options{Params: p, SpeedGiven: !embed, Width: w, Height: h, Scenarios: cat, Describe: true,
		BaseURL: "https://example.org/raftlab/index.html"})
	require.NoError(t, err)
	for _, st := range s.Settings {
		if a.scen().Spec().Setting(st.Knob) != st.Value {
			require.NoError(t, a.Do(command.SetKnob{Knob: st.Knob, Value: st.Value}))
		}
	}
	if !embed {
		a.scen().SetAutoplay(true)
	}
	out := heard{}
	var c hostClock
	c.run(a, time.Second)
	out.atRest(a, "at the start")
	tick := func(when string) {
		c.run(a, 100*time.Millisecond)
		out.spoken(a, when)
		out.addAll(frameTexts(a.Frame()), when)
	}
	if embed {
		for n := 0; !a.scen().ShownDone(); n++ {
			require.Less(t, n, 2*len(s.Steps)+2, "the story does not end")
			require.NoError(t, a.Click(scene.IDFigurePlay))
			for k := 0; !a.Paused(); k++ {
				require.Less(t, k, 600, "still playing after a minute")
				tick(fmt.Sprintf("playing to step %d", a.scen().Shown()+1))
			}
			out.atRest(a, fmt.Sprintf("resting at step %d", a.scen().Step()+1))
		}
	} else {
		until := int64(s.UntilMs * 1000)
		for k := 0; a.World().Now() < until; k++ {
			require.Less(t, k, 2000, "the run stopped at t = %d µs", a.World().Now())
			if a.clock.Paused() {
				a.clock.SetPaused(false) // a figure that rests is played on
			}
			tick("playing")
			if k%10 == 0 {
				out.atRest(a, "playing")
			}
		}
	}
	require.True(t, a.scen().Tracker().Done(), "the story did not end")
	out.atRest(a, "at the end")
	readerActs(a, &c, out)
	return out
}

// readerActs does, once a figure's story is over, what a reader may do
// with its machines (cut one off and bring it back, make one stop
// waiting, write, crash the machine that leads and restart it, and the
// keys that line timers up), and hears what the figure shows and says
// after each.
func readerActs(a *App, c *hostClock, out heard) {
	leader := max(a.leader(), 0)
	acts := []command.Intent{
		command.Isolate{Node: 0}, command.Reconnect{Node: 0},
		command.ActOnMachine{Node: 1, Verb: raftcore.DoTimeout}, command.ActOnMachine{Node: 1, Verb: raftcore.DoWrite},
		command.ActOnMachine{Node: leader, Verb: raftcore.DoCrash}, command.ActOnMachine{Node: leader, Verb: raftcore.DoWrite},
		command.ActOnMachine{Node: leader, Verb: raftcore.DoRestart},
		command.RunCommand{Cmd: viz.CmdRestartLeader}, command.RunCommand{Cmd: viz.CmdSpreadTimers},
		command.RunCommand{Cmd: viz.CmdAlignTimers}, command.RunCommand{Cmd: viz.CmdSplitVote},
		command.RunCommand{Cmd: viz.CmdResumeAll}, command.RunCommand{Cmd: viz.CmdHeal},
	}
	for _, in := range acts {
		when := fmt.Sprintf("after the reader's %T %+v", in, in)
		_ = a.Do(in) // an act the figure refuses leaves a note, heard too
		out.spoken(a, when)
		out.addAll(frameTexts(a.Frame()), when)
		out.snapshot(a, when)
		for k := 0; k < 10; k++ {
			if a.Paused() {
				a.clock.SetPaused(false)
			}
			c.run(a, 100*time.Millisecond)
			out.spoken(a, when)
			out.addAll(frameTexts(a.Frame()), when)
		}
		out.atRest(a, when)
	}
}

// withheld matches, whole and in any case, any of the words.
func withheld(words []string) *regexp.Regexp {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = strings.ReplaceAll(regexp.QuoteMeta(w), " ", `\s+`)
	}
	return regexp.MustCompile(`(?i)\b(` + strings.Join(quoted, "|") + `)\b`)
}

// findWithheld lists what of heard h says a word of words, beside the
// figure's own title (the book's heading, which it may repeat whole or
// wrapped over lines), at most limit of them.
func findWithheld(h heard, title string, words []string, limit int) []string {
	re := withheld(words)
	exempt := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(title))
	var out []string
	for text, wheres := range h {
		if strings.Contains(strings.ToLower(title), strings.ToLower(strings.TrimSpace(text))) {
			continue
		}
		if m := re.FindString(exempt.ReplaceAllString(text, "")); m != "" {
			for _, where := range wheres {
				out = append(out, fmt.Sprintf("%q in %s: %q", m, where, text))
			}
		}
	}
	sort.Strings(out)
	if len(out) > limit {
		out = append(out[:limit], fmt.Sprintf("and %d more", len(out)-limit))
	}
	return out
}

// chapterFigures is every figure of the chapter that never shows Raft's
// mechanism, with every knob value.
func chapterFigures(t *testing.T) []*scenarios.Scenario {
	first, err := scenarios.Get("three-answers")
	require.NoError(t, err)
	var out []*scenarios.Scenario
	for _, s := range everyFigure(t) {
		if s.Chapter == first.Chapter {
			out = append(out, s)
		}
	}
	require.GreaterOrEqual(t, len(out), 10, "the chapter's figures are gone")
	return out
}

// vocabularySizes are a column of a book page and a phone, where the
// chapter embeds its figures.
var vocabularySizes = []struct {
	w, h  float64
	embed bool
}{{720, 450, true}, {350, 560, true}}

// TestChapterFiguresWithholdRaftsMechanism plays every figure of the
// chapter, with every knob value, at the sizes the book gives it, and
// finds in nothing it shows or says a word its rung of the ladder
// withholds: Raft's mechanism in any of them, leading or being in charge
// before "The Two Leaders", Raft's name before the contract, and the rule
// of enough agreement in the exercise that asks the reader for it.
func TestChapterFiguresWithholdRaftsMechanism(t *testing.T) {
	cat := session.BuiltinScenarios()
	for _, s := range chapterFigures(t) {
		for _, size := range vocabularySizes {
			name := fmt.Sprintf("%s/%.0fx%.0f", figureLabel(s), size.w, size.h)
			t.Run(name, func(t *testing.T) {
				h := hearFigure(t, cat, s, size.w, size.h, size.embed)
				for _, bad := range findWithheld(h, s.Title, s.UI.Withheld(), 2000) {
					t.Error(bad)
				}
			})
		}
	}
}

// planted is figure id from the book's catalog, changed by plant, in a
// catalog of its own (its knobs at their defaults).
func planted(t *testing.T, id string, plant func(s *scenarios.Scenario)) (session.Catalog, *scenarios.Scenario) {
	t.Helper()
	var list []*scenarios.Scenario
	var target *scenarios.Scenario
	for _, s := range scenarios.All() {
		if s.ID == id {
			plant(s)
			target = s
		}
		list = append(list, s)
	}
	require.NotNil(t, target, "no figure %s", id)
	return session.NewCatalog(list), target
}

// heardWhere lists the channels (canvas, story, screen reader) in which
// findings were heard, by the words that say where.
func heardWhere(found []string, channels ...string) []string {
	var missing []string
	for _, c := range channels {
		hit := false
		for _, f := range found {
			hit = hit || strings.Contains(f, " in "+c)
		}
		if !hit {
			missing = append(missing, c)
		}
	}
	return missing
}

// TestTheVocabularyTestHearsEveryVoice: the test above finds what it
// looks for wherever a figure says it. A word planted in a step's story
// is heard on the canvas, in the story, in the step handed to the page
// and in the announcement; a figure held to a rung below its own is heard
// saying its rung's words in its description and announcements and on
// its canvas; a lesson's figure held to the chapter's words is heard
// saying Raft's; and the quorum exercise, made to state the rule, is
// heard stating it.
func TestTheVocabularyTestHearsEveryVoice(t *testing.T) {
	t.Run("a word planted in the story", func(t *testing.T) {
		cat, s := planted(t, "three-answers", func(s *scenarios.Scenario) {
			s.Steps[1].Live = func(*scenarios.View) string { return "The copy was lost with the heartbeat that carried it." }
		})
		found := findWithheld(hearFigure(t, cat, s, 720, 450, true), s.Title, s.UI.Withheld(), 100)
		require.NotEmpty(t, found, "the planted word is not heard")
		for _, f := range found {
			require.Contains(t, f, `"heartbeat"`, "only the planted word may be heard")
		}
		require.Empty(t, heardWhere(found, "Caption", "story", "step", "announce"), "the planted word is not heard everywhere the story is told: %v", found)
	})
	t.Run("a figure held to the rung below its own", func(t *testing.T) {
		cat := session.BuiltinScenarios()
		s, err := scenarios.Get("majority")
		require.NoError(t, err)
		found := findWithheld(hearFigure(t, cat, s, 720, 450, true), s.Title, scenarios.WordsCopies.Withheld(), 1000)
		require.Empty(t, heardWhere(found, "Nodes", "describe", "announce", "snapshot"), "majority's words of a machine in charge are not heard everywhere: %v", found)
	})
	t.Run("a lesson's figure held to the chapter's words", func(t *testing.T) {
		cat := session.BuiltinScenarios()
		s, err := scenarios.Get("partition-halts")
		require.NoError(t, err)
		for _, size := range append(vocabularySizes, struct {
			w, h  float64
			embed bool
		}{1280, 800, false}) {
			found := findWithheld(hearFigure(t, cat, s, size.w, size.h, size.embed), s.Title, scenarios.WordsContract.Withheld(), 1000)
			require.Empty(t, heardWhere(found, "Nodes", "describe", "announce", "Tooltip", "Menu"), "partition-halts at %vx%v does not say Raft's words everywhere: %v", size.w, size.h, found)
		}
	})
	t.Run("the quorum exercise made to state the rule", func(t *testing.T) {
		cat, s := planted(t, "quorum-size", func(s *scenarios.Scenario) { s.UI.HideRule = false })
		found := findWithheld(hearFigure(t, cat, s, 720, 450, true), s.Title, []string{"majority"}, 100)
		require.Empty(t, heardWhere(found, "Zones"), "the sides of the split do not say which holds a majority: %v", found)
	})
}

// TestTwoAuthoritiesAreDescribedAsTwo: while two machines act as the
// authority in two-leaders, the screen reader hears that both do, and is
// told when the second took over; under raft, an old machine in charge
// that has not heard of the new one is described as still believing it
// is, never as in charge.
func TestTwoAuthoritiesAreDescribedAsTwo(t *testing.T) {
	for _, protocol := range []string{"failover", "raft"} {
		t.Run(protocol, func(t *testing.T) {
			p := viz.DefaultParams()
			p.Scenario, p.Embed = "two-leaders", true
			a, err := New(Options{Params: p, Width: 720, Height: 450, Scenarios: session.BuiltinScenarios(), Describe: true})
			require.NoError(t, err)
			if protocol != "failover" {
				require.NoError(t, a.Do(command.SetKnob{Knob: "protocol", Value: protocol}))
			}
			var c hostClock
			c.run(a, time.Second)
			var said []string
			sawTwo := false
			for k := 0; !a.scen().ShownDone(); k++ {
				require.Less(t, k, 20, "the story does not end")
				require.NoError(t, a.Click(scene.IDFigurePlay))
				for !a.Paused() {
					c.run(a, 100*time.Millisecond)
					for _, e := range a.TakeEffects() {
						said = append(said, e.Text)
					}
					acting := a.actingLeaders()
					if len(acting) < 2 {
						continue
					}
					sawTwo = true
					d := a.Describe()
					first, second := a.cfg().Name(acting[0]), a.cfg().Name(acting[1])
					if protocol == "failover" {
						require.Contains(t, d, first+" and "+second+" both act as the authority", "the description while two act as the authority")
					} else {
						old, cur := acting[0], nodeID(a.leader())
						if old == cur {
							old = acting[1]
						}
						require.Contains(t, d, a.cfg().Name(cur)+" is in charge.", "the description while an old machine in charge is cut off")
						require.Contains(t, d, a.cfg().Name(old)+" still believes it is in charge.", "the description while an old machine in charge is cut off")
					}
				}
			}
			if protocol == "failover" {
				require.True(t, sawTwo, "two-leaders never had two authorities")
				require.Contains(t, strings.Join(said, "\n"), "both act as the authority now.", "no announcement that a second machine took over")
			}
		})
	}
}
