//go:build desktop

package draw

import (
	"bytes"
	"math"
	"sync"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"raftlab/viz/fonts"
)

// The tests hold the app's own text layout and glyphs (package fonts) to
// what Ebiten's text package gives for the same font, which the app drew
// with before.

var (
	refOnce  sync.Once
	refSrc   *text.GoTextFaceSource
	refFaces = map[float64]*text.GoTextFace{}
)

// face returns the text package's face of the app's font at size, rounded
// to a quarter pixel as the app rounds.
func face(size float64) *text.GoTextFace {
	refOnce.Do(func() {
		var err error
		if refSrc, err = text.NewGoTextFaceSource(bytes.NewReader(fonts.MPlus1pRegularLatin)); err != nil {
			panic(err)
		}
	})
	size = math.Round(size*4) / 4
	f, ok := refFaces[size]
	if !ok {
		f = &text.GoTextFace{Source: refSrc, Size: size}
		refFaces[size] = f
	}
	return f
}
