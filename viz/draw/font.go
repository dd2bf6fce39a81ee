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

// drawText draws s with its line box's top-left at x, y (or centred on
// x, y), in logical pixels scaled by sc. Bold is drawn twice, a fraction
// of a pixel apart, since the font has one weight.
func drawText(dst *ebiten.Image, s string, x, y, size float64, clr colorF, center, bold bool, sc float64) {
	if s == "" {
		return
	}
	f := face(size * sc)
	op := &text.DrawOptions{}
	if center {
		op.PrimaryAlign = text.AlignCenter
		op.SecondaryAlign = text.AlignCenter
	}
	op.GeoM.Translate(math.Round(x*sc), math.Round(y*sc))
	op.ColorScale = clr.scale()
	text.Draw(dst, s, f, op)
	if bold {
		op.GeoM.Translate(0.6*sc, 0)
		text.Draw(dst, s, f, op)
	}
}
