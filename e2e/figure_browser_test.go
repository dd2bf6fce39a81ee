//go:build browser

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
	"raftlab/viz/app"
)

// Embedded figures (viz/app/figure.go) at the two sizes a book page gives
// them: a column (720x450) and a phone (350x560). The unit tests check
// every figure's frames; these check a few in a real browser, with its
// fonts: the panel shows, no word is cut, and a figure at rest between
// steps costs what a paused app costs.

var figurePageSizes = [][2]int{{720, 450}, {350, 560}}

// requireFigureShows checks the figure's snapshot: its panel on screen,
// every word whole.
func requireFigureShows(t *testing.T, s app.Snapshot, what string) {
	t.Helper()
	require.NotNil(t, s.Scenario, what)
	assert.Empty(t, s.Screen.Overflow, "%s: words cut", what)
	assert.Empty(t, s.Scenario.Untrue, "%s: the words shown are not true on screen", what)
	want := map[string]string{"question": "Question", "contract": "Safety", "checker": "Safety", "client": "Client", "roles": "Node", "elections": "Node", "clocks": "Node", "leases": "Node", "informers": "Safety"}[s.Scenario.Focus]
	if want == "" {
		assert.Empty(t, s.Screen.Panels, "%s: a figure about its machines shows a panel", what)
		return
	}
	if assert.Len(t, s.Screen.Panels, 1, what) {
		p := s.Screen.Panels[0]
		assert.Equal(t, want, p.Kind, what)
		assert.NotEmpty(t, p.Text, "%s: the panel is empty", what)
		assert.LessOrEqual(t, p.Rect.Bottom(), s.Screen.Height+0.5, "%s: the panel leaves the page", what)
		assert.LessOrEqual(t, p.Rect.Right(), s.Screen.Width+0.5, "%s: the panel leaves the page", what)
	}
}

// playFigureStep presses the figure's play button with the mouse and waits
// until it rests again; it returns the snapshot at rest.
func playFigureStep(t testing.TB, b *browser) app.Snapshot {
	t.Helper()
	s := appState(b)
	step, done := s.Scenario.Step, s.Scenario.Done
	clickWidget(b, s, "figure.play")
	// A step reached at the same instant as the last, and the closing
	// line after the last step, are shown without running the clock.
	waitState(b, "the figure to play", func(s app.Snapshot) bool {
		return !s.Paused || s.Scenario.Step > step || s.Scenario.Done != done
	})
	s = waitState(b, "the figure to rest", func(s app.Snapshot) bool { return s.Paused })
	waitResting(b, fmt.Sprintf("at step %d", s.Scenario.Step+1))
	return s
}

// TestFigureRestsBetweenStepsAtPageAndPhoneSizes opens every figure at both
// sizes, in one Chromium per size: each opens still at 1x with its panel,
// every word whole and true, rests, plays one step when asked (at 10x: what
// is tested is the rest it comes to, and viz/app's
// TestFigureOpensStillAtItsParagraphAndRestsAtEachStep plays the steps at 1x),
// and then rests: no Update and no paint for a second. What the renderer and
// GPU spend at rest (less than 0.02 CPU-s/s) is measured on one figure per
// size: once the app runs no frame it is the page's cost, the same for every
// figure; that every figure, at every step and both sizes, lets its host stop
// is viz/app's TestFigureShowsItsPanelAndEveryWordAtPageAndPhoneSizes.
func TestFigureRestsBetweenStepsAtPageAndPhoneSizes(t *testing.T) {
	dir := webDir(t)
	requireAppBuild(t, dir)
	base := startWebServer(t, dir)
	ids := scenarios.IDs()
	for n, size := range figurePageSizes {
		// A Chromium of its own: the CPU measured is its processes'.
		b := newBrowserWith(t, size[0], size[1])
		// A different figure at each size has its CPU measured.
		measured := ids[n*len(ids)/len(figurePageSizes)]
		for _, id := range ids {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], id), func(t *testing.T) {
				b.lend(t)
				b.navigate(base + "index.html?scenario=" + id + "&embed=1")
				b.waitReady()
				s := appState(b)
				require.True(t, s.Paused, "the figure does not open still")
				want := 1.0
				if sc, err := scenarios.Get(id); err == nil && sc.UI.Pace > 0 {
					want = sc.UI.Pace
				}
				assert.Equal(t, want, s.Speed, "a figure plays at 1x, or at its own pace")
				assert.Equal(t, 0, s.Scenario.Step)
				requireFigureShows(t, s, "at the start")
				waitResting(b, "at the start")

				start := s.NowMs
				appCmd(b, "speed", "10")
				s = playFigureStep(t, b)
				assert.Equal(t, 1, s.Scenario.Step, "the figure rested at another step")
				assert.Greater(t, s.NowMs, start)
				requireFigureShows(t, s, "at step 2")
				requireStill(t, b, time.Second, "resting at step 2")
				if id == measured {
					requireRestingCPU(t, b)
				}
				noExceptions(t, b)
			})
		}
		b.close()
	}
}

