//go:build desktop

package draw

import (
	"image"
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"raftlab/viz"
	"raftlab/viz/fonts"
	"raftlab/viz/frame"
)

func TestShelfPlacesWithoutOverlapAndSaysWhenFull(t *testing.T) {
	s := shelf{size: 64}
	var placed []image.Rectangle
	for i := 0; ; i++ {
		w, h := 5+i%7, 3+i%5
		x, y, ok := s.place(w, h)
		if !ok {
			break
		}
		r := image.Rect(x, y, x+w, y+h)
		if !r.In(image.Rect(0, 0, 64, 64)) {
			t.Fatalf("rectangle %d at %v is outside the image", i, r)
		}
		for _, q := range placed {
			// A pixel apart: grown by one, they still do not overlap.
			if r.Inset(-1).Overlaps(q) {
				t.Fatalf("rectangle %d at %v touches %v", i, r, q)
			}
		}
		placed = append(placed, r)
	}
	if len(placed) < 30 {
		t.Errorf("only %d small rectangles fit in 64×64", len(placed))
	}
	s.reset(0)
	if x, y, ok := s.place(10, 10); !ok || x != 0 || y != 0 {
		t.Errorf("after a reset the first rectangle goes to %d,%d (ok %v), want 0,0", x, y, ok)
	}
}

// paintText draws a few labels with tc onto a new image and returns its
// pixels.
func paintText(t *testing.T, tc *textCache) *image.RGBA {
	t.Helper()
	img := ebiten.NewImage(240, 60)
	defer img.Deallocate()
	img.Fill(hex(0xffffff).rgba())
	c := &canvas{dst: img, sc: 1, tc: tc}
	c.text(frame.TextItem{Text: "Leader · term 3", X: 4, Y: 4, Size: 13}, hex(0x1d2330))
	c.text(frame.TextItem{Text: "votes", X: 120, Y: 40, Size: 11, Bold: true, Center: true}, hex(0x0072b2))
	c.flush()
	out := image.NewRGBA(image.Rect(0, 0, 240, 60))
	img.ReadPixels(out.Pix)
	return out
}

func TestTextIsTheSameAfterTheAtlasStartsOver(t *testing.T) {
	tc := &textCache{}
	first := paintText(t, tc)
	if colours(first, viz.XYWH(0, 0, 240, 60)) < 3 {
		t.Fatal("no text drawn")
	}
	// Fill the atlas and take out the last glyph of the first label: the
	// label's first glyphs are queued from the full atlas before that one
	// starts it over, and must still come out right.
	// The first time it grows to atlasMaxSize, after that it starts over
	// at that size.
	l := tc.layouts[textKey{"Leader · term 3", 13, false}]
	if l == nil {
		t.Fatal("the label was not laid out at size 13")
	}
	for i, side := range []int{atlasMaxSize, atlasMaxSize} {
		tc.pack.y = tc.pack.size
		delete(tc.slots, l.glyphs[len(l.glyphs)-1].key)
		again := paintText(t, tc)
		if tc.resets != i+1 {
			t.Fatalf("the atlas started over %d times, want %d", tc.resets, i+1)
		}
		if got := tc.atlas.Bounds().Dx(); got != side || tc.pack.size != side {
			t.Fatalf("after %d fills the atlas is %d pixels wide (its plan %d), want %d", i+1, got, tc.pack.size, side)
		}
		for j := range first.Pix {
			if first.Pix[j] != again.Pix[j] {
				t.Fatalf("byte %d differs after the atlas started over: %d, then %d", j, first.Pix[j], again.Pix[j])
			}
		}
	}
}

// coverage sums how far each pixel of r moved from white towards ink, in
// pixels' worth.
func coverage(img *image.RGBA, r image.Rectangle) float64 {
	sum := 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			sum += float64(255-img.RGBAAt(x, y).R) / 255
		}
	}
	return sum
}

