package draw

import (
	"image"
	"math"
	"sync"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/fonts"
	"raftlab/viz/frame"
)

// Measure returns the width of s in logical pixels at font size size. The
// app lays out text with it.
//
// The widths come from the font file's own numbers (fonts.Measure), the
// same that lay labels out for drawing (fonts.Glyphs); they are the widths
// Ebiten's text shaper gives (TestMeasureIsTheWholeLine and
// TestMeasureWithoutEbitenMatches hold the two to each other).
//
// A line is the sum of its words and spaces, each word measured once and
// remembered: the font kerns nothing across a space. The app measures new
// strings every frame (a clock, a latency), so a word is remembered by its
// template: "8.416" and "8.433" are measured once, as "0.000", since
// every digit is as wide as 0 (zeroDigits).
func Measure(s string, size float64) float64 {
	size = math.Round(size*4) / 4
	wordMu.Lock()
	defer wordMu.Unlock()
	if len(words) > 8192 {
		clear(words)
	}
	return fonts.ByWords(s, wordWidth(" ", size), func(word string) float64 {
		wordBuf, _ = zeroDigits(wordBuf, word)
		a, ok := words[wordKey{string(wordBuf), size}]
		if !ok {
			a = wordWidth(string(wordBuf), size)
		}
		return a
	})
}

var (
	wordMu  sync.Mutex
	words   = map[wordKey]float64{}
	wordBuf []byte
)

type wordKey struct {
	s    string
	size float64
}

// wordWidth is the width of word (or of a space) at size, remembered; the
// caller holds wordMu.
func wordWidth(word string, size float64) float64 {
	k := wordKey{word, size}
	a, ok := words[k]
	if !ok {
		a = fonts.Measure(word, size)
		words[k] = a
	}
	return a
}

// textCache draws text from an atlas of glyphs: every glyph a frame needs
// is rasterised once (package fonts fills its outline) and written into
// one image of ours, and each label becomes a few quads cut from it, so
// that all the text of a pass goes to the GPU in one draw call. Drawing
// each label as its own image, or each glyph with DrawImage, costs a call
// per label or glyph; in the browser, where the Go side of every call is
// slow, that was most of a busy frame. Labels keep their layout (the
// glyphs and where they go) while they are used.
type textCache struct {
	layouts map[textKey]*textLayout
	frame   int

	atlas *ebiten.Image
	slots map[fonts.GlyphKey]glyphSlot
	pack  shelf
	// resets counts how often the atlas filled up and started over,
	// laid how many labels were laid out anew.
	resets, laid int

	vs []ebiten.Vertex
	is []uint16
	// clip, unless empty, is the region of the screen the text is drawn
	// in: draw drops the glyphs outside it (see culler).
	clip    image.Rectangle
	cull    culler
	scratch []fonts.GlyphAt
	pixels  []byte
}

type textKey struct {
	s    string
	size float64
	bold bool
}

// textLayout is a label laid out at a size: its glyphs relative to the
// top-left of its line box, in device pixels.
type textLayout struct {
	w, h   float64 // the line box
	glyphs []placedGlyph
	used   int
	// ink is the whole device pixels its glyphs' images cover.
	ink image.Rectangle
}

type placedGlyph struct {
	key  fonts.GlyphKey // the glyph's image
	x, y float32
	w, h int // its size
}

// glyphSlot is where a glyph sits in the atlas.
type glyphSlot struct{ x, y, w, h int }

// atlasSize is the atlas's first side in pixels, and atlasMaxSize the
// side it grows to when full: room for thousands of glyphs, every size and
// sub-pixel variant the app draws. A figure embedded in a page fits in the
// first (a texture of 1 MB where the largest is 4 MB); the full app, with
// its menus and panels, grows it once.
const (
	atlasSize    = 512
	atlasMaxSize = 1024
)

func (c *textCache) layout(s string, size float64, bold bool) *textLayout {
	if c.layouts == nil {
		c.layouts = map[textKey]*textLayout{}
	}
	k := textKey{s, size, bold}
	l, ok := c.layouts[k]
	if !ok {
		c.laid++
		// Bold is the glyphs twice, the second set a little to the
		// right (the font has no bold face).
		shifts := []float64{0}
		if bold {
			shifts = append(shifts, 0.6*size/13)
		}
		var w float64
		c.scratch, w = fonts.Glyphs(c.scratch[:0], s, size)
		l = &textLayout{w: w, h: fonts.LineHeight(size), glyphs: make([]placedGlyph, 0, len(c.scratch)*len(shifts))}
		for _, dx := range shifts {
			for _, g := range c.scratch {
				l.glyphs = append(l.glyphs, placedGlyph{key: g.Key, x: float32(float64(g.X) + dx), y: float32(g.Y), w: g.W, h: g.H})
			}
		}
		for _, g := range l.glyphs {
			x, y := int(math.Floor(float64(g.x))), int(math.Floor(float64(g.y)))
			l.ink = l.ink.Union(image.Rect(x, y, x+g.w+1, y+g.h+1))
		}
		c.layouts[k] = l
	}
	l.used = c.frame
	return l
}

