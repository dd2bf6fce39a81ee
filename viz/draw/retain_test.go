//go:build desktop

package draw

import (
	"image"
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/app"
	"raftlab/viz/frame"
	"raftlab/viz/paint"
	colors "raftlab/viz/palette"
)

// keptFrames paints frames of a onto one screen that keeps what it shows
// between frames, and checks each against the same frame painted whole on
// a cleared image.
type keptFrames struct {
	t      *testing.T
	a      *app.App
	now    time.Duration
	screen *ebiten.Image
	cv     *canvas
}

func newKeptFrames(t *testing.T, a *app.App, w, h int) *keptFrames {
	k := &keptFrames{t: t, a: a, screen: ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})}
	t.Cleanup(k.screen.Deallocate)
	k.cv = &canvas{dst: k.screen, sc: 1, tc: &textCache{}, kept: &keptScreen{}}
	return k
}

// frame advances the app by d and paints one frame both ways.
func (k *keptFrames) frame(what string, d time.Duration, pal *palette) {
	k.t.Helper()
	run(k.a, &k.now, d)
	f := k.a.Frame()
	b := k.screen.Bounds()
	direct := ebiten.NewImageWithOptions(image.Rect(0, 0, b.Dx(), b.Dy()), &ebiten.NewImageOptions{Unmanaged: true})
	defer direct.Deallocate()
	dc := &canvas{dst: direct, sc: 1, tc: k.cv.tc}
	dc.paintFrame(f, pal)
	k.cv.paintFrame(f, pal)
	want, got := make([]byte, 4*b.Dx()*b.Dy()), make([]byte, 4*b.Dx()*b.Dy())
	direct.ReadPixels(want)
	k.screen.ReadPixels(got)
	differ, at := 0, image.Point{}
	for i := range want {
		if d := int(want[i]) - int(got[i]); d != 0 {
			if differ == 0 {
				at = image.Pt(i/4%b.Dx(), i/4/b.Dx())
			}
			differ++
		}
	}
	if differ > 0 {
		k.t.Fatalf("%s: %d pixel values differ from the frame painted whole, the first at %v", what, differ, at)
	}
}

// TestKeptScreenPaintsWhatPaintingWholeDoes: a frame that repaints only
// what changed onto the last frame looks as the same frame painted whole,
// through a run, a write, an overlay over everything, a theme change and
// a resize; and while the run plays, a frame repaints a small part of the
// screen.
func TestKeptScreenPaintsWhatPaintingWholeDoes(t *testing.T) {
	a := newApp(t, scene{w: 1280, h: 800, nodes: 5})
	k := newKeptFrames(t, a, 1280, 800)
	untilLeader(t, a, &k.now)
	light := lightPalette()
	k.frame("first frame", 0, light)
	ks := k.cv.kept
	if ks.whole != 1 || !ks.valid {
		t.Fatalf("the first frame was not painted whole (whole %d, partly %d, valid %v)", ks.whole, ks.partly, ks.valid)
	}
	filled, repaints := ks.filled, ks.repaints
	for range 60 {
		k.frame("the run playing", time.Second/60, light)
	}
	perFrame := (ks.filled - filled) / 60
	t.Logf("a playing run, per frame: %d pixels repainted in %.1f rectangles (painted whole: %d)",
		perFrame, float64(ks.repaints-repaints)/60, filled)
	if ks.partly < 55 {
		t.Errorf("only %d of 60 frames of a playing run were painted in part (%d painted whole)", ks.partly, ks.whole-1)
	}
	// The timers' arcs, the dots, the clock and the timeline's cursor:
	// well under a fifth of the screen.
	if perFrame > 1280*800/5 {
		t.Errorf("a playing run repaints %d pixels a frame, more than a fifth of the screen", perFrame)
	}
	// A write changes the logs and the client panel.
	a.Key("c")
	for range 40 {
		k.frame("after a write", time.Second/60, light)
	}
	// The help covers everything, panels included.
	a.Key("?")
	for range 5 {
		k.frame("help open", time.Second/60, light)
	}
	a.Key("Escape")
	for range 10 {
		k.frame("help closed", time.Second/60, light)
	}
	dark := darkPalette()
	k.frame("dark theme", time.Second/60, dark)
	k.frame("dark theme, next frame", time.Second/60, dark)
	a.Resize(900, 700)
	small := ebiten.NewImageWithOptions(image.Rect(0, 0, 900, 700), &ebiten.NewImageOptions{Unmanaged: true})
	defer small.Deallocate()
	k.screen, k.cv.dst = small, small
	k.frame("after a resize", time.Second/60, dark)
	k.frame("after a resize, next frame", time.Second/60, dark)
}

