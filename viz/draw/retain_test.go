//go:build desktop

package draw

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/paint"
	colors "raftlab/viz/palette"
)

// keptFrames paints frames onto one screen that keeps what it shows
// between frames, as the game does, and checks each against the same
// frame painted whole onto a cleared image by a canvas that keeps
// nothing: pixel for pixel, byte for byte.
type keptFrames struct {
	t         testing.TB
	sc        float64
	screen    *ebiten.Image
	kept      *canvas
	whole     *canvas
	wholeDst  *ebiten.Image
	want, got []byte
	// The themes' palettes, made once as the game makes them: the kept
	// screen takes another palette for another theme.
	light, dark *palette
}

// newKeptFrames paints at sc device pixels per logical pixel. Each canvas
// has its own text atlas, so that what they paint cannot hang on where a
// glyph sits in it. They share one sprite sheet: a dot's edge pixels
// depend by a level on where its sprite sits in the sheet, and the game
// repaints with the sheet it painted with (the kept screen paints whole
// when the sheet starts over).
func newKeptFrames(t testing.TB, sc float64) *keptFrames {
	sheet := &spriteSheet{}
	return &keptFrames{t: t, sc: sc, kept: &canvas{sc: sc, tc: &textCache{}, kept: &keptScreen{}, sheet: sheet},
		whole: &canvas{sc: sc, tc: &textCache{}, sheet: sheet}, light: lightPalette(), dark: darkPalette()}
}

// screenImage is an image to paint a frame on. Like the screen Ebiten
// hands the game, it is kept off Ebiten's shared atlas: an image on the
// atlas is drawn at an offset, and its anti-aliased edges may come out a
// level apart from the same shapes drawn on an image of its own.
func screenImage(w, h int) *ebiten.Image {
	return ebiten.NewImageWithOptions(image.Rect(0, 0, w, h), &ebiten.NewImageOptions{Unmanaged: true})
}

// resize gives both canvases images of the frame's size in device pixels
// when they have none or another: the kept screen then changes, as it
// does when a window is resized.
func (k *keptFrames) resize(f *frame.Frame) {
	w, h := int(math.Ceil(f.W*k.sc)), int(math.Ceil(f.H*k.sc))
	if k.screen != nil && k.screen.Bounds().Size() == image.Pt(w, h) {
		return
	}
	if k.screen != nil {
		k.screen.Deallocate()
		k.wholeDst.Deallocate()
	}
	k.screen, k.wholeDst = screenImage(w, h), screenImage(w, h)
	k.kept.dst, k.whole.dst = k.screen, k.wholeDst
	k.want, k.got = make([]byte, 4*w*h), make([]byte, 4*w*h)
}

// close gives back the images: the screens, the sprite sheet, and each
// canvas's text atlas and dash patterns (a fuzzer makes thousands).
func (k *keptFrames) close() {
	if k.screen != nil {
		k.screen.Deallocate()
		k.wholeDst.Deallocate()
	}
	if k.kept.sheet.img != nil {
		k.kept.sheet.img.Deallocate()
	}
	for _, c := range []*canvas{k.kept, k.whole} {
		if c.tc.atlas != nil {
			c.tc.atlas.Deallocate()
		}
		for _, d := range c.dashes {
			d.img.Deallocate()
		}
	}
}

// paint paints f both ways and fails the test where they differ.
func (k *keptFrames) paint(what string, f *frame.Frame) {
	k.t.Helper()
	k.resize(f)
	pal := k.light
	if f.Theme == frame.ThemeDark {
		pal = k.dark
	}
	k.whole.sc, k.kept.sc = k.sc, k.sc
	// The kept screen first: a sprite it is the first to need is placed
	// in the sheet while it paints.
	k.kept.paintFrame(f, pal)
	k.whole.paintFrame(f, pal)
	k.wholeDst.ReadPixels(k.want)
	k.screen.ReadPixels(k.got)
	if i := firstDifference(k.want, k.got); i >= 0 {
		w := k.screen.Bounds().Dx()
		k.t.Fatalf("%s: the kept screen differs from the frame painted whole at %v (byte %d: %d, whole %d); "+
			"painted whole %d times and in part %d", what, image.Pt(i/4%w, i/4/w), i%4, k.got[i], k.want[i],
			k.kept.kept.whole, k.kept.kept.partly)
	}
}

