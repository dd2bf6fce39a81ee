//go:build desktop

package draw

import (
	"image"
	"reflect"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/app"
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
	k := &keptFrames{t: t, a: a, screen: ebiten.NewImage(w, h)}
	t.Cleanup(k.screen.Deallocate)
	k.cv = &canvas{dst: k.screen, sc: 1, tc: &textCache{}, layer: &panelLayer{}, kept: &keptScreen{}}
	return k
}

// frame advances the app by d and paints one frame both ways.
func (k *keptFrames) frame(what string, d time.Duration, pal *palette) {
	k.t.Helper()
	run(k.a, &k.now, d)
	f := k.a.Frame()
	b := k.screen.Bounds()
	direct := ebiten.NewImage(b.Dx(), b.Dy())
	defer direct.Deallocate()
	dc := &canvas{dst: direct, sc: 1, tc: k.cv.tc}
	dc.paintFrame(f, pal)
	k.cv.paintFrame(f, pal)
	want, got := make([]byte, 4*b.Dx()*b.Dy()), make([]byte, 4*b.Dx()*b.Dy())
	direct.ReadPixels(want)
	k.screen.ReadPixels(got)
	differ, at := 0, image.Point{}
	for i := range want {
		if d := int(want[i]) - int(got[i]); d > 2 || d < -2 {
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

// TestKeptScreenPaintsWhatPaintingWholeDoes: a frame that paints only
// what changed onto the last frame looks as the same frame painted whole,
// through a run, a write, an overlay over everything, a theme change and
// a resize; and while the run plays with nothing else changing, frames
// keep the panels and logs instead of painting them whole.
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
	filled, copied := ks.filled, ks.copied
	for range 60 {
		k.frame("the run playing", time.Second/60, light)
	}
	t.Logf("a playing run, per frame: %d pixels filled with the background, %d copied from the panels' layer (painted whole: %d and %d)",
		(ks.filled-filled)/60, (ks.copied-copied)/60, filled, copied)
	if ks.partly < 55 {
		t.Errorf("only %d of 60 frames of a playing run kept parts of the screen (%d painted whole)", ks.partly, ks.whole-1)
	}
	if !overlapsAny(ks.panels, []image.Rectangle{image.Rect(1000, 100, 1001, 101)}) {
		t.Errorf("the panels' boxes %v do not cover the right-hand column", ks.panels)
	}
	// A write changes the logs and the client panel.
	a.Key("c")
	for range 40 {
		k.frame("after a write", time.Second/60, light)
	}
	// The help covers everything, panels included: frames clash with the
	// panels kept and are painted whole, and again once it closes.
	whole := ks.whole
	a.Key("?")
	for range 5 {
		k.frame("help open", time.Second/60, light)
	}
	if ks.whole == whole {
		t.Error("with the help over the panels no frame was painted whole")
	}
	a.Key("Escape")
	for range calmFrames + 10 {
		k.frame("help closed", time.Second/60, light)
	}
	dark := darkPalette()
	k.frame("dark theme", time.Second/60, dark)
	k.frame("dark theme, next frame", time.Second/60, dark)
	a.Resize(900, 700)
	small := ebiten.NewImage(900, 700)
	defer small.Deallocate()
	k.screen, k.cv.dst = small, small
	k.frame("after a resize", time.Second/60, dark)
	k.frame("after a resize, next frame", time.Second/60, dark)
}

// TestWithoutInnerKeepsTheSamePixels: the rectangles left cover what all
// of them did, each once where one held another.
func TestWithoutInnerKeepsTheSamePixels(t *testing.T) {
	rs := []image.Rectangle{
		image.Rect(180, 84, 712, 595), image.Rect(249, 144, 643, 520), image.Rect(184, 115, 708, 592),
		image.Rect(8, 2, 1264, 50), image.Rect(407, 13, 1060, 39), image.Rect(8, 2, 1264, 50),
		image.Rect(600, 40, 700, 60), image.Rect(3, 3, 3, 9),
	}
	got := withoutInner(nil, rs)
	want := []image.Rectangle{image.Rect(180, 84, 712, 595), image.Rect(8, 2, 1264, 50), image.Rect(600, 40, 700, 60)}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// TestSameLogsSeesEveryField: the logs are kept on the screen while
// sameLogs says they show the same, so a field it does not compare (one
// added to app.LogsView or app.LogRow later) would leave stale logs on
// screen. Changing any one field, of the view or of a row, must make it
// say they differ.
func TestSameLogsSeesEveryField(t *testing.T) {
	base := app.LogsView{Rows: []app.LogRow{{Cells: []app.LogCell{{}}}}}
	check := func(where string, set func(*app.LogsView) reflect.Value) {
		t.Helper()
		var lv app.LogsView
		n := set(&lv).NumField()
		for i := range n {
			changed := cloneLogs(&base, &app.LogsView{})
			field := set(&changed).Field(i)
			if !differ(field) {
				t.Fatalf("%s field %s: no way to change it in this test", where, set(&changed).Type().Field(i).Name)
			}
			if sameLogs(&base, &changed) {
				t.Errorf("sameLogs misses a change to %s.%s", where, set(&changed).Type().Field(i).Name)
			}
		}
	}
	check("LogsView", func(lv *app.LogsView) reflect.Value { return reflect.ValueOf(lv).Elem() })
	check("LogRow", func(lv *app.LogsView) reflect.Value {
		if len(lv.Rows) == 0 {
			lv.Rows = []app.LogRow{{}}
		}
		return reflect.ValueOf(&lv.Rows[0]).Elem()
	})
}

// differ changes v in place to a value unequal to what it was, and says
// whether it could.
func differ(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.String:
		v.SetString(v.String() + "x")
	case reflect.Slice:
		v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() && differ(v.Field(i)) {
				return true
			}
		}
		return false
	default:
		return false
	}
	return true
}
