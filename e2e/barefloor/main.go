// Command barefloor is the plainest Ebiten program that writes a line of text:
// Ebiten's debug font (ebitenutil.DebugPrintAt, a bitmap baked into Ebiten), no
// TrueType font and no text shaping. It exists only to be measured: loaded in a
// page with WebAssembly.instantiateStreaming and served as the app is, its
// first frame is the anchor the app's and an embedded figure's first frames are
// held to (BENCHMARKS.md, "Lighter on the reader's device"). e2e/sizefloor is
// the same program with the app's font through text/v2; the two side by side
// show what loading and shaping a TrueType font costs before the first frame.
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o bare.wasm ./e2e/barefloor
//
// In a page it marks on the performance timeline bare-main when main starts
// and bare-draw when the first Draw begins, and sets window.bareFirstDraw
// (performance.now() milliseconds) when that Draw ends.
package main

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/ebitenutil"

	"raftlab/e2e/floorgame"
)

func main() {
	floorgame.Mark("bare-main")
	floorgame.Run("bare", func(screen *ebiten.Image, s string, x, y float64) {
		ebitenutil.DebugPrintAt(screen, s, int(x), int(y))
	})
}
