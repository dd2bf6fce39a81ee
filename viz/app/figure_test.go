package app

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
	"raftlab/viz/app/session"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// figureSizes are a column of a book page and a phone.
var figureSizes = [][2]float64{{720, 450}, {350, 560}}

// figureApp is scenario id embedded in a page of w×h, as embed.js opens it.
func figureApp(t testing.TB, id string, w, h float64) *App {
	t.Helper()
	p := viz.DefaultParams()
	p.Scenario, p.Embed = id, true
	a, err := New(Options{Params: p, Width: w, Height: h, Scenarios: session.BuiltinScenarios(), BaseURL: "https://example.org/raftlab/index.html"})
	require.NoError(t, err)
	return a
}

// playToRest presses play and runs the figure until it rests, at most
// limit of real time; it returns the real time it played. A step reached
// with the one shown, or the closing line after the last step, is shown at
// once, the figure still.
func playToRest(t testing.TB, a *App, c *hostClock, limit time.Duration) time.Duration {
	t.Helper()
	shown, now := a.scen().Shown(), a.World().Now()
	require.NoError(t, a.Click(scene.IDFigurePlay))
	if a.Paused() {
		require.Equal(t, shown+1, a.scen().Shown(), "the figure neither plays nor shows what comes next when asked")
		require.Equal(t, now, a.World().Now(), "showing a step reached already runs the clock")
		return 0
	}
	start := c.now
	for !a.Paused() {
		if c.now-start > limit {
			t.Fatalf("still playing after %v, at step %d (t = %s)", limit, a.scen().Tracker().Step(), words.Clock(a.World().Now()))
		}
		c.run(a, 100*time.Millisecond)
	}
	return c.now - start
}

// checkFigureFrame checks what every frame of a figure must show: the
// panel its paragraph is about, whole and apart from the machines; its
// controls; and every word whole.
func checkFigureFrame(t *testing.T, a *App, what string) {
	t.Helper()
	checkFrame(t, a, what)
	f := a.Frame()
	canvas := viz.XYWH(0, 0, f.W, f.H)
	for _, id := range []string{scene.IDFigurePlay, scene.IDFigureBack, scene.IDFigureRestart, scene.IDFigureLab} {
		_, ok := widgetRect(a, id)
		assert.True(t, ok, "%s: no control %s; controls %v", what, id, widgetIDs(a))
	}
	for _, id := range []string{scene.CmdPrefix + viz.CmdPlayPause.String(), scene.IDMenu} {
		_, ok := widgetRect(a, id)
		assert.False(t, ok, "%s: the figure shows the full app's control %s", what, id)
	}
	require.NotNil(t, f.Caption, "%s: no words", what)
	assert.True(t, inside(canvas, f.Caption.Rect), "%s: the words at %v leave the canvas", what, f.Caption.Rect)
	l := a.Layout()
	stage := []viz.Rect{l.Cluster, l.Logs, a.stage.Bars()[0], a.stage.Bars()[1]}
	for _, r := range stage {
		assert.False(t, f.Caption.Rect.Inset(0.5).Overlaps(r), "%s: the words at %v cover the stage at %v", what, f.Caption.Rect, r)
	}
	want, ok := scene.PanelFor(a.scen().Spec().UI.Focus)
	if !ok {
		assert.Empty(t, f.Panels, "%s: a figure about its machines shows a panel", what)
	} else if assert.Len(t, f.Panels, 1, "%s: panels", what) {
		p := f.Panels[0]
		assert.Equal(t, want, p.Kind, "%s: the figure shows the wrong panel", what)
		assert.False(t, p.Folded, "%s: the panel is folded", what)
		assert.True(t, inside(canvas, p.Rect), "%s: the panel at %v leaves the canvas", what, p.Rect)
		assert.GreaterOrEqual(t, p.Clip.H, 3*scene.LineHeight(scene.SizeBody), "%s: the panel shows less than three lines", what)
		assert.NotEmpty(t, p.Lines, "%s: the panel says nothing", what)
		for _, r := range append(stage, f.Caption.Rect) {
			assert.False(t, p.Rect.Inset(0.5).Overlaps(r), "%s: the panel at %v covers %v", what, p.Rect, r)
		}
	}
	assert.Empty(t, f.Overflows(a.measure), "%s: words cut", what)
	assert.Empty(t, a.State().Scenario.Untrue, "%s: the words shown are not true on screen", what)
}