func TestSpriteDotsLookLikeDiscsAndCostFourVertices(t *testing.T) {
	img := ebiten.NewImage(200, 100)
	defer img.Deallocate()
	img.Fill(hex(0xffffff).rgba())
	c := &canvas{dst: img, sc: 1}
	c.aa = true
	ink := hex(0x000000)
	// On half pixels, where a sprite lands exactly.
	c.disc(viz.Pt(30.5, 50), 6, ink)
	c.ring(viz.Pt(80.5, 50), 5.2, 2, ink)
	before := len(c.vs)
	c.sprite(spriteDisc, viz.Pt(130.5, 50), 6, 0, ink)
	c.sprite(spriteRing, viz.Pt(180.5, 50), 5.2, 2, ink)
	if n := len(c.vs) - before; n != 8 {
		t.Errorf("two sprites took %d vertices, want 8", n)
	}
	c.flush()
	out := image.NewRGBA(image.Rect(0, 0, 200, 100))
	img.ReadPixels(out.Pix)
	for _, k := range []struct {
		name      string
		shape, sp int
		want      float64
	}{{"disc", 30, 130, math.Pi * 36}, {"ring", 80, 180, 2 * math.Pi * 5.2 * 2}} {
		box := func(x int) image.Rectangle { return image.Rect(x-10, 40, x+11, 61) }
		a, b := coverage(out, box(k.shape)), coverage(out, box(k.sp))
		if math.Abs(a-k.want) > 0.1*k.want || math.Abs(b-a) > 0.04*a {
			t.Errorf("%s: drawn as shapes it covers %.1f pixels, as a sprite %.1f; want both about %.1f", k.name, a, b, k.want)
		}
	}
	// Plain shapes after the sprites still sample white.
	c.rect(viz.XYWH(0, 0, 10, 10), ink)
	c.flush()
	img.ReadPixels(out.Pix)
	if p := out.RGBAAt(5, 5); p.R > 2 {
		t.Errorf("a black square drawn after sprites is %v inside", p)
	}
}

func TestMeasureIsTheWholeLine(t *testing.T) {
	lines := []string{
		"t = 8.416 s · leader B, term 1",
		"Follower · term 12",
		"voted B · leader B",
		"#46 write deployments/web = replicas=46 at B: waiting (67 ms)",
		"2000–3000 ms, 20% loss",
		"← 36 earlier", "12 newer →", "  two  spaces ", "AV To Wa ry.", "✓ done", "",
	}
	for _, size := range []float64{9, 11, 13, 14, 26} {
		for _, s := range lines {
			whole := text.Advance(s, face(size))
			if got := Measure(s, size); math.Abs(got-whole) > 1e-9 {
				t.Errorf("Measure(%q, %v) = %v, but the whole line is %v wide", s, size, got, whole)
			}
		}
	}
}

// TestGlyphsMatchTheTextPackage: the app lays its labels out and fills
// its glyphs itself (package fonts) where it once drew them with Ebiten's
// text package; every label of the figures' posters, lines with digits
// next to every printable character, and the symbols the app writes, at
// every size the app uses and at the sizes of screens with two and three
// device pixels to a pixel, come out as that package gives them: the same
// width and line height, the same glyphs at the same pixels, and each
// glyph's image the same size and, pixel for pixel, the same picture.
func TestGlyphsMatchTheTextPackage(t *testing.T) {
	labels := []string{
		"t = 8.416 s · leader B, term 1", "8.450 s", "(233 ms)", "#46 write deployments/web = replicas=46 at B: waiting (67 ms)",
		"2000–3000 ms, 20% loss", "← 36 earlier", "12 newer →", "✓ 1 of 3", "×10", "1/100×", "term 12 · 3 votes", "9", "0",
		"AV To Yo, LT'V P. W,A Tea fi fl ffi", "  two  spaces ",
	}
	for r := rune(32); r < 127; r++ {
		labels = append(labels, string(r)+"1234567890"+string(r)+"98.7"+string(r))
	}
	for _, r := range "→←·–—×✓✗…≥≤½" {
		labels = append(labels, string(r)+"5"+string(r)+"67")
	}
	var posters []frame.TextItem
	readTestdata(t, "poster-texts.json.gz", &posters)
	for _, p := range posters {
		labels = append(labels, p.Text)
	}
	glyphs, compared := matchTextPackage(t, labels, []float64{9, 10.5, 11, 12, 13, 14, 16.25, 18, 22, 26, 33, 39, 52.5})
	if glyphs < 20000 || compared < 2000 {
		t.Errorf("only %d glyphs placed and %d images compared", glyphs, compared)
	}
	t.Logf("%d glyphs placed, %d images compared", glyphs, compared)
}

