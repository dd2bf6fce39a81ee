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
	want := map[string]string{"question": "Question", "contract": "Safety", "checker": "Safety", "client": "Client", "roles": "Node", "elections": "Node", "clocks": "Node"}[s.Scenario.Focus]
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
func playFigureStep(t *testing.T, b *browser) app.Snapshot {
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
// sizes: each opens still with its panel, every word whole and true, plays
// one step at 1x when asked, and then rests: no frames, and less than 0.02
// CPU-s/s for the renderer and GPU.
func TestFigureRestsBetweenStepsAtPageAndPhoneSizes(t *testing.T) {
	for _, id := range scenarios.IDs() {
		for _, size := range figurePageSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", id, size[0], size[1]), func(t *testing.T) {
				b := newBrowser(t, size[0], size[1])
				b.openApp("scenario=" + id + "&embed=1")
				s := appState(b)
				require.True(t, s.Paused, "the figure does not open still")
				assert.Equal(t, 1.0, s.Speed, "a figure plays at 1x")
				assert.Equal(t, 0, s.Scenario.Step)
				requireFigureShows(t, s, "at the start")
				waitResting(b, "at the start")

				start := s.NowMs
				s = playFigureStep(t, b)
				assert.Equal(t, 1, s.Scenario.Step, "the figure rested at another step")
				assert.Greater(t, s.NowMs, start)
				requireFigureShows(t, s, "at step 2")
				requireStill(t, b, time.Second, "resting at step 2")
				time.Sleep(time.Second)
				w := measureStill(b, true, 4*time.Second)
				cpu := w.perSecond(w.cpu["renderer"] + w.cpu["GPU"])
				t.Logf("resting at step 2: %v", w)
				if cpu >= 0.02 {
					// A busy machine (the other processes of a test run)
					// can lend a quiet renderer a spike of work it did
					// not ask for; a figure that truly rests is quiet in
					// a second window too, and one that does not rest is
					// busy in both.
					w = measureStill(b, true, 4*time.Second)
					cpu = w.perSecond(w.cpu["renderer"] + w.cpu["GPU"])
					t.Logf("resting at step 2, measured again: %v", w)
				}
				assert.Less(t, cpu, 0.02, "a resting figure costs %.3f CPU-s/s", cpu)
				noExceptions(t, b)
			})
		}
	}
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
