package view

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// A note with a time goes at that time, not before; one without stays
// until replaced or closed.
func TestABannerGoesAtItsTime(t *testing.T) {
	v := New(frame.ThemeLight)
	v.Say("a note", frame.ToneWarn, 4*time.Second)
	require.Equal(t, Banner{Text: "a note", Tone: frame.ToneWarn, Until: 4 * time.Second}, v.Banner())
	require.False(t, v.Expire(4*time.Second-1))
	require.Equal(t, "a note", v.Banner().Text)
	require.True(t, v.Expire(4*time.Second))
	require.Equal(t, Banner{}, v.Banner())
	require.False(t, v.Expire(5*time.Second), "no note left to expire")

	v.Say("stays", frame.ToneBad, 0)
	require.False(t, v.Expire(time.Hour))
	require.Equal(t, "stays", v.Banner().Text)
	v.CloseBanner()
	require.Equal(t, Banner{}, v.Banner())
}

// A finger on a touch screen does not hover: the point is kept but said
// not to be a hover. The target the pointer pressed stays quiet.
func TestHoverAndQuiet(t *testing.T) {
	v := New(frame.ThemeLight)
	_, ok := v.Hover()
	assert.False(t, ok, "a fresh view hovers nowhere")
	v.SetHover(viz.Point{X: 3, Y: 4}, true)
	p, ok := v.Hover()
	assert.True(t, ok)
	assert.Equal(t, viz.Point{X: 3, Y: 4}, p)
	v.SetHover(viz.Point{X: 5, Y: 6}, false)
	_, ok = v.Hover()
	assert.False(t, ok)

	q := HoverTarget{Kind: "node", A: 2}
	v.SetQuiet(q)
	assert.Equal(t, q, v.Quiet())
}

func TestMissingFigureIsSaidUntilCleared(t *testing.T) {
	v := New(frame.ThemeLight)
	v.SetMissingFigure("no-such")
	assert.Equal(t, "no-such", v.MissingFigure())
	v.SetMissingFigure("")
	assert.Empty(t, v.MissingFigure())
}