// TestRecordedKeysSeeEveryArgument: the kept screen repaints an operation
// only when its key changes, so an argument the key left out would leave
// stale pixels wherever only that argument changed. Changing any one
// argument of any drawing call must change the key recorded.
func TestRecordedKeysSeeEveryArgument(t *testing.T) {
	img := ebiten.NewImageWithOptions(image.Rect(0, 0, 400, 300), &ebiten.NewImageOptions{Unmanaged: true})
	defer img.Deallocate()
	c := &canvas{dst: img, sc: 1.5, tc: &textCache{}}
	pt := func(v []float64, i int) viz.Point { return viz.Pt(v[i], v[i+1]) }
	rect := func(v []float64) viz.Rect { return viz.XYWH(v[0], v[1], v[2], v[3]) }
	calls := []struct {
		name string
		args int // how many of v the call takes (its colour comes from v[8:12])
		do   func(s paint.Surface, v []float64, clr colors.RGBA)
	}{
		{"Rect", 4, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Rect(rect(v), clr) }},
		{"RectLine", 5, func(s paint.Surface, v []float64, clr colors.RGBA) { s.RectLine(rect(v), v[4], clr) }},
		{"RoundRect", 5, func(s paint.Surface, v []float64, clr colors.RGBA) { s.RoundRect(rect(v), v[4], clr) }},
		{"RoundRectLine", 6, func(s paint.Surface, v []float64, clr colors.RGBA) { s.RoundRectLine(rect(v), v[4], v[5], clr) }},
		{"Line", 5, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Line(pt(v, 0), pt(v, 2), v[4], clr) }},
		{"Dashed", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
			s.Dashed(pt(v, 0), pt(v, 2), v[4], v[5], v[6], clr)
		}},
		{"DashedLink", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
			s.DashedLink(pt(v, 0), pt(v, 2), v[4], v[5], v[6], clr)
		}},
		{"Disc", 3, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Disc(pt(v, 0), v[2], clr) }},
		{"Ring", 4, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Ring(pt(v, 0), v[2], v[3], clr) }},
		{"ArcFrom", 6, func(s paint.Surface, v []float64, clr colors.RGBA) { s.ArcFrom(pt(v, 0), v[2], v[3], v[4], v[5], clr) }},
		{"Fan", 6, func(s paint.Surface, v []float64, clr colors.RGBA) {
			s.Fan([]viz.Point{pt(v, 0), pt(v, 2), pt(v, 4)}, clr)
		}},
		{"Outline", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
			s.Outline([]viz.Point{pt(v, 0), pt(v, 2), pt(v, 4)}, v[6], clr)
		}},
		{"Dot", 3, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Dot(pt(v, 0), v[2], clr) }},
		{"DotRing", 4, func(s paint.Surface, v []float64, clr colors.RGBA) { s.DotRing(pt(v, 0), v[2], v[3], clr) }},
		{"Text", 6, func(s paint.Surface, v []float64, clr colors.RGBA) {
			words := []string{"term 3", "term 4"}
			s.Text(frame.TextItem{X: v[0], Y: v[1], Size: v[2], Text: words[int(v[3])%2], Bold: v[4] > 1, Center: v[5] > 5.5,
				Tone: frame.Tone(v[6])}, clr)
		}},
	}
	base := []float64{40, 50, 60, 70, 1, 5, 3, 9, 0.2, 0.3, 0.4, 0.9}
	key := func(do func(s paint.Surface, v []float64, clr colors.RGBA), v []float64, smooth, clip bool) opKey {
		var rec recorder
		rec.begin(c)
		var s paint.Surface = &rec
		s.Smooth(smooth)
		if clip {
			s = s.Clip(viz.XYWH(10, 10, 200, 200))
		}
		do(s, v, colors.RGBA{R: float32(v[8]), G: float32(v[9]), B: float32(v[10]), A: float32(v[11])})
		if len(rec.ops) == 0 {
			return opKey{}
		}
		return rec.ops[len(rec.ops)-1].key
	}
	for _, call := range calls {
		was := key(call.do, base, false, false)
		if was.kind == 0 {
			t.Fatalf("%s recorded no drawing", call.name)
		}
		args := append(make([]int, 0, 12), 8, 9, 10, 11)
		for i := range call.args {
			args = append(args, i)
		}
		if call.name == "Text" {
			args = append(args, 6)
		}
		for _, i := range args {
			v := slices.Clone(base)
			v[i] += 1.25
			if i >= 8 {
				v[i] -= 1.2 // a colour stays within 0..1
			}
			if key(call.do, v, false, false) == was {
				t.Errorf("%s: changing argument %d leaves its key as it was", call.name, i)
			}
		}
		if key(call.do, base, true, false) == was {
			t.Errorf("%s: anti-aliasing on leaves its key as it was", call.name)
		}
		if key(call.do, base, false, true) == was {
			t.Errorf("%s: a clip leaves its key as it was", call.name)
		}
	}
}
