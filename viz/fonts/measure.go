package fonts

import (
	"math"
	"strings"
	"sync"
)

// The app lays its words out with the widths the graphics library's text
// shaping gave (draw.Measure), and a painter that runs without the
// graphics library, such as the SVG painter that makes posters, must lay
// them out the same, or a label would overflow its button on paper and
// not on screen. Measure gives those widths from the font file alone: the
// shaper's own arithmetic (advances scaled to the font size rounded up to
// a whole pixel, in 1/64 pixel units, plus the kern feature's pair
// adjustments) on the same font. Tests in package draw hold the two to
// each other on every word the app shows in its figures.

var (
	parsed    *sfnt
	parseErr  error
	parseOnce sync.Once
	widthMu   sync.Mutex
	widths    = map[widthKey]float64{}
)

type widthKey struct {
	word string
	size float64
}

func face() *sfnt {
	parseOnce.Do(func() { parsed, parseErr = parseSfnt(MPlus1pRegularLatin) })
	if parseErr != nil {
		// The font is compiled in; failing to read it is a broken build.
		panic(parseErr.Error())
	}
	return parsed
}

// Measure returns the width of s in pixels at font size size, laid out as
// package draw lays it out: word by word, a space's advance between words.
func Measure(s string, size float64) float64 {
	size = math.Round(size*4) / 4
	widthMu.Lock()
	defer widthMu.Unlock()
	if len(widths) > 8192 {
		clear(widths)
	}
	return ByWords(s, wordWidth(" ", size), func(word string) float64 { return wordWidth(word, size) })
}

// wordWidth is the width of word (or of a space) at size, remembered; the
// caller holds widthMu.
func wordWidth(word string, size float64) float64 {
	k := widthKey{word, size}
	a, ok := widths[k]
	if !ok {
		a = face().shapedWidth(word, size)
		widths[k] = a
	}
	return a
}

// ForgetWidths forgets every width Measure remembers, as a page that has
// just opened has none (benchmarks of start-up use it).
func ForgetWidths() {
	widthMu.Lock()
	defer widthMu.Unlock()
	clear(widths)
}

// ByWords is the width of a line as the sum of its words' widths and a
// space's width between each two: the font kerns nothing across a space,
// so that is the width of the whole line, and each word is shaped once.
func ByWords(s string, space float64, word func(string) float64) float64 {
	w := 0.0
	for {
		one, rest, more := strings.Cut(s, " ")
		if one != "" {
			w += word(one)
		}
		if !more {
			return w
		}
		w += space
		s = rest
	}
}

// shapedWidth is the advance of s shaped as one run at size.
func (f *sfnt) shapedWidth(s string, size float64) float64 {
	var cells [64]cell
	_, total := f.shape(cells[:0], s, size, nil)
	return float64(total) / 64
}

// pairKern is the sum over the kern lookups of the first glyph's advance
// change for the pair; within a lookup the first subtable that takes the
// pair decides.
func (f *sfnt) pairKern(a, b uint16) int16 {
	var sum int16
	for _, l := range f.kern {
		for i := range l {
			if v, ok := l[i].apply(a, b); ok {
				sum += v
				break
			}
		}
	}
	return sum
}

// Extents returns the ascent and descent (both positive) of a line of
// text at size, in pixels: the top of a line box lies Ascent above the
// baseline, as in package draw.
func Extents(size float64) (ascent, descent float64) {
	f := face()
	k := size / float64(f.upem)
	return float64(f.ascent) * k, -float64(f.descent) * k
}
