package draw

import (
	"bytes"
	"math"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/examples/resources/fonts"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

var (
	fontOnce sync.Once
	fontSrc  *text.GoTextFaceSource
	fontErr  error
	faceMu   sync.Mutex
	faces    = map[float64]*text.GoTextFace{}
)

func source() *text.GoTextFaceSource {
	fontOnce.Do(func() {
		fontSrc, fontErr = text.NewGoTextFaceSource(bytes.NewReader(fonts.MPlus1pRegular_ttf))
	})
	if fontErr != nil {
		// The font is compiled in; failing to parse it is a broken build.
		panic("draw: the built-in font does not load: " + fontErr.Error())
	}
	return fontSrc
}

// face returns the face of the given pixel size, cached: sizes are rounded
// to a quarter pixel so that the cache stays small.
func face(size float64) *text.GoTextFace {
	size = math.Round(size*4) / 4
	faceMu.Lock()
	defer faceMu.Unlock()
	f, ok := faces[size]
	if !ok {
		f = &text.GoTextFace{Source: source(), Size: size}
		faces[size] = f
	}
	return f
}

// Measure returns the width of s in logical pixels at font size size. The
// app lays out text with it.
func Measure(s string, size float64) float64 {
	return text.Advance(s, face(size))
}

// textCache keeps each label drawn once into its own small image, so a
// frame draws one image per label instead of one per glyph: in the
// browser, per-draw costs dominate a frame full of text. Labels unused for
// a while are dropped.
type textCache struct {
	m     map[textKey]*textEntry
	frame int
}

type textKey struct {
	s    string
	size float64
	bold bool
}

type textEntry struct {
	img  *ebiten.Image
	w, h float64 // the line box, in device pixels
	used int
}

// textPad is the margin around a label's line box in its image, for
// glyphs that reach past their advance.
const textPad = 2

func (c *textCache) get(s string, size float64, bold bool) *textEntry {
	if c.m == nil {
		c.m = map[textKey]*textEntry{}
	}
	k := textKey{s, size, bold}
	e, ok := c.m[k]
	if !ok {
		f := face(size)
		m := f.Metrics()
		w := text.Advance(s, f)
		h := m.HAscent + m.HDescent
		extra := 0.0
		if bold {
			extra = 1
		}
		img := ebiten.NewImage(int(math.Ceil(w+extra))+2*textPad, int(math.Ceil(h))+2*textPad)
		op := &text.DrawOptions{}
		op.GeoM.Translate(textPad, textPad)
		text.Draw(img, s, f, op)
		if bold {
			op.GeoM.Translate(0.6*size/13, 0)
			text.Draw(img, s, f, op)
		}
		e = &textEntry{img: img, w: w, h: h}
		c.m[k] = e
	}
	e.used = c.frame
	return e
}

// endFrame drops labels not drawn in the last few seconds of frames.
func (c *textCache) endFrame() {
	c.frame++
	if c.frame%60 != 0 {
		return
	}
	for k, e := range c.m {
		if c.frame-e.used > 180 {
			e.img.Deallocate()
			delete(c.m, k)
		}
	}
}

// drawText draws s with its line box's top-left at x, y (or centred on
// x, y), in logical pixels scaled by sc.
func (c *textCache) drawText(dst *ebiten.Image, s string, x, y, size float64, clr colorF, center, bold bool, sc float64) {
	if s == "" {
		return
	}
	e := c.get(s, math.Round(size*sc*4)/4, bold)
	px, py := x*sc, y*sc
	if center {
		px, py = px-e.w/2, py-e.h/2
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(math.Round(px)-textPad, math.Round(py)-textPad)
	op.ColorScale = clr.scale()
	dst.DrawImage(e.img, op)
}
