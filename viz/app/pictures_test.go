package app

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/words"
)

// lastEffect runs line and returns the one effect it asked for.
func lastEffect(t *testing.T, a *App, line string) frame.Effect {
	t.Helper()
	a.TakeEffects()
	require.NoError(t, a.tryLine(line), line)
	es := a.TakeEffects()
	require.Len(t, es, 1, line)
	return es[0]
}

// svgViewBox is the viewBox of an SVG document, which must be well formed.
func svgViewBox(t *testing.T, data []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(data))
	var box string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is not well formed")
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "svg" {
			for _, at := range se.Attr {
				if at.Name.Local == "viewBox" {
					box = at.Value
				}
			}
		}
	}
	return box
}

func TestPicturesForSlides(t *testing.T) {
	a := newApp(t, 5, 1280, 800)
	c := &hostClock{}
	untilLeader(t, a, c)
	require.NoError(t, a.tryLine("open setup"))

	// The stage as an SVG: the machines and logs, no menu over them.
	e := lastEffect(t, a, "save-picture stage svg")
	assert.Equal(t, frame.EffectSave, e.Kind)
	assert.Equal(t, "raftlab-stage.svg", e.Name)
	f := a.Frame()
	assert.Empty(t, a.view.Menu().String(), "the menu stays open over the picture")
	r := a.stageRegion(f)
	lay := a.stage.Layout()
	assert.True(t, r.Contains(lay.Cluster.Center()) && r.Y < lay.Logs.Y && r.Bottom() >= lay.Logs.Bottom(), "the stage %v leaves out the cluster %v or the logs %v", r, lay.Cluster, lay.Logs)
	assert.Less(t, r.Right(), f.Panels[0].Rect.X, "the stage takes in the panels")
	var box [4]float64
	_, err := fmt.Sscanf(svgViewBox(t, e.Data), "%g %g %g %g", &box[0], &box[1], &box[2], &box[3])
	require.NoError(t, err)
	assert.InDeltaSlice(t, []float64{r.X, r.Y, r.W, r.H}, box[:], 0.01, "the SVG shows the stage")
	assert.Contains(t, string(e.Data), ">A<", "machine A's name is in the picture")

	// The whole frame as an SVG.
	e = lastEffect(t, a, "save-picture all svg")
	assert.Equal(t, "raftlab.svg", e.Name)
	assert.Equal(t, "0 0 1280 800", svgViewBox(t, e.Data))

	// A panel as a PNG at twice the size: the host paints it.
	e = lastEffect(t, a, "save-picture safety png")
	assert.Equal(t, frame.EffectScreenshot, e.Kind)
	assert.Equal(t, "raftlab-safety.png", e.Name)
	assert.Equal(t, 2.0, e.Scale)
	var safety viz.Rect
	for _, p := range a.Frame().Panels {
		if p.Kind == viz.PanelSafety {
			safety = p.Rect
		}
	}
	assert.Equal(t, safety, e.Region)

	// The screen as it is, as before.
	e = lastEffect(t, a, "save-picture")
	assert.Equal(t, frame.Effect{Kind: frame.EffectScreenshot, Name: "raftlab.png"}, e)
}

func TestAPanelNotOnScreenHasNoPicture(t *testing.T) {
	a := newApp(t, 5, 720, 450) // tabs: one panel at a time
	require.NoError(t, a.tryLine("panel Client"))
	err := a.tryLine("save-picture safety png")
	require.ErrorContains(t, err, "the Safety panel is not on screen")
}

// The last seconds as SVG frames: one every twentieth of a virtual second,
// the moment shown unchanged afterwards.
func TestStageFramesForSlides(t *testing.T) {
	a := newApp(t, 3, 1280, 800)
	c := &hostClock{}
	untilLeader(t, a, c)
	c.run(a, time.Second)
	require.NoError(t, a.tryLine("pause"))
	pos, hash := a.session.Timeline().Pos(), a.World().TraceHash()
	e := lastEffect(t, a, "save-frames 1")
	assert.Equal(t, "raftlab-frames.zip", e.Name)
	assert.Equal(t, pos, a.session.Timeline().Pos(), "the moment shown moved")
	assert.Equal(t, hash, a.World().TraceHash())
	zr, err := zip.NewReader(bytes.NewReader(e.Data), int64(len(e.Data)))
	require.NoError(t, err)
	require.Len(t, zr.File, 22, "21 frames and the page that plays them")
	page := zr.File[21]
	assert.Equal(t, "raftlab-frames.html", page.Name)
	rc, err := page.Open()
	require.NoError(t, err)
	html, err := io.ReadAll(rc)
	require.NoError(t, err)
	// Played at the speed the reader watched: 1x, a twentieth of a second
	// a frame.
	assert.Contains(t, string(html), "const count = 21, ms = 50,")
	var first, last string
	for i, zf := range zr.File[:21] {
		assert.Equal(t, fmt.Sprintf("raftlab-frame-%03d.svg", i), zf.Name)
		rc, err := zf.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		svgViewBox(t, data)
		switch i {
		case 0:
			first = string(data)
		case len(zr.File) - 1:
			last = string(data)
		}
	}
	assert.NotEqual(t, first, last, "a second of a running cluster changed nothing on the stage")
	assert.False(t, strings.Contains(first, "@font-face"), "a frame carries the font")

	// As a GIF: the host is asked for it, and paints the frames the app
	// hands out one by one, each a moment; the run comes back after.
	e = lastEffect(t, a, "save-frames 1 gif")
	assert.Equal(t, frame.EffectAnimate, e.Kind)
	assert.Equal(t, "raftlab-stage.gif", e.Name)
	assert.Equal(t, a.stageRegion(a.Frame()), e.Region)
	var times []float64
	for i := 0; ; i++ {
		f, show, ok := a.AnimationFrame(i)
		if !ok {
			break
		}
		require.Less(t, i, 21, "more frames than a second holds")
		assert.Nil(t, f.Replay)
		assert.Equal(t, 50*time.Millisecond, show)
		times = append(times, float64(a.World().Now()))
	}
	assert.Len(t, times, 21)
	assert.Equal(t, pos, a.session.Timeline().Pos(), "the moment shown after the animation")
	_, _, again := a.AnimationFrame(0)
	assert.False(t, again, "the animation was over")
	assert.NotContains(t, first, words.Replaying, "a frame says it replays the past")
}
