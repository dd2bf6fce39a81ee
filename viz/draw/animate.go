package draw

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"math"
	"sort"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
	"raftlab/viz/frame"
)

// Animator is a model that hands out the frames of an animation one by
// one, with how long each shows, when it asked for one (EffectAnimate);
// false after the last. The app moves its run to each frame's moment and
// back after the last, so the frames are painted at once, one after
// another.
type Animator interface {
	AnimationFrame(i int) (f *frame.Frame, show time.Duration, ok bool)
}

// maxAnimationFrames bounds an animation (30 s at 20 frames a second).
const maxAnimationFrames = 601

// paintAnimation paints the frames the model hands out, region of each,
// and returns them as an animated GIF that plays again and again.
func (g *Game) paintAnimation(m Animator, region viz.Rect) ([]byte, error) {
	var pics []*image.RGBA
	var delays []int
	var img *ebiten.Image
	defer func() {
		if img != nil {
			img.Deallocate()
		}
	}()
	var err error
	for i := 0; ; i++ {
		f, show, ok := m.AnimationFrame(i)
		if !ok {
			break
		}
		if i >= maxAnimationFrames || err != nil {
			continue // the model is asked on to the end, where it comes back
		}
		w, h := int(math.Ceil(f.W)), int(math.Ceil(f.H))
		if img == nil || img.Bounds().Dx() != w || img.Bounds().Dy() != h {
			if img != nil {
				img.Deallocate()
			}
			img = ebiten.NewImage(w, h)
		}
		pal := g.light
		if f.Theme == frame.ThemeDark {
			pal = g.dark
		}
		cv := canvas{dst: img, sc: 1, tc: &g.texts}
		cv.paintFrame(f, pal)
		r := image.Rect(int(region.X), int(region.Y), int(math.Ceil(region.Right())), int(math.Ceil(region.Bottom()))).Intersect(img.Bounds())
		if region.Empty() {
			r = img.Bounds()
		}
		if r.Empty() {
			err = fmt.Errorf("the region %v is outside the frame", region)
			continue
		}
		pic := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
		img.SubImage(r).(*ebiten.Image).ReadPixels(pic.Pix)
		pics = append(pics, pic)
		delays = append(delays, max(int(show/(10*time.Millisecond)), 2))
	}
	if err != nil {
		return nil, err
	}
	if len(pics) == 0 {
		return nil, fmt.Errorf("the animation has no frames")
	}
	q := newQuantizer(pics[0])
	anim := &gif.GIF{LoopCount: 0}
	for i, pic := range pics {
		anim.Image = append(anim.Image, q.paletted(pic))
		anim.Delay = append(anim.Delay, delays[i])
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// quantizer maps colours onto a palette of at most 256: the colours the
// first frame shows most (the app's flat colours: background, discs,
// cells, lines, text), each other colour (an edge's blend) onto the
// nearest of them, remembered.
type quantizer struct {
	pal  color.Palette
	seen map[color.RGBA]uint8
}

func newQuantizer(first *image.RGBA) *quantizer {
	counts := map[color.RGBA]int{}
	for i := 0; i+3 < len(first.Pix); i += 4 {
		c := color.RGBA{first.Pix[i], first.Pix[i+1], first.Pix[i+2], 255}
		counts[c]++
	}
	cs := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		cs = append(cs, c)
	}
	// Most shown first; ties by value, so the palette does not depend on
	// the map's order.
	sort.Slice(cs, func(i, j int) bool {
		if counts[cs[i]] != counts[cs[j]] {
			return counts[cs[i]] > counts[cs[j]]
		}
		a, b := cs[i], cs[j]
		return a.R < b.R || a.R == b.R && (a.G < b.G || a.G == b.G && a.B < b.B)
	})
	q := &quantizer{seen: map[color.RGBA]uint8{}}
	for _, c := range cs[:min(len(cs), 256)] {
		q.seen[c] = uint8(len(q.pal))
		q.pal = append(q.pal, c)
	}
	return q
}

// paletted is pic in the quantizer's palette.
func (q *quantizer) paletted(pic *image.RGBA) *image.Paletted {
	out := image.NewPaletted(pic.Rect, q.pal)
	for i, j := 0, 0; i+3 < len(pic.Pix); i, j = i+4, j+1 {
		c := color.RGBA{pic.Pix[i], pic.Pix[i+1], pic.Pix[i+2], 255}
		k, ok := q.seen[c]
		if !ok {
			k = uint8(q.pal.Index(c))
			q.seen[c] = k
		}
		out.Pix[j] = k
	}
	return out
}