// TestFigureShowsItsPanelAndEveryWordAtPageAndPhoneSizes plays every
// figure, with every knob setting, step by step at the two sizes a book
// page gives it, and checks each frame it rests on, and that the app then
// lets its host stop drawing (the browser's TestFigureRestsBetweenSteps
// checks that the page then runs no frame).
func TestFigureShowsItsPanelAndEveryWordAtPageAndPhoneSizes(t *testing.T) {
	for _, s := range everyFigure(t) {
		for _, size := range figureSizes {
			t.Run(fmt.Sprintf("%s/%.0fx%.0f", figureLabel(s), size[0], size[1]), func(t *testing.T) {
				a := figureApp(t, s.ID, size[0], size[1])
				for _, st := range s.Settings {
					require.NoError(t, a.Do(command.SetKnob{Knob: st.Knob, Value: st.Value}))
				}
				var c hostClock
				c.run(a, time.Second)
				require.True(t, a.Paused(), "the figure does not open still")
				want := FigureSpeed
				if s.UI.Pace > 0 {
					want = s.UI.Pace
				}
				assert.Equal(t, want, a.Speed(), "a figure plays at 1x, or at its own pace")
				checkFigureFrame(t, a, "at the start")
				requireIdle(t, a, &c, "at the start")
				for k := 0; !a.scen().Tracker().Done() && k < 20; k++ {
					playToRest(t, a, &c, 60*time.Second)
					what := fmt.Sprintf("resting at step %d", a.scen().Tracker().Step()+1)
					checkFigureFrame(t, a, what)
					requireIdle(t, a, &c, what)
				}
				assert.True(t, a.scen().Tracker().Done(), "the story did not end")
			})
		}
	}
}

// requireIdle checks that the resting app, once its frame is drawn, lets
// the host stop drawing: a host draws again only when a note in the banner
// runs out or something changes.
func requireIdle(t *testing.T, a *App, c *hostClock, what string) {
	t.Helper()
	a.Frame() // as the host draws
	idle, _ := a.NextWake(c.now)
	assert.True(t, idle, "%s: the figure keeps its host drawing", what)
}

// TestFigureRestsOnEveryStep plays every figure, with every knob setting,
// step by step, and checks that it rests on each step of its story in
// turn, saying that step's words at the moment the step was reached (the
// moment its claims are checked at), even when several steps come at one
// moment.
func TestFigureRestsOnEveryStep(t *testing.T) {
	for _, s := range everyFigure(t) {
		t.Run(figureLabel(s), func(t *testing.T) {
			a := figureApp(t, s.ID, 720, 450)
			for _, st := range s.Settings {
				require.NoError(t, a.Do(command.SetKnob{Knob: st.Knob, Value: st.Value}))
			}
			var c hostClock
			c.run(a, time.Second)
			require.True(t, a.Paused(), "the figure does not open still")
			rested := map[int]bool{}
			rest := func() {
				k := a.scen().Step()
				rested[k] = true
				at, ok := a.scen().Tracker().ReachedAtMs(k)
				require.True(t, ok, "the figure shows step %d, not reached", k+1)
				st := a.State().Scenario
				assert.Equal(t, k, st.Step)
				if k > 0 {
					assert.Contains(t, captionText(a.Frame()), a.scen().Tracker().TextOf(k), "resting at step %d, the figure says something else", k+1)
					assert.InDelta(t, at, float64(a.World().Now())/1000, 0.001, "the figure rests at step %d away from the moment it was reached", k+1)
				}
			}
			rest()
			for n := 0; !a.scen().ShownDone(); n++ {
				require.Less(t, n, 2*len(s.Steps), "the story does not end")
				before := a.scen().Shown()
				playToRest(t, a, &c, 60*time.Second)
				require.Equal(t, before+1, a.scen().Shown(), "playing from step %d rests elsewhere", before+1)
				if !a.scen().ShownDone() {
					rest()
				}
			}
			// After the last step, its closing line.
			assert.Contains(t, captionText(a.Frame()), a.scen().Tracker().Final())
			assert.True(t, a.State().Scenario.Done)
			for k := range s.Steps {
				assert.True(t, rested[k], "the figure never rests on step %d: %q", k+1, s.Steps[k].Text)
			}
		})
	}
}

