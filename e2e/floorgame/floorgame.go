// Package floorgame is the game loop of the bare Ebiten programs the app is
// measured against (e2e/sizefloor, e2e/barefloor): it writes one line every
// frame with the text function its program gives, and in a page marks the
// moments of start-up on the performance timeline for the first-frame
// benchmarks (e2e/firstframe_browser_test.go).
package floorgame

import (
	"log"
	"strconv"

	"github.com/hajimehoshi/ebiten/v2"
)

// Write draws s on screen at (x, y).
type Write func(screen *ebiten.Image, s string, x, y float64)

type game struct {
	prefix string
	write  Write
	frame  int
	drawn  bool
}

func (g *game) Update() error {
	g.frame++
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	if !g.drawn {
		Mark(g.prefix + "-draw")
	}
	// The frame count makes every frame differ, as a running simulation's do.
	g.write(screen, g.prefix+" "+strconv.Itoa(g.frame), 20, 20)
	if !g.drawn {
		g.drawn = true
		firstDrawn(g.prefix)
	}
}

func (g *game) Layout(w, h int) (int, int) { return w, h }

// Run runs the game until the window closes. In a page it marks
// <prefix>-draw when the first Draw begins and sets window.<prefix>FirstDraw
// to the page's performance.now() when it ends.
func Run(prefix string, write Write) {
	if err := ebiten.RunGame(&game{prefix: prefix, write: write}); err != nil {
		log.Fatal(err)
	}
}