// firstDifference is the index of the first byte where a and b differ, or -1.
func firstDifference(a, b []byte) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestKeptScreenPaintsWhatPaintingWholeDoes: a frame that repaints only
// what changed onto the last frame looks as the same frame painted whole,
// through a run, a write, an overlay over everything, a theme change and
// a resize (every frame the app built at 60 frames a second); and while
// the run plays, a frame repaints a small part of the screen.
func TestKeptScreenPaintsWhatPaintingWholeDoes(t *testing.T) {
	frames := loadFrames(t, "run.json.gz")
	k := newKeptFrames(t, 1)
	defer k.close()
	ks := k.kept.kept
	var filled, repaints, playing, partly int
	for i, s := range frames {
		filled0, repaints0, partly0 := ks.filled, ks.repaints, ks.partly
		k.paint(fmt.Sprintf("frame %d (%s)", i, s.Name), s.Frame)
		if i == 0 && (ks.whole != 1 || !ks.valid) {
			t.Fatalf("the first frame was not painted whole (whole %d, partly %d, valid %v)", ks.whole, ks.partly, ks.valid)
		}
		if s.Name == "the run playing" {
			playing++
			filled += ks.filled - filled0
			repaints += ks.repaints - repaints0
			partly += ks.partly - partly0
		}
	}
	if playing < 60 {
		t.Fatalf("only %d frames of the run playing are stored", playing)
	}
	perFrame := filled / playing
	t.Logf("a playing run, per frame: %d pixels repainted in %.1f rectangles (painted whole: %d); "+
		"of all %d frames, %d painted whole", perFrame, float64(repaints)/float64(playing), 1280*800, len(frames), ks.whole)
	if partly < playing-5 {
		t.Errorf("only %d of %d frames of a playing run were painted in part", partly, playing)
	}
	// The timers' arcs, the dots, the clock and the timeline's cursor:
	// well under a fifth of the screen.
	if perFrame > 1280*800/5 {
		t.Errorf("a playing run repaints %d pixels a frame, more than a fifth of the screen", perFrame)
	}
}

// TestKeptScreenPaintsWholeWhenTheSpriteSheetStartsOver: a dot is
// sampled from its sprite's place in the sheet, so when the sheet fills
// and starts over while a frame is repainted in part, the dots repainted
// from the moved sprites would be a level apart from the rest of the
// screen: that frame, and one after the sheet started over elsewhere,
// are painted whole.
func TestKeptScreenPaintsWholeWhenTheSpriteSheetStartsOver(t *testing.T) {
	frames := loadFrames(t, "run.json.gz")
	k := newKeptFrames(t, 1)
	defer k.close()
	ks, sheet := k.kept.kept, k.kept.sheet
	for i := 0; i < 12; i++ {
		k.paint(fmt.Sprintf("frame %d", i), frames[i].Frame)
	}
	f := *frames[12].Frame
	if len(f.Messages) == 0 {
		t.Fatal("no message on the wire in frame 12")
	}
	// A dot of a new size needs a new sprite, and the sheet is full.
	f.Messages = slices.Clone(f.Messages)
	f.Messages[0].R += 0.37
	sheet.pack.y = sheetSize
	whole, resets := ks.whole, sheet.resets
	k.paint("a new sprite in a full sheet", &f)
	if sheet.resets != resets+1 || ks.whole != whole+1 {
		t.Errorf("the sheet started over %d times and the frame was painted whole %d times, want once each",
			sheet.resets-resets, ks.whole-whole)
	}
	k.paint("the frame after", frames[13].Frame)
	if ks.whole != whole+1 {
		t.Error("the frame after the sheet started over was painted whole too, as if it had started over again")
	}
}

// surfaceCall is a drawing call of paint.Surface with its arguments taken
// from v: the first args of v, and its colour from v[8:12].
type surfaceCall struct {
	name string
	args int
	do   func(s paint.Surface, v []float64, clr colors.RGBA)
}

func surfacePt(v []float64, i int) viz.Point { return viz.Pt(v[i], v[i+1]) }
func surfaceRect(v []float64) viz.Rect       { return viz.XYWH(v[0], v[1], v[2], v[3]) }