// everyFigure is every scenario with its default settings, and with each
// other value of each knob.
func everyFigure(t testing.TB) []*scenarios.Scenario {
	var out []*scenarios.Scenario
	for _, s := range scenarios.All() {
		out = append(out, s)
		for _, k := range s.Knobs {
			for _, v := range k.Values {
				if v != k.Default {
					o, err := s.With(k.Name, v)
					require.NoError(t, err)
					out = append(out, o)
				}
			}
		}
	}
	return out
}

func figureLabel(s *scenarios.Scenario) string {
	l := s.ID
	for _, st := range s.Settings {
		l += "," + st.Knob + "=" + strings.ReplaceAll(st.Value, "/", "-")
	}
	return l
}

// TestFigureOpensStillAtItsParagraphAndRestsAtEachStep: a figure opens
// paused at its opening moment, at 1x; playing stops at the next step, and
// a resting figure lets the host stop drawing.
func TestFigureOpensStillAtItsParagraphAndRestsAtEachStep(t *testing.T) {
	a := figureApp(t, "slow-or-dead", 720, 450)
	s := a.scen().Spec()
	var c hostClock
	c.run(a, 2*time.Second)
	assert.True(t, a.Paused())
	assert.Equal(t, FigureSpeed, a.Speed())
	assert.Equal(t, int64(s.UI.OpenMs*1000), a.World().Now(), "the figure does not open at its paragraph's moment")
	assert.Equal(t, 0, a.scen().Tracker().Step())
	a.Frame() // as the host draws
	idle, _ := a.NextWake(c.now)
	assert.True(t, idle, "a figure waiting for its reader keeps the host drawing")

	_, res, err := s.Run(viz.DefaultParams().Seed)
	require.NoError(t, err)
	for k := 1; k < len(s.Steps); k++ {
		played := playToRest(t, a, &c, 30*time.Second)
		require.Equal(t, k, a.scen().Step(), "the figure did not rest at step %d", k)
		at, _ := a.scen().Tracker().ReachedAtMs(k)
		assert.InDelta(t, res.ReachedAtMs[k], at, 1, "step %d came at another moment than in the scenario", k)
		// The figure rests at the event that reached the step: the world
		// its words were written for.
		assert.InDelta(t, at, float64(a.World().Now())/1000, 0.001, "the figure ran on past step %d", k)
		assert.Equal(t, res.Texts[k], a.State().Scenario.StepText, "resting at step %d, the figure says something else", k)
		assert.Less(t, played, 15*time.Second, "step %d took %v of real time", k, played)
		c.run(a, time.Second)
		a.Frame()
		idle, _ := a.NextWake(c.now)
		assert.True(t, idle, "resting at step %d, the app is not idle", k)
		assert.True(t, a.Paused())
	}
	// Steps 4 and 5 (C resumes; C acted on old beliefs) come at one
	// virtual moment, an event apart: the figure rests at each.
	assert.Equal(t, res.ReachedAtMs[4], res.ReachedAtMs[5], "C did not act on its old beliefs as it resumed")
	assert.True(t, a.scen().Tracker().Done())
	end := a.World().Now()
	assert.Zero(t, playToRest(t, a, &c, 30*time.Second), "the closing line is not shown at once")
	assert.Contains(t, captionText(a.Frame()), a.scen().Tracker().Final())
	assert.Equal(t, end, a.World().Now())
	playToRest(t, a, &c, 30*time.Second)
	assert.Greater(t, a.World().Now(), end, "playing at the end runs nothing")
}

