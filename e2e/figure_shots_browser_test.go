//go:build browser && figureshots

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/scenarios"
)

// Pictures of every figure for a person to look at, not a check: it runs
// only with the figureshots tag, so the browser suite never skips it:
//
//	RAFTLAB_FIGURE_SHOTS=/tmp/shots go test -tags browser,figureshots -run TestFigureScreenshots ./e2e/
//
// With RAFTLAB_FIGURE_SHOTS_STEPS=1 it also saves each step it rests at.

// envFigureShots names the directory TestFigureScreenshots writes to.
const envFigureShots = "RAFTLAB_FIGURE_SHOTS"

// envFigureShotsSteps, when set, makes TestFigureScreenshots save every
// step it rests at as well (name-stepN), not only the start and the end.
const envFigureShotsSteps = "RAFTLAB_FIGURE_SHOTS_STEPS"

// TestFigureScreenshots saves every figure at both sizes as it opens and
// at the end of its story, played step by step, in $RAFTLAB_FIGURE_SHOTS:
// pictures to look at, not a test of anything but that each figure ends
// with its panel shown and every word whole. It plays at 4x to save time,
// or at the figure's own pace where that is faster.
func TestFigureScreenshots(t *testing.T) {
	dir := os.Getenv(envFigureShots)
	if dir == "" {
		t.Fatal(envFigureShots + " is not set: give it the directory to write the pictures to")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	shot := func(b *browser, name string) {
		ctx, cancel := context.WithTimeout(b.ctx, waitTimeout)
		defer cancel()
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644))
	}
	for _, id := range scenarios.IDs() {
		for _, size := range figurePageSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", id, size[0], size[1]), func(t *testing.T) {
				b := newBrowser(t, size[0], size[1])
				b.openApp("scenario=" + id + "&embed=1" + shotSpeed(id))
				waitResting(b, "at the start")
				name := fmt.Sprintf("%s-%dx%d", id, size[0], size[1])
				shot(b, name+"-start")
				requireFigureShows(t, appState(b), "at the start")
				for k := 0; k < 12 && !appState(b).Scenario.Done; k++ {
					playFigureStep(t, b)
					if os.Getenv(envFigureShotsSteps) != "" && !appState(b).Scenario.Done {
						shot(b, fmt.Sprintf("%s-step%d", name, k+2))
					}
				}
				s := appState(b)
				assert.True(t, s.Scenario.Done)
				shot(b, name+"-end")
				requireFigureShows(t, s, "at the end")
				b.close()
			})
		}
	}
}

// shotSpeed is the speed parameter the pictures of figure id are taken
// at: 4x, or none where the figure's own pace is faster.
func shotSpeed(id string) string {
	if s, err := scenarios.Get(id); err == nil && s.UI.Pace >= 4 {
		return ""
	}
	return "&speed=4"
}
