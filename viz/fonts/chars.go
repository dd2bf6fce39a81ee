package fonts

import (
	"math"
	"strings"
	"unicode/utf8"
)

// What the shaper does with characters beyond looking their glyphs up,
// for the ones a label can hold when its text comes from the reader (a
// deployment's name, a key in an imported schedule): a letter followed by
// a combining accent becomes the accented letter where the font has it;
// an invisible character (a soft hyphen, a zero-width space or joiner, a
// byte order mark) takes no room and does not break the kerning of the
// glyphs around it; a space the font lacks (thin, narrow, em...) is the
// space glyph made as wide as its kind. TestCharactersBeyondALookup-
// MatchTheTextPackage holds each to what the text package does. What it
// does with the controls of bidirectional text is not done here: every
// label is laid out left to right as written.

// cell is one glyph of a run being shaped.
type cell struct {
	id uint16
	// adv is the glyph's advance in 1/64 pixel when the character sets it
	// (a space the font lacks), or -1 for the glyph's own.
	adv    fixed26
	hidden bool // an invisible character: no room, skipped by kerning and ligatures
	// nonJoiner is U+200C, which is hidden too but keeps the glyphs
	// around it from joining.
	nonJoiner bool
}

// composedLetters is, for each combining accent the font's Latin-1 range
// composes with, the letters it goes on and the accented letters they
// make, in the same order.
var composedLetters = [...]struct {
	accent        rune
	bases, result string
}{
	{0x300, "AEIOUaeiou", "ÀÈÌÒÙàèìòù"},
	{0x301, "AEIOUYaeiouy", "ÁÉÍÓÚÝáéíóúý"},
	{0x302, "AEIOUaeiou", "ÂÊÎÔÛâêîôû"},
	{0x303, "ANOano", "ÃÑÕãñõ"},
	{0x308, "AEIOUaeiouy", "ÄËÏÖÜäëïöüÿ"},
	{0x30A, "Aa", "Åå"},
	{0x327, "Cc", "Çç"},
}

// compose is base with accent as one letter, if Latin-1 has it.
func compose(base, accent rune) (rune, bool) {
	if base < 'A' || base > 'z' {
		return 0, false
	}
	for _, row := range composedLetters {
		if row.accent != accent {
			continue
		}
		if i := strings.IndexRune(row.bases, base); i >= 0 {
			// Every accented letter of Latin-1 is two bytes of UTF-8.
			r, _ := utf8.DecodeRuneInString(row.result[2*i:])
			return r, true
		}
	}
	return 0, false
}

// invisible reports whether c is a default-ignorable character: one the
// shaper hides.
func invisible(c rune) bool {
	switch {
	case c == 0xAD, c == 0x34F, c == 0x61C, c == 0x115F, c == 0x1160, c == 0x17B4, c == 0x17B5,
		c >= 0x180B && c <= 0x180F, c >= 0x200B && c <= 0x200F, c >= 0x202A && c <= 0x202E,
		c >= 0x2060 && c <= 0x206F, c == 0x3164, c >= 0xFE00 && c <= 0xFE0F, c == 0xFEFF, c == 0xFFA0,
		c >= 0xFFF0 && c <= 0xFFF8, c >= 0x1BCA0 && c <= 0x1BCA3, c >= 0x1D173 && c <= 0x1D17A,
		c >= 0xE0000 && c <= 0xE0FFF:
		return true
	}
	return false
}

// spaceAdvance is the advance the shaper gives space character c when the
// font has no glyph for it, at scale (the em in 1/64 pixel); false if c is
// not such a space.
func (f *sfnt) spaceAdvance(c rune, scale int32) (fixed26, bool) {
	em := func(n int32) (fixed26, bool) { return (scale + n/2) / n, true }
	switch c {
	case 0x2001, 0x2003, 0x3000:
		return em(1)
	case 0x2000, 0x2002:
		return em(2)
	case 0x2004:
		return em(3)
	case 0x2005:
		return em(4)
	case 0x2009:
		return em(5)
	case 0x2006:
		return em(6)
	case 0x200A:
		return em(16)
	case 0x205F:
		return scale * 4 / 18, true
	case 0x2007: // as wide as a digit
		if g := f.glyph('0'); g != 0 {
			return f.advance(g, scale), true
		}
	case 0x2008: // as wide as a full stop
		if g := f.glyph('.'); g != 0 {
			return f.advance(g, scale), true
		}
		if g := f.glyph(','); g != 0 {
			return f.advance(g, scale), true
		}
	case 0x202F: // half a space
		return f.advance(f.glyph(' '), scale) / 2, true
	}
	return 0, false
}

// advance is glyph g's own advance at scale, in 1/64 pixel: the font's
// number scaled and rounded as the shaper does.
func (f *sfnt) advance(g uint16, scale int32) fixed26 {
	adv := f.advances[min(int(g), len(f.advances)-1)]
	return int32(math.Round(float64(float32(adv) * float32(scale) / float32(f.upem))))
}