// TestFigureStepsBack: stepping back returns to the moment the step
// before began, with the story there, and playing reaches the same step
// at the same moment again.
func TestFigureStepsBack(t *testing.T) {
	a := figureApp(t, "majority", 350, 560)
	var c hostClock
	playToRest(t, a, &c, 30*time.Second)
	playToRest(t, a, &c, 30*time.Second)
	require.Equal(t, 2, a.scen().Step())
	at1, _ := a.scen().Tracker().ReachedAtMs(1)
	at2, _ := a.scen().Tracker().ReachedAtMs(2)

	require.NoError(t, a.Click(scene.IDFigureBack))
	assert.True(t, a.Paused())
	assert.Equal(t, 1, a.scen().Step(), "back from step 3: the story stands at step %d", a.scen().Step()+1)
	assert.Equal(t, int64(at1*1000), a.World().Now(), "back from step 3 is not where step 2 began")
	checkFigureFrame(t, a, "stepped back")

	playToRest(t, a, &c, 30*time.Second)
	assert.Equal(t, 2, a.scen().Step())
	again, _ := a.scen().Tracker().ReachedAtMs(2)
	assert.InDelta(t, at2, again, 0.001, "step 3 came at another moment after stepping back")

	require.NoError(t, a.Click(scene.IDFigureBack))
	require.NoError(t, a.Click(scene.IDFigureBack))
	assert.Equal(t, 0, a.scen().Step())
	assert.Equal(t, int64(a.scen().Spec().UI.OpenMs*1000), a.World().Now(), "back at the start is not the opening moment")
	require.NoError(t, a.Click(scene.IDFigureBack))
	assert.Contains(t, a.State().Banner, "starts")
}

// TestFigureActingRunsItThenRests: acting on a resting figure runs it for
// a while, and it rests again.
func TestFigureActingRunsItThenRests(t *testing.T) {
	a := figureApp(t, "two-worlds", 720, 450)
	var c hostClock
	c.run(a, time.Second)
	require.True(t, a.Paused())
	require.NoError(t, a.Do(command.Act{Action: a.nextWrite(0)}))
	assert.False(t, a.Paused(), "the figure stands still after the reader acted")
	start := a.World().Now()
	for i := 0; i < 200 && !a.Paused(); i++ {
		c.run(a, 100*time.Millisecond)
	}
	assert.True(t, a.Paused(), "the figure never rests after the reader acted")
	assert.Greater(t, a.World().Now(), start)
	assert.LessOrEqual(t, a.World().Now()-start, int64(actRunUs)+300_000)
}

// TestFigureStartsAgainStill: starting again, or changing a knob, shows
// the opening moment, still, with the script ready to play.
func TestFigureStartsAgainStill(t *testing.T) {
	a := figureApp(t, "two-leaders", 720, 450)
	var c hostClock
	playToRest(t, a, &c, 30*time.Second)
	a.Do(command.Act{Action: a.nextWrite(1)}) // the reader takes over
	require.False(t, a.scen().Autoplay())
	for _, in := range []command.Intent{command.Restart{}, command.SetKnob{Knob: "protocol", Value: "raft"}} {
		require.NoError(t, a.Do(in))
		assert.True(t, a.Paused(), "%T: the figure plays", in)
		assert.True(t, a.scen().Autoplay(), "%T: the script will not play", in)
		assert.Equal(t, 0, a.scen().Tracker().Step())
		assert.Equal(t, int64(a.scen().Spec().UI.OpenMs*1000), a.World().Now())
	}
	playToRest(t, a, &c, 30*time.Second)
	assert.Equal(t, 1, a.scen().Tracker().Step())
}

