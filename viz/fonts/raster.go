package fonts

import (
	"image"
	"image/draw"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/vector"
)

// The app draws its labels from the glyphs laid out and rasterised here,
// not through the graphics library's text package. That package shapes
// every new string with a full OpenType shaper and makes a GPU image of
// every glyph before the app can copy it into its atlas; in the browser,
// where that code runs unoptimised at first, the first frame's labels
// took most of a second, and the shaper was an eighth of the download.
// The font is one Latin font whose shaping is its advances, its pair
// kerning and a few ligatures (sfnt.go), so this file lays a line out
// with those and fills each glyph's outline with the same rasteriser, at
// the same sizes, sub-pixel offsets and bounds as the text package did:
// the pixels are the same (TestGlyphsMatchTheTextPackage in package draw
// holds the two to each other, glyph position and pixel).

// GlyphKey names a glyph's image: the glyph at a size (in pixels, a
// multiple of a quarter) and at a sub-pixel offset in 1/64 pixel.
type GlyphKey struct {
	ID         uint16
	Size       float64
	SubX, SubY int32
}

// GlyphAt is a glyph of a laid-out line and the pixel its image's
// top-left goes to, relative to the top-left of the line's box.
type GlyphAt struct {
	Key  GlyphKey
	X, Y int
	// W and H are the size of its image.
	W, H int
}

// fixed26 is a length in 1/64 pixel, as the text package counts.
type fixed26 = int32

// outlineAt is a glyph's outline scaled to a size, y down, and the
// bounds of its points in 1/64 pixel.
type outlineAt struct {
	segs                   []Segment
	minX, minY, maxX, maxY fixed26
}

var (
	scaledMu sync.Mutex
	scaled   = map[glyphSize]*outlineAt{}
)

type glyphSize struct {
	id   uint16
	size float64
}

// scaledOutline returns glyph id's outline at size, remembered.
func scaledOutline(id uint16, size float64) *outlineAt {
	scaledMu.Lock()
	defer scaledMu.Unlock()
	k := glyphSize{id, size}
	if o, ok := scaled[k]; ok {
		return o
	}
	if len(scaled) > 4096 {
		clear(scaled)
	}
	f := face()
	segs, err := f.Outline(id)
	if err != nil {
		// The font is compiled in and every glyph of it is read by a
		// test: a glyph that does not read is a broken build.
		panic(err.Error())
	}
	// The text package scales by the size in 1/64 pixel over the units
	// per em, as a float32, and turns y down.
	scale := float32(float64(int32(size*64)) / 64 / float64(f.upem))
	o := &outlineAt{segs: segs}
	if len(segs) > 0 {
		minX, minY := float32(math.Inf(1)), float32(math.Inf(1))
		maxX, maxY := float32(math.Inf(-1)), float32(math.Inf(-1))
		for i := range o.segs {
			s := &o.segs[i]
			n := 1
			if s.Op == QuadTo {
				n = 2
			}
			for j := 0; j < n; j++ {
				p := &s.Args[j]
				p.X *= scale
				p.Y *= -scale
				minX, minY = min(minX, p.X), min(minY, p.Y)
				maxX, maxY = max(maxX, p.X), max(maxY, p.Y)
			}
		}
		o.minX, o.minY = fixed26(minX*64), fixed26(minY*64)
		o.maxX, o.maxY = fixed26(maxX*64), fixed26(maxY*64)
	}
	scaled[k] = o
	return o
}

// subpixelSteps is how many horizontal offsets within a pixel a glyph is
// rasterised at for a size: fewer as the line grows taller (the text
// package's rule).
func subpixelSteps(size float64) int32 {
	a, d := Extents(size)
	switch s := a + d; {
	case s < 20:
		return 8
	case s < 40:
		return 4
	case s < 80:
		return 2
	}
	return 1
}

// LineHeight is the height of a line's box at size: its ascent and
// descent.
func LineHeight(size float64) float64 {
	a, d := Extents(size)
	return a + d
}

// Glyphs appends the glyphs of s laid out at size (a multiple of a
// quarter pixel) to dst, each with its image's key and place; glyphs with
// no outline (spaces) are left out. It returns the line's advance too.
func Glyphs(dst []GlyphAt, s string, size float64) ([]GlyphAt, float64) {
	f := face()
	pens, total := f.layout(s, size)
	a, _ := Extents(size)
	oy := fixed26(a*64) &^ 63
	steps := subpixelSteps(size)
	for _, p := range pens {
		o := scaledOutline(p.id, size)
		w, h := o.imageSize()
		if w == 0 || h == 0 {
			continue
		}
		ox := p.pen / (64 / steps) * (64 / steps)
		x, y := ox+o.minX, oy+o.minY
		dst = append(dst, GlyphAt{
			Key: GlyphKey{ID: p.id, Size: size, SubX: x & 63, SubY: y & 63},
			X:   int(x >> 6), Y: int(y >> 6), W: w, H: h,
		})
	}
	return dst, float64(total) / 64
}