// TestCharactersBeyondALookupMatchTheTextPackage: text that comes from the
// reader (a deployment's name, a key in an imported schedule) may hold
// characters the shaper does more with than look their glyph up: a letter
// and a combining accent, invisible characters, spaces the font lacks.
// They come out as the text package gives them too, but for the controls
// of bidirectional text.
func TestCharactersBeyondALookupMatchTheTextPackage(t *testing.T) {
	var labels []string
	for _, base := range "AEIOUYCNaeiouycnBxZ0 " {
		for mark := rune(0x300); mark < 0x370; mark++ {
			labels = append(labels, "V"+string(base)+string(mark)+"a", string(base)+string(mark)+string(mark))
		}
	}
	// Not the controls of bidirectional text (U+061C, U+200E, U+200F,
	// U+202A-U+202E, U+2066-U+2069): the text package splits a line
	// into runs by direction and reverses the right-to-left ones, where
	// the app lays every label out left to right as written.
	for _, c := range []rune{0xAD, 0x34F, 0x200B, 0x200C, 0x200D, 0x2060, 0x2064, 0x206F, 0xFE0F, 0xFEFF, 0xE0001,
		0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x202F, 0x205F, 0x3000, 0xA0, 0x1680} {
		x := string(c)
		labels = append(labels, "A"+x+"V", "f"+x+"i", x+"To"+x, "W"+x+x+"A", "e"+x+"\u0301")
	}
	glyphs, _ := matchTextPackage(t, labels, []float64{9.5, 26})
	if glyphs < 10000 {
		t.Errorf("only %d glyphs placed", glyphs)
	}
}

// matchTextPackage compares each label laid out by package fonts with the
// text package's layout of it at each size: width, line height, every
// glyph's place and image size, and each distinct image pixel for pixel.
// It returns how many glyphs it placed and how many images it compared.
func matchTextPackage(t *testing.T, labels []string, sizes []float64) (glyphs, compared int) {
	t.Helper()
	var pixels []byte
	seen := map[fonts.GlyphKey]bool{}
	for _, size := range sizes {
		f := face(size)
		m := f.Metrics()
		if got, want := fonts.LineHeight(size), m.HAscent+m.HDescent; got != want {
			t.Errorf("size %v: line height %v, the text package's %v", size, got, want)
		}
		for _, s := range labels {
			got, w := fonts.Glyphs(nil, s, size)
			if want := text.Advance(s, f); w != want {
				t.Errorf("size %v %q: width %v, the text package's %v", size, s, w, want)
			}
			var want []text.Glyph
			for _, g := range text.AppendGlyphs(nil, s, f, nil) {
				if g.Image != nil {
					want = append(want, g)
				}
			}
			if len(got) != len(want) {
				t.Errorf("size %v %q: %d glyphs, the text package's %d", size, s, len(got), len(want))
				continue
			}
			for i, g := range want {
				glyphs++
				b := g.Image.Bounds()
				if got[i].X != int(g.X) || got[i].Y != int(g.Y) || got[i].W != b.Dx() || got[i].H != b.Dy() {
					t.Errorf("size %v %q glyph %d: at %d,%d %dx%d; the text package's at %v,%v %dx%d",
						size, s, i, got[i].X, got[i].Y, got[i].W, got[i].H, g.X, g.Y, b.Dx(), b.Dy())
					break
				}
				if seen[got[i].Key] {
					continue
				}
				seen[got[i].Key] = true
				compared++
				w, h, mine := fonts.Rasterize(nil, got[i].Key)
				pixels = append(pixels[:0], make([]byte, 4*w*h)...)
				g.Image.ReadPixels(pixels)
				if len(mine) != len(pixels) {
					t.Errorf("size %v %q glyph %d (%+v): %d bytes of pixels, the text package's %d", size, s, i, got[i].Key, len(mine), len(pixels))
					continue
				}
				for p := range w * h {
					if q, m := pixels[4*p:4*p+4], mine[4*p:4*p+4]; string(q) != string(m) || m[0] != m[3] {
						t.Errorf("size %v %q glyph %d (%+v): pixel %d,%d is %v, the text package's %v", size, s, i, got[i].Key, p%w, p/w, m, q)
						break
					}
				}
			}
		}
	}
	return glyphs, compared
}