// TestFigureOpensTheSameMomentInTheLab: the lab link opens the full app
// (no embed) at this moment of this run, with the figure's settings.
func TestFigureOpensTheSameMomentInTheLab(t *testing.T) {
	a := figureApp(t, "majority", 720, 450)
	require.NoError(t, a.Do(command.SetKnob{Knob: "split", Value: "2/2/1"}))
	var c hostClock
	playToRest(t, a, &c, 30*time.Second)
	require.NoError(t, a.Click(scene.IDFigureLab))
	effects := a.TakeEffects()
	require.Len(t, effects, 1)
	require.Equal(t, frame.EffectVisit, effects[0].Kind)
	u, err := url.Parse(effects[0].Text)
	require.NoError(t, err)
	assert.Equal(t, "https://example.org/raftlab/index.html", u.Scheme+"://"+u.Host+u.Path)
	assert.Empty(t, u.Query().Get("embed"), "the lab link opens the figure again")

	params, probs := viz.ParseQuery("?"+u.RawQuery, session.BuiltinScenarios().Check)
	require.Empty(t, probs)
	b, err := New(Options{Params: params, Width: 1280, Height: 800, Scenarios: session.BuiltinScenarios()})
	require.NoError(t, err)
	assert.False(t, b.figure())
	require.NotNil(t, b.scen())
	assert.Equal(t, "2/2/1", b.scen().Spec().Setting("split"))
	assert.Equal(t, a.World().Now(), b.World().Now(), "the lab opens at another moment")
	assert.Equal(t, a.World().TraceHash(), b.World().TraceHash(), "the lab opens another run")
	assert.Equal(t, a.scen().Tracker().Step(), b.scen().Tracker().Step(), "the lab's story stands elsewhere")
	assert.True(t, b.Paused())
	// The figure speaks the chapter's words; the lab is where the reader
	// meets Raft's own.
	assert.True(t, a.plain(), "the figure speaks Raft's words")
	assert.False(t, b.plain(), "the lab keeps Raft's words from the reader")
	assert.Contains(t, b.Describe(), "(term ", "the lab's description does not speak of terms")
}

// TestFigureKeepsALabKnobToTheLab: versioned-truth's choice of writes
// reveals the fix its chapter leaves for later. Its figure offers neither
// the choice nor, at the end, the comparison; the page may still set it,
// and the full lab, opened from the figure, offers both.
func TestFigureKeepsALabKnobToTheLab(t *testing.T) {
	s, err := scenarios.Get("versioned-truth")
	require.NoError(t, err)
	k, ok := s.Knob("writes")
	require.True(t, ok)
	require.True(t, k.Lab, "the writes knob is not kept to the lab")
	for _, size := range figureSizes {
		a := figureApp(t, s.ID, size[0], size[1])
		var c hostClock
		for n := 0; !a.scen().ShownDone() && n < 20; n++ {
			playToRest(t, a, &c, 60*time.Second)
			for _, id := range widgetIDs(a) {
				assert.False(t, strings.HasPrefix(id, "knob:writes="), "%vx%v: the figure offers %s", size[0], size[1], id)
			}
		}
		require.True(t, a.scen().ShownDone())
		for _, l := range a.Frame().Caption.Lines {
			for _, w := range strings.FieldsFunc(strings.ToLower(l.Text), func(r rune) bool { return r == ' ' || r == ',' || r == '.' }) {
				assert.NotContains(t, []string{"cas", "swap", "compare-and-swap"}, w, "%vx%v: the figure's words name the fix: %q", size[0], size[1], l.Text)
			}
		}
		require.NoError(t, a.Do(command.SetKnob{Knob: "writes", Value: "cas"}), "the page cannot set the knob")
		assert.Equal(t, "cas", a.scen().Spec().Setting("writes"))
	}
	_, params := labQuery(t, figureApp(t, s.ID, 720, 450))
	b, err := New(Options{Params: params, Width: 1280, Height: 800, Scenarios: session.BuiltinScenarios()})
	require.NoError(t, err)
	_, ok = widgetRect(b, "knob:writes=cas")
	assert.True(t, ok, "the full lab does not offer the choice; controls: %v", widgetIDs(b))
}

