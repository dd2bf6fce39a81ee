package app

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/app/command"
	"raftlab/viz/app/scene"
)

// legendText is every line of the open key, joined.
func legendText(t *testing.T, a *App) string {
	t.Helper()
	l := a.Frame().Legend
	require.NotNil(t, l, "the key is not open")
	var b strings.Builder
	for _, r := range l.Rows {
		for _, t := range r.Lines {
			b.WriteString(t.Text + " ")
		}
	}
	return b.String()
}

func TestLegendOpensAndClosesByID(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	require.Nil(t, a.Frame().Legend)
	require.NoError(t, a.Click(scene.IDLegend))
	l := a.Frame().Legend
	require.NotNil(t, l)
	assert.True(t, a.Frame().Logs.Key.On)
	require.NoError(t, a.Click(scene.IDLegendClose))
	assert.Nil(t, a.Frame().Legend)
	require.NoError(t, a.Click(scene.IDLegend))
	require.NoError(t, a.Click(scene.IDLegend), "the key's button closes it too")
	assert.Nil(t, a.Frame().Legend)
	require.NoError(t, a.Do(command.ShowLegend{On: true}))
	require.NoError(t, a.Do(command.Dismiss{}))
	assert.Nil(t, a.Frame().Legend, "Escape closes it")
}

func TestLegendByTap(t *testing.T) {
	for _, touch := range []bool{false, true} {
		a := figureApp(t, "majority", 350, 560)
		key := a.Frame().Logs.Key
		require.NotEmpty(t, key.ID)
		tap := func(p viz.Point) {
			a.Pointer(viz.PointerEvent{Action: viz.PointerDown, Pos: p, Touch: touch})
			a.Pointer(viz.PointerEvent{Action: viz.PointerUp, Pos: p, Touch: touch})
		}
		// A fingertip just under the small button still opens the key.
		tap(viz.Pt(key.Rect.Center().X, key.Rect.Bottom()+scene.KeySlop-1))
		l := a.Frame().Legend
		require.NotNil(t, l, "touch %v", touch)
		tap(l.Rect.Center())
		assert.Nil(t, a.Frame().Legend, "a tap on the card closes it (touch %v)", touch)
	}
}

func TestLegendWordsFollowTheProtocol(t *testing.T) {
	raft := newApp(t, 3, 1280, 800)
	require.NoError(t, raft.Do(command.ShowLegend{On: true}))
	text := legendText(t, raft)
	assert.Contains(t, text, "term")
	assert.Contains(t, text, "Hollow")
	assert.Contains(t, text, "election timer")

	naive := newApp(t, 3, 1280, 800)
	require.NoError(t, naive.Do(command.SetProtocol{Protocol: "naive-copy"}))
	require.NoError(t, naive.Do(command.ShowLegend{On: true}))
	text = legendText(t, naive)
	assert.Contains(t, text, "value")
	assert.NotContains(t, text, "term")
	assert.NotContains(t, text, "Hollow", "naive-copy never shows a hollow cell")
	assert.NotContains(t, text, "timer", "naive-copy has no timers")
	for _, r := range naive.Frame().Legend.Rows {
		if r.Log != nil {
			for _, c := range r.Log.Cells {
				assert.True(t, c.Committed)
			}
		}
		assert.Empty(t, r.Nodes)
	}

	for _, id := range []string{"replicated-memory", "slow-or-dead"} {
		a := figureApp(t, id, 720, 450)
		require.True(t, a.plain())
		require.NoError(t, a.Click(scene.IDLegend))
		text := legendText(t, a)
		assert.False(t, raftWords.MatchString(text), "%s: %q", id, raftWords.FindAllString(text, -1))
		assert.Contains(t, text, "value")
	}
}

func TestLegendSamplesShowWhatCellsShow(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	c.run(a, 3*time.Second)
	require.NoError(t, a.Do(command.ShowLegend{On: true}))
	var shown []string
	for _, r := range a.Frame().Logs.Rows {
		for _, cell := range r.Cells {
			shown = append(shown, cell.Text)
		}
	}
	for _, r := range a.Frame().Legend.Rows {
		if r.Log != nil && len(shown) > 0 {
			assert.Contains(t, shown, r.Log.Cells[0].Text)
		}
	}
}

func TestLegendFits(t *testing.T) {
	type canvas struct{ w, h float64 }
	for _, s := range []canvas{{1280, 800}, {720, 450}, {350, 560}} {
		apps := map[string]*App{"free play": newApp(t, 5, s.w, s.h)}
		naive := newApp(t, 3, s.w, s.h)
		require.NoError(t, naive.Do(command.SetProtocol{Protocol: "naive-copy"}))
		apps["naive-copy"] = naive
		for _, id := range []string{"majority", "notebooks", "slow-or-dead", "commit-latency"} {
			apps[id] = figureApp(t, id, s.w, s.h)
		}
		for what, a := range apps {
			require.NoError(t, a.Click(scene.IDLegend), what)
			f := a.Frame()
			require.NotNil(t, f.Legend)
			assert.Empty(t, f.Overflows(a.measure), "%s at %vx%v", what, s.w, s.h)
			r := f.Legend.Rect
			assert.True(t, r.X >= 0 && r.Y >= 0 && r.Right() <= s.w && r.Bottom() <= s.h, "%s at %vx%v: %v", what, s.w, s.h, f.Legend.Rect)
			// Where there is room, above its button or below the log
			// rows, the card leaves its button and the log rows in sight;
			// on a phone, or beside log rows as tall as the stage, it may
			// cover them (a tap on it closes it).
			key, logs := f.Logs.Key.Rect, a.Layout().Logs
			room := key.Y-6-r.H >= 4 || logs.Bottom()+6+r.H <= s.h-4
			if room && (s.w == 1280 || (s.w == 720 && a.figure())) {
				assert.False(t, f.Legend.Rect.Overlaps(f.Logs.Key.Rect), "%s at %vx%v: the card hides its button", what, s.w, s.h)
			}
		}
	}
}