// surfaceCalls are all of paint.Surface's drawing calls.
var surfaceCalls = []surfaceCall{
	{"Rect", 4, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Rect(surfaceRect(v), clr) }},
	{"RectLine", 5, func(s paint.Surface, v []float64, clr colors.RGBA) { s.RectLine(surfaceRect(v), v[4], clr) }},
	{"RoundRect", 5, func(s paint.Surface, v []float64, clr colors.RGBA) { s.RoundRect(surfaceRect(v), v[4], clr) }},
	{"RoundRectLine", 6, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.RoundRectLine(surfaceRect(v), v[4], v[5], clr)
	}},
	{"Line", 5, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.Line(surfacePt(v, 0), surfacePt(v, 2), v[4], clr)
	}},
	{"Dashed", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.Dashed(surfacePt(v, 0), surfacePt(v, 2), v[4], v[5], v[6], clr)
	}},
	{"DashedLink", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.DashedLink(surfacePt(v, 0), surfacePt(v, 2), v[4], v[5], v[6], clr)
	}},
	{"Disc", 3, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Disc(surfacePt(v, 0), v[2], clr) }},
	{"Ring", 4, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Ring(surfacePt(v, 0), v[2], v[3], clr) }},
	{"ArcFrom", 6, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.ArcFrom(surfacePt(v, 0), v[2], v[3], v[4], v[5], clr)
	}},
	{"Fan", 6, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.Fan([]viz.Point{surfacePt(v, 0), surfacePt(v, 2), surfacePt(v, 4)}, clr)
	}},
	{"Outline", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
		s.Outline([]viz.Point{surfacePt(v, 0), surfacePt(v, 2), surfacePt(v, 4)}, v[6], clr)
	}},
	{"Dot", 3, func(s paint.Surface, v []float64, clr colors.RGBA) { s.Dot(surfacePt(v, 0), v[2], clr) }},
	{"DotRing", 4, func(s paint.Surface, v []float64, clr colors.RGBA) { s.DotRing(surfacePt(v, 0), v[2], v[3], clr) }},
	// Text's seventh argument is its tone (v[6]).
	{"Text", 7, func(s paint.Surface, v []float64, clr colors.RGBA) {
		words := []string{"term 3", "term 4"}
		s.Text(frame.TextItem{X: v[0], Y: v[1], Size: v[2], Text: words[int(v[3])%2], Bold: v[4] > 1, Center: v[5] > 5.5,
			Tone: frame.Tone(v[6])}, clr)
	}},
}

// TestRecordedKeysSeeEveryArgument: the kept screen repaints an operation
// only when its key changes, and the executor draws an operation from its
// key alone, so an argument the key left out would leave stale pixels
// wherever only that argument changed. Changing any one argument of any
// drawing call, its colour, the anti-aliasing or the clip must change the
// key recorded; and every operation recorded must be placed in the order
// the executor draws, within its clip.
func TestRecordedKeysSeeEveryArgument(t *testing.T) {
	img := screenImage(400, 300)
	defer img.Deallocate()
	c := &canvas{dst: img, sc: 1.5, tc: &textCache{}}
	base := []float64{40, 50, 60, 70, 1, 5, 3, 9, 0.2, 0.3, 0.4, 0.9}
	key := func(call surfaceCall, v []float64, smooth, clip bool) opKey {
		var rec recorder
		rec.begin(c)
		var s paint.Surface = &rec
		s.Smooth(smooth)
		if clip {
			s = s.Clip(viz.XYWH(10, 10, 200, 200))
		}
		call.do(s, v, colors.RGBA{R: float32(v[8]), G: float32(v[9]), B: float32(v[10]), A: float32(v[11])})
		if clip {
			rec.Unclip(s)
		}
		rec.end()
		if len(rec.ops) == 0 {
			t.Fatalf("%s recorded no drawing", call.name)
		}
		placed := slices.Sorted(slices.Values(rec.order))
		for i, o := range rec.ops {
			if o.pos < 0 || int(o.pos) >= len(rec.order) || rec.order[o.pos] != int32(i) || placed[i] != int32(i) {
				t.Fatalf("%s: operation %d of %d is not placed once in the drawing order (%v)", call.name, i, len(rec.ops), rec.order)
			}
			if o.key.clipped && !o.bounds.In(o.key.clip) {
				t.Errorf("%s: bounds %v reach beyond the clip %v", call.name, o.bounds, o.key.clip)
			}
		}
		return rec.ops[len(rec.ops)-1].key
	}
	for _, call := range surfaceCalls {
		was := key(call, base, false, false)
		args := append(make([]int, 0, 12), 8, 9, 10, 11)
		for i := range call.args {
			args = append(args, i)
		}
		for _, i := range args {
			v := slices.Clone(base)
			v[i] += 1.25
			if i >= 8 {
				v[i] -= 1.2 // a colour stays within 0..1
			}
			if key(call, v, false, false) == was {
				t.Errorf("%s: changing argument %d leaves its key as it was", call.name, i)
			}
		}
		if key(call, base, true, false) == was {
			t.Errorf("%s: anti-aliasing on leaves its key as it was", call.name)
		}
		if key(call, base, false, true) == was {
			t.Errorf("%s: a clip leaves its key as it was", call.name)
		}
	}
}