// labQuery presses a figure's way to the full lab and returns the query
// of the address it visits, and the parameters the page reads from it.
func labQuery(t *testing.T, a *App) (string, viz.Params) {
	t.Helper()
	require.NoError(t, a.Click(scene.IDFigureLab))
	effects := a.TakeEffects()
	require.Len(t, effects, 1)
	u, err := url.Parse(effects[0].Text)
	require.NoError(t, err)
	params, probs := viz.ParseQuery("?"+u.RawQuery, session.BuiltinScenarios().Check)
	require.Empty(t, probs)
	return u.RawQuery, params
}

// TestFigureLabLinkKeepsTheSpeed: the full lab plays at the figure's
// speed, the 1x a figure plays at (not the full app's slower default)
// or the one the reader chose, read as the page reads its address.
func TestFigureLabLinkKeepsTheSpeed(t *testing.T) {
	for _, speed := range []float64{0, 0.5, 2} {
		a := figureApp(t, "two-worlds", 720, 450)
		want := FigureSpeed
		if speed > 0 {
			require.NoError(t, a.Do(command.SetSpeed{Speed: speed}))
			want = speed
		}
		require.Equal(t, want, a.Speed())
		query, params := labQuery(t, a)
		b, err := New(Options{Params: params, SpeedGiven: SpeedChosen(strings.Split(query, "&")), Width: 1280, Height: 800, Scenarios: session.BuiltinScenarios()})
		require.NoError(t, err)
		assert.False(t, b.figure())
		assert.Equal(t, want, b.Speed(), "the lab opened from a figure at %gx plays at %gx", want, b.Speed())
	}
}

// TestFigureKeysPlayStepByStep: the play key plays the next step, as the
// button does.
func TestFigureKeysPlayStepByStep(t *testing.T) {
	a := figureApp(t, "roles", 720, 450)
	var c hostClock
	require.True(t, a.Key(" ") || a.Key("space"))
	assert.False(t, a.Paused())
	for i := 0; i < 300 && !a.Paused(); i++ {
		c.run(a, 100*time.Millisecond)
	}
	assert.True(t, a.Paused())
	assert.Equal(t, 1, a.scen().Tracker().Step())
}

// captionText is what a figure's words say in frame f: its caption's
// lines joined as they were written, before they were wrapped.
func captionText(f *frame.Frame) string {
	var lines []string
	for _, l := range f.Caption.Lines {
		lines = append(lines, l.Text)
	}
	return strings.Join(lines, " ")
}

// TestNextTwiceAtOncePlaysTwoSteps: a page that says "next; next" sends the
// second while the figure still plays to the first; the figure plays on to
// the step after, and rests there.
func TestNextTwiceAtOncePlaysTwoSteps(t *testing.T) {
	a := figureApp(t, "majority", 720, 450)
	start := a.scen().Step()
	require.NoError(t, a.Do(command.PlayStep{}))
	require.NoError(t, a.Do(command.PlayStep{}))
	var c hostClock
	for i := 0; i < 600 && !a.Paused(); i++ {
		c.run(a, 100*time.Millisecond)
	}
	require.True(t, a.Paused(), "still playing after a minute")
	assert.Equal(t, start+2, a.scen().Step(), "two nexts at once played to step %d from %d", a.scen().Step()+1, start+1)
}
