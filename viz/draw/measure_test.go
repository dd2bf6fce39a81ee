//go:build desktop

package draw

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"raftlab/viz/fonts"
	"raftlab/viz/frame"
)

// TestMeasureWithoutEbitenMatches: fonts.Measure, which lays out the SVG
// posters and the app's text (Measure), gives exactly the widths Ebiten's
// shaper gives each label of every figure's posters, at its opening and
// at its key moment (stored under testdata by e2e's TestRemakeDrawFrames),
// and pairs the font kerns.
func TestMeasureWithoutEbitenMatches(t *testing.T) {
	texts := []frame.TextItem{{Text: "AV To Yo, LT'V P. W,A Tea", Size: 13}, {Text: "Wave", Size: 9.3}}
	var posters []frame.TextItem
	readTestdata(t, "poster-texts.json.gz", &posters)
	texts = append(texts, posters...)
	n := 0
	for _, x := range texts {
		if x.Text == "" {
			continue
		}
		n++
		for _, size := range []float64{x.Size, 11, 12.5} {
			if a, b := text.Advance(x.Text, face(size)), fonts.Measure(x.Text, size); a != b {
				t.Errorf("%q at %v: shaped %v, fonts.Measure %v", x.Text, size, a, b)
			}
		}
	}
	if n < 200 {
		t.Fatalf("only %d words compared", n)
	}
}