// Rasterize fills the glyph's outline at its key's size and offset and
// appends its image to dst, w×h pixels of premultiplied RGBA: white at
// each pixel's coverage, as the text package's glyph images were. A glyph
// with no outline has no pixels.
func Rasterize(dst []byte, k GlyphKey) (w, h int, pix []byte) {
	o := scaledOutline(k.ID, k.Size)
	w, h = o.imageSize()
	if w == 0 || h == 0 {
		return 0, 0, dst
	}
	rasterMu.Lock()
	defer rasterMu.Unlock()
	// One rasteriser, reset for each glyph (which clears it as a new one
	// is), so that the first frame's hundreds of glyphs do not each make
	// their buffers.
	r := &raster
	r.Reset(w, h)
	r.DrawOp = draw.Src
	bx, by := float32(-o.minX+k.SubX)/64, float32(-o.minY+k.SubY)/64
	for _, s := range o.segs {
		a, b := s.Args[0], s.Args[1]
		switch s.Op {
		case MoveTo:
			r.MoveTo(a.X+bx, a.Y+by)
		case LineTo:
			r.LineTo(a.X+bx, a.Y+by)
		case QuadTo:
			r.QuadTo(a.X+bx, a.Y+by, b.X+bx, b.Y+by)
		}
	}
	r.ClosePath()
	// Filled as the text package fills: opaque onto RGBA (with the Src
	// operator every pixel is written).
	n := len(dst)
	dst = slices.Grow(dst, 4*w*h)[:n+4*w*h]
	clear(dst[n:])
	img := &image.RGBA{Pix: dst[n:], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	r.Draw(img, img.Bounds(), image.Opaque, image.Point{})
	return w, h, dst
}

var (
	rasterMu sync.Mutex
	raster   vector.Rasterizer
)

// imageSize is the size of the glyph's image: its bounds rounded out to
// whole pixels and a pixel to spare on each axis, as the text package
// allows; 0×0 for a glyph with no outline.
func (o *outlineAt) imageSize() (w, h int) {
	if len(o.segs) == 0 {
		return 0, 0
	}
	w, h = int((o.maxX-o.minX+63)>>6), int((o.maxY-o.minY+63)>>6)
	if w == 0 || h == 0 {
		return 0, 0
	}
	return w + 1, h + 1
}

// pen is a glyph of a shaped line and where its pen is, in 1/64 pixel.
type pen struct {
	id  uint16
	pen fixed26
}

// layout shapes s as one run at size (see shape) and returns its glyphs'
// pens and its whole advance.
func (f *sfnt) layout(s string, size float64) ([]pen, fixed26) {
	pens := make([]pen, 0, len(s))
	var cells [64]cell
	_, total := f.shape(cells[:0], s, size, func(id uint16, at fixed26) { pens = append(pens, pen{id, at}) })
	return pens, total
}

// shape shapes s as one run at size as the shaper does: characters to
// glyphs (into cells; see chars.go for the characters that are more than
// a lookup), the ligatures joined, each glyph advancing the pen by its
// advance scaled to the size rounded up to a whole pixel, plus the pair
// kerning with the next glyph that is not hidden. It calls at, if set,
// with each glyph and its pen, and returns the cells and the advance.
func (f *sfnt) shape(cells []cell, s string, size float64, at func(id uint16, pen fixed26)) ([]cell, fixed26) {
	scale := int32((int32(size*64)+63)>>6) << 6
	var last rune = -1 // the character of the last cell, while an accent may join it
	for _, r := range s {
		if c, ok := compose(last, r); ok && f.glyph(c) != 0 {
			cells[len(cells)-1].id = f.glyph(c)
			last = -1
			continue
		}
		g := f.glyph(r)
		switch adv, space := f.spaceAdvance(r, scale); {
		case invisible(r):
			cells = append(cells, cell{id: f.glyph(' '), adv: 0, hidden: true, nonJoiner: r == 0x200C})
		case g == 0 && space:
			cells = append(cells, cell{id: f.glyph(' '), adv: adv})
		default:
			cells = append(cells, cell{id: g, adv: -1})
		}
		last = r
	}
	cells = f.substitute(cells)
	total := int32(0)
	for i, c := range cells {
		if at != nil {
			at(c.id, total)
		}
		if c.hidden {
			continue
		}
		if c.adv >= 0 {
			total += c.adv
			continue
		}
		total += f.advance(c.id, scale)
		for _, next := range cells[i+1:] {
			if !next.hidden {
				total += int32(f.pairKern(c.id, next.id)) * scale / f.upem
				break
			}
		}
	}
	return cells, total
}