// slot returns where glyph g sits in the atlas, rasterising it there
// first if need be. When the atlas is full it draws the text queued so
// far onto dst and starts the atlas over.
func (c *textCache) slot(dst *ebiten.Image, g placedGlyph) glyphSlot {
	if s, ok := c.slots[g.key]; ok {
		return s
	}
	if c.atlas == nil {
		c.newAtlas(atlasSize)
	}
	w, h := g.w, g.h
	x, y, ok := c.pack.place(w, h)
	if !ok {
		// Full: what is queued still needs the old glyphs.
		c.draw(dst)
		if side := c.pack.size; side < atlasMaxSize {
			c.atlas.Deallocate()
			c.newAtlas(2 * side)
		} else {
			c.atlas.Clear()
			clear(c.slots)
			c.pack.reset(0)
		}
		c.resets++
		x, y, _ = c.pack.place(w, h)
	}
	s := glyphSlot{x, y, w, h}
	_, _, c.pixels = fonts.Rasterize(c.pixels[:0], g.key)
	c.atlas.SubImage(image.Rect(x, y, x+w, y+h)).(*ebiten.Image).WritePixels(c.pixels)
	c.slots[g.key] = s
	return s
}

// newAtlas makes an empty atlas of side×side pixels.
func (c *textCache) newAtlas(side int) {
	c.atlas = ebiten.NewImageWithOptions(image.Rect(0, 0, side, side), &ebiten.NewImageOptions{Unmanaged: true})
	c.slots = map[fonts.GlyphKey]glyphSlot{}
	c.pack = shelf{size: side}
}

// add queues s with its line box's top-left at x, y (or centred on x, y),
// in logical pixels scaled by sc. Labels sit on whole device pixels, so a
// label looks the same wherever it is drawn.
func (c *textCache) add(dst *ebiten.Image, s string, x, y, size float64, clr colorF, center, bold bool, sc float64) {
	if s == "" {
		return
	}
	l, at := c.place(s, x, y, size, center, bold, sc)
	ox, oy := float32(at.X), float32(at.Y)
	a := max(clr.a, 0)
	r, g, bl := clr.r*a, clr.g*a, clr.b*a
	for _, pg := range l.glyphs {
		if len(c.vs)+4 > batchCap(c.clip) {
			c.draw(dst)
		}
		sl := c.slot(dst, pg)
		x0, y0 := ox+pg.x, oy+pg.y
		x1, y1 := x0+float32(sl.w), y0+float32(sl.h)
		sx0, sy0 := float32(sl.x), float32(sl.y)
		sx1, sy1 := sx0+float32(sl.w), sy0+float32(sl.h)
		base := uint16(len(c.vs))
		c.vs = append(c.vs,
			ebiten.Vertex{DstX: x0, DstY: y0, SrcX: sx0, SrcY: sy0, ColorR: r, ColorG: g, ColorB: bl, ColorA: a},
			ebiten.Vertex{DstX: x1, DstY: y0, SrcX: sx1, SrcY: sy0, ColorR: r, ColorG: g, ColorB: bl, ColorA: a},
			ebiten.Vertex{DstX: x1, DstY: y1, SrcX: sx1, SrcY: sy1, ColorR: r, ColorG: g, ColorB: bl, ColorA: a},
			ebiten.Vertex{DstX: x0, DstY: y1, SrcX: sx0, SrcY: sy1, ColorR: r, ColorG: g, ColorB: bl, ColorA: a})
		c.is = append(c.is, base, base+1, base+2, base, base+2, base+3)
	}
}

// bounds is the device pixels that t, drawn at scale sc, may touch: the
// glyphs' images where add puts them, and a pixel to spare.
func (c *textCache) bounds(t frame.TextItem, sc float64) image.Rectangle {
	l, at := c.place(t.Text, t.X, t.Y, t.Size, t.Center, t.Bold, sc)
	return l.ink.Add(at).Inset(-1)
}

// place lays s out and says where add puts its line box's top-left, in
// whole device pixels.
func (c *textCache) place(s string, x, y, size float64, center, bold bool, sc float64) (*textLayout, image.Point) {
	l := c.layout(s, math.Round(size*sc*4)/4, bold)
	px, py := x*sc, y*sc
	if center {
		px, py = px-l.w/2, py-l.h/2
	}
	return l, image.Pt(int(math.Round(px)), int(math.Round(py)))
}

// draw draws the queued text onto dst in one call, and returns how many
// vertices that took.
func (c *textCache) draw(dst *ebiten.Image) int {
	if !c.clip.Empty() {
		c.vs, c.is = c.cull.cull(c.vs, c.is, c.clip)
	}
	n := len(c.vs)
	if len(c.is) == 0 {
		c.vs = c.vs[:0]
		return 0
	}
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
	dst.DrawTriangles(c.vs, c.is, c.atlas, op)
	c.vs, c.is = c.vs[:0], c.is[:0]
	return n
}

// endFrame forgets the layouts of labels not drawn in the last few
// seconds of frames.
func (c *textCache) endFrame() {
	c.frame++
	if c.frame%60 != 0 {
		return
	}
	for k, l := range c.layouts {
		if c.frame-l.used > 180 {
			delete(c.layouts, k)
		}
	}
}
