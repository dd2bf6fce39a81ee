//go:build desktop

package draw

import (
	"fmt"
	"image/color"
	"math/rand/v2"
	"testing"
)

// FuzzKeptScreen paints sequences of frames made from the fuzzer's bytes
// (frameGen: machines, links, messages, logs, panels with lines and
// widgets, menus, banners, overlapping cards, text) onto a screen kept
// between frames, and holds every frame, pixel for pixel, to the same
// frame painted whole. A frame mostly follows from the last with a few
// changes, as in a run; now and then it is made anew, the scale or the
// canvas's size changes, or the screen is lost and must be painted whole.
//
// go test runs the seeds below; to search further, under a display:
//
//	scripts/with-xvfb.sh go test -tags desktop -run X -fuzz FuzzKeptScreen -fuzztime 60s ./viz/draw/
func FuzzKeptScreen(f *testing.F) {
	for seed := range uint64(12) {
		data := make([]byte, 600+seed*300)
		r := rand.New(rand.NewPCG(seed, 22))
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		f.Add(data)
	}
	f.Add([]byte{})
	// One pair of canvases serves every input, as one canvas serves the
	// game: making a text atlas and a sprite sheet for each would be most
	// of the fuzzer's time. Their atlases and sheets fill and start over
	// apart, which what they paint must not show.
	var k *keptFrames
	defer func() {
		if k != nil {
			k.close()
		}
	}()
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &frameGen{data: data}
		scales := []float64{1, 1.5, 2, 2.625}
		if k == nil {
			k = newKeptFrames(t, 1)
		}
		k.t, k.sc = t, scales[g.intn(len(scales))]
		k.kept.kept = &keptScreen{}
		sizes := [][2]float64{{200, 150}, {160, 200}, {220, 130}}
		size := sizes[g.intn(len(sizes))]
		fr := g.frame(size[0], size[1])
		steps := 2 + g.intn(7)
		for step := range steps {
			if step > 0 {
				g.change(fr)
				// (A byte of 0, as when the bytes run out, changes
				// nothing more.)
				switch g.intn(24) {
				case 1:
					k.sc = scales[g.intn(len(scales))]
				case 2:
					size = sizes[g.intn(len(sizes))]
					fr = g.frame(size[0], size[1])
				case 3:
					// The screen's pixels lost, as with a lost
					// context: once told, the next frame paints it all.
					k.screen.Fill(color.RGBA{R: 255, B: 255, A: 255})
					k.kept.kept.invalidate()
				}
			}
			k.paint(fmt.Sprintf("frame %d of %d at scale %v", step+1, steps, k.sc), fr)
		}
	})
}
