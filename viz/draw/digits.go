package draw

import (
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
)

// Labels that change every frame are mostly numbers: the clock, a
// latency, a count. Shaping a whole line anew for each of them was the
// largest cost of painting a busy frame in the browser. The font's
// figures make a shortcut exact: every ASCII digit has the same advance,
// and how a digit kerns with its neighbours does not depend on which digit
// it is (TestDigitTemplatesMatchShaping holds the font to both). So a
// label is laid out as its template, the same label with every digit
// written as 0, which stays the same while the numbers change; each digit
// of the label then takes the template's place for it, with the image of
// that digit rendered at the same sub-pixel offset. The glyph images come
// from the text package itself, from one line of sixteen copies of each
// digit, which puts a digit at every sub-pixel offset the package draws.

// zeroDigits writes s into buf with every ASCII digit replaced by '0' and
// says whether s had any digit.
func zeroDigits(buf []byte, s string) ([]byte, bool) {
	buf = append(buf[:0], s...)
	any := false
	for i, b := range buf {
		if b >= '1' && b <= '9' {
			buf[i] = '0'
			any = true
		} else if b == '0' {
			any = true
		}
	}
	return buf, any
}

// subpixelSteps is how many horizontal sub-pixel offsets the text package
// renders a glyph at, for a face: fewer as the font grows (the rule of
// Ebiten's text/v2, which the test compares against real shaping).
func subpixelSteps(f *text.GoTextFace) int32 {
	m := metrics(f)
	switch s := m.HAscent + m.HDescent; {
	case s < 20:
		return 8
	case s < 40:
		return 4
	case s < 80:
		return 2
	}
	return 1
}

// pen is where a glyph's image goes for a glyph laid out at g: the whole
// pixel its origin falls on after rounding to the face's sub-pixel steps,
// and which of those steps it is.
func pen(g text.Glyph, steps int32) (x, y, step int32) {
	ox := int32(math.Round((g.OriginX + g.OriginOffsetX) * 64))
	factor := 64 / steps
	ox = ox / factor * factor
	oy := int32(math.Round((g.OriginY+g.OriginOffsetY)*64)) &^ 63
	return ox >> 6, oy >> 6, ox & 63
}

type digitKey struct {
	size  float64
	digit byte
	step  int32
}

// digitGlyph is a digit's image at one sub-pixel step and where it goes
// relative to the pixel its origin falls on.
type digitGlyph struct {
	img        *ebiten.Image
	relX, relY int32
}

// digitGlyph returns digit d (0-9) at the given sub-pixel step of face f,
// rendering the sixteen-copy line the first time a digit is asked for at
// a size.
func (c *textCache) digitGlyph(f *text.GoTextFace, d byte, step int32) (digitGlyph, bool) {
	k := digitKey{f.Size, d, step}
	if g, ok := c.digits[k]; ok {
		return g, true
	}
	// Each digit's line is rendered once per size; a step it did not
	// reach is not to be had.
	line := digitKey{size: f.Size, digit: d}
	if c.digitLines[line] {
		return digitGlyph{}, false
	}
	if c.digits == nil {
		c.digits, c.digitLines = map[digitKey]digitGlyph{}, map[digitKey]bool{}
	}
	c.digitLines[line] = true
	steps := subpixelSteps(f)
	c.scratch = text.AppendGlyphs(c.scratch[:0], strings.Repeat(string('0'+rune(d)), 16), f, nil)
	for _, g := range c.scratch {
		x, y, s := pen(g, steps)
		c.digits[digitKey{f.Size, d, s}] = digitGlyph{img: g.Image, relX: int32(g.X) - x, relY: int32(g.Y) - y}
	}
	g, ok := c.digits[k]
	return g, ok
}

// templateLayout is a template shaped: its glyphs as the text package
// lays them out.
type templateLayout struct {
	w, h   float64
	glyphs []text.Glyph
	used   int
}

// fromTemplate lays out s, which has digits, from its template; it
// returns nil if a digit's image at the offset it needs is not to be had,
// and then s is shaped whole.
func (c *textCache) fromTemplate(s string, f *text.GoTextFace, shifts []float64) *textLayout {
	var tpl []byte
	tpl, _ = zeroDigits(c.tplBuf, s)
	c.tplBuf = tpl
	k := textKey{string(tpl), f.Size, false}
	t, ok := c.templates[k]
	if !ok {
		if c.templates == nil {
			c.templates = map[textKey]*templateLayout{}
		}
		m := metrics(f)
		t = &templateLayout{w: text.Advance(k.s, f), h: m.HAscent + m.HDescent,
			glyphs: text.AppendGlyphs(nil, k.s, f, nil)}
		c.templates[k] = t
	}
	t.used = c.frame
	steps := subpixelSteps(f)
	l := &textLayout{w: t.w, h: t.h, glyphs: make([]placedGlyph, 0, len(t.glyphs)*len(shifts))}
	for _, dx := range shifts {
		for _, g := range t.glyphs {
			img, x, y := g.Image, g.X, g.Y
			if b := s[g.StartIndexInBytes]; g.EndIndexInBytes == g.StartIndexInBytes+1 && b >= '0' && b <= '9' {
				px, py, step := pen(g, steps)
				dg, ok := c.digitGlyph(f, b-'0', step)
				if !ok {
					return nil
				}
				img, x, y = dg.img, float64(px+dg.relX), float64(py+dg.relY)
			}
			if img != nil {
				l.glyphs = append(l.glyphs, placedGlyph{img: img, x: float32(x + dx), y: float32(y)})
			}
		}
	}
	return l
}
