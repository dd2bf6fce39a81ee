package fonts

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The widths are held to the graphics library's own shaping by
// TestMeasureWithoutEbitenMatches in package draw, which needs a display;
// these hold what can be checked anywhere.

func TestLigaturesAndKerningChangeWidths(t *testing.T) {
	f := face()
	require.NotEmpty(t, f.kern, "the font's kern pairs were not read")
	require.NotEmpty(t, f.ligatures, "the font's ligatures were not read")
	// "fi" is one glyph, narrower than f and i apart.
	assert.Less(t, Measure("fi", 13), Measure("f", 13)+Measure("i", 13))
	// A kerned pair is narrower than its letters apart.
	assert.Less(t, Measure("AV", 13), Measure("A", 13)+Measure("V", 13))
}

func TestLineIsItsWordsAndSpaces(t *testing.T) {
	w := Measure("three machines", 12)
	assert.Equal(t, Measure("three", 12)+Measure(" ", 12)+Measure("machines", 12), w)
	assert.Greater(t, Measure("machines", 14), Measure("machines", 12))
	assert.Zero(t, Measure("", 12))
}

func TestBrokenFontIsAnError(t *testing.T) {
	_, err := parseSfnt(MPlus1pRegularLatin[:100])
	require.Error(t, err)
	_, err = parseSfnt(nil)
	require.Error(t, err)
}
