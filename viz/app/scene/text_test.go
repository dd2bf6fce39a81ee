package scene

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// wrapParaJoined is wrapPara as it was written first: the paragraph split
// with strings.Fields and each line's words joined with a space (a word
// wider than a line cut as wrapPara cuts it).
func wrapParaJoined(out []string, measure func(string, float64) float64, para string, size, width, space float64) []string {
	words := strings.Fields(para)
	if len(words) == 0 {
		return append(out, "")
	}
	var line []string
	lineW := 0.0
	flush := func() {
		if len(line) > 0 {
			out = append(out, strings.Join(line, " "))
		}
		line, lineW = line[:0], 0
	}
	for _, w := range words {
		ww := measure(w, size)
		if len(line) > 0 && lineW+space+ww > width {
			flush()
		}
		out, w, ww = cutWord(out, measure, w, ww, size, width)
		if len(line) > 0 {
			lineW += space
		}
		line = append(line, w)
		lineW += ww
	}
	flush()
	return out
}

// TestWrapTakesStretchesOfTheParagraph: wrapping gives the lines that
// splitting the paragraph into words and joining each line's words gives,
// on paragraphs of words one space apart, runs of spaces, tabs, no-break
// spaces, words longer than a line, accents, bytes that are not UTF-8,
// and none at all, at widths from a few letters to the whole paragraph.
func TestWrapTakesStretchesOfTheParagraph(t *testing.T) {
	pieces := []string{"a", "quorum", "of", "three", "commits", "élection", "Überschrift", "supercalifragilistic", "x",
		" ", " ", " ", "  ", "\t", "\u00a0", "\u0085", "\u2003", " \t ", "\xff", "a\xffb", "✓", "→"}
	rng := rand.New(rand.NewSource(1))
	size, space := 12.0, estimateWidth(" ", 12)
	for range 3000 {
		var b strings.Builder
		for range rng.Intn(14) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		para := b.String()
		width := []float64{0, 5, 20, 40, 70, 120, 400}[rng.Intn(7)]
		want := wrapParaJoined(nil, estimateWidth, para, size, width, space)
		got := wrapPara(nil, estimateWidth, para, size, width, space)
		require.Equal(t, want, got, "%q at width %v", para, width)
	}
}
