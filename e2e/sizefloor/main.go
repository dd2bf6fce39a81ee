// Command sizefloor is the smallest Ebiten program that draws text with
// the font raftlab uses (M+ 1p from Ebiten's examples/resources/fonts, cut
// down to Latin in package raftlab/viz/fonts, through text/v2). It exists only to be measured: built for GOOS=js with
// the same flags as web/raftlab.wasm, its size is the floor that the app's
// .wasm is compared against, since most of the app's download is Ebiten,
// the Go runtime and the font rather than raftlab's own code. BENCHMARKS.md
// ("App") reports both, built in the same run by BenchmarkWasmSize in
// e2e/perf_browser_test.go.
//
//	GOOS=js GOARCH=wasm go build -trimpath -ldflags='-s -w' -o floor.wasm ./e2e/sizefloor
//
// It also runs natively and in a page, drawing one line of text every
// frame, as a floor for the cost of a frame and for the time to the first
// frame. In a page it marks on the performance timeline floor-main when main
// starts, floor-font when the font is parsed and floor-draw when the first
// Draw begins, and sets window.floorFirstDraw when that Draw ends; the
// first-frame benchmarks read them to tell where its time goes. e2e/barefloor
// is the same program with Ebiten's debug font instead of a TrueType one.
package main

import (
	"bytes"
	"log"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"raftlab/e2e/floorgame"
	"raftlab/viz/fonts"
)

func main() {
	floorgame.Mark("floor-main")
	src, err := text.NewGoTextFaceSource(bytes.NewReader(fonts.MPlus1pRegularLatin))
	if err != nil {
		log.Fatal(err)
	}
	floorgame.Mark("floor-font")
	face := &text.GoTextFace{Source: src, Size: 16}
	floorgame.Run("floor", func(screen *ebiten.Image, s string, x, y float64) {
		op := &text.DrawOptions{}
		op.GeoM.Translate(x, y)
		text.Draw(screen, s, face, op)
	})
}