// requireRestingCPU measures the renderer's and GPU's CPU while the app
// rests, and fails at 0.02 CPU-s/s or more.
func requireRestingCPU(t *testing.T, b *browser) {
	t.Helper()
	time.Sleep(time.Second)
	w := measureStill(b, true, 4*time.Second)
	cpu := w.perSecond(w.cpu["renderer"] + w.cpu["GPU"])
	t.Logf("resting at step 2: %v", w)
	if cpu >= 0.02 {
		// A busy machine (the other processes of a test run) can lend a
		// quiet renderer a spike of work it did not ask for; a figure that
		// truly rests is quiet in a second window too, and one that does
		// not rest is busy in both.
		w = measureStill(b, true, 4*time.Second)
		cpu = w.perSecond(w.cpu["renderer"] + w.cpu["GPU"])
		t.Logf("resting at step 2, measured again: %v", w)
	}
	assert.Less(t, cpu, 0.02, "a resting figure costs %.3f CPU-s/s", cpu)
}

// TestFigureStepBackAndLabLink: the figure's back button returns to the
// step before, and its lab button opens the full app at the same moment of
// the same run.
func TestFigureStepBackAndLabLink(t *testing.T) {
	b := newBrowser(t, 720, 450)
	url := b.openApp("scenario=two-worlds&embed=1")
	playFigureStep(t, b)
	s := playFigureStep(t, b)
	require.Equal(t, 2, s.Scenario.Step)
	clickWidget(b, s, "figure.back")
	s = waitState(b, "the story back at step 2", func(s app.Snapshot) bool { return s.Scenario.Step == 1 })
	assert.True(t, s.Paused)
	s = playFigureStep(t, b)
	require.Equal(t, 2, s.Scenario.Step)

	// A new tab would hide this one, whose app would then never draw the
	// lab: the page's window.open only notes where it was asked to go.
	evalJS[bool](b, `(window.open = function (u) { window.__opened = u; return {}; }, true)`)
	clickWidget(b, s, "figure.lab")
	b.waitFor(`typeof window.raftlab.lastVisit === "string"`)
	assert.Equal(t, evalJS[string](b, `window.raftlab.lastVisit`), evalJS[string](b, `window.__opened`), "the lab was not opened")
	lab := evalJS[string](b, `window.raftlab.lastVisit`)
	assert.NotContains(t, lab, "embed=", "the lab link opens the figure again")
	assert.Contains(t, lab, "link=")
	assert.True(t, strings.HasPrefix(lab, strings.Split(url, "?")[0]), "the lab link %s leaves the page %s", lab, url)
	// Chromium opens it in a new tab; open it here to see what it shows.
	b.navigate(lab)
	b.waitReady()
	l := appState(b)
	assert.False(t, l.Embed)
	require.NotNil(t, l.Scenario)
	assert.Equal(t, "two-worlds", l.Scenario.ID)
	assert.Equal(t, s.NowMs, l.NowMs, "the lab opens at another moment")
	assert.Equal(t, s.TraceHash, l.TraceHash, "the lab opens another run")
	assert.Equal(t, s.Scenario.Step, l.Scenario.Step)
	noExceptions(t, b)
}
