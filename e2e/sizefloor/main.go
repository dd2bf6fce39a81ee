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
// frame (in a page it sets window.sizefloorFirstDraw then, and marks
// floor-main on the performance timeline when main starts).
package main

import (
	"bytes"
	"log"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"raftlab/viz/fonts"
)

type game struct {
	face  *text.GoTextFace
	frame int
	drawn bool
}

func (g *game) Update() error {
	g.frame++
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	op := &text.DrawOptions{}
	op.GeoM.Translate(20, 20)
	// The frame count makes every frame differ, as a running simulation's do.
	text.Draw(screen, "floor "+strconv.Itoa(g.frame), g.face, op)
	if !g.drawn {
		g.drawn = true
		firstDrawn()
	}
}

func (g *game) Layout(w, h int) (int, int) { return w, h }

func main() {
	started()
	src, err := text.NewGoTextFaceSource(bytes.NewReader(fonts.MPlus1pRegularLatin))
	if err != nil {
		log.Fatal(err)
	}
	if err := ebiten.RunGame(&game{face: &text.GoTextFace{Source: src, Size: 16}}); err != nil {
		log.Fatal(err)
	}
}
