package draw

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz"
)

// shelf packs rectangles into a square image of side size: left to right
// along a shelf as tall as the tallest so far, then a new shelf below.
type shelf struct {
	size    int
	x, y, h int
}

// place returns where a w×h rectangle goes, and false when the image is
// full. Rectangles are kept a pixel apart so that none samples another.
func (s *shelf) place(w, h int) (int, int, bool) {
	if s.x+w+1 > s.size {
		s.x, s.y, s.h = 0, s.y+s.h+1, 0
	}
	if s.y+h+1 > s.size || w+1 > s.size {
		return 0, 0, false
	}
	x, y := s.x, s.y
	s.x += w + 1
	s.h = max(s.h, h)
	return x, y, true
}

// reset empties the image's plan.
func (s *shelf) reset(from int) { s.x, s.y, s.h = 0, from, 0 }

// spriteSheet holds the shapes drawn many times a frame (message dots),
// each drawn once into it in white; a dot is then one quad
// cut from the sheet and tinted by its vertex colour, four vertices where
// a disc built of triangles takes dozens. The sheet is also the source of
// every other shape: they sample its white corner, so shapes and sprites
// share one batch and keep their order.
type spriteSheet struct {
	img    *ebiten.Image
	pack   shelf
	slots  map[spriteKey]spriteSlot
	resets int
}

// spriteKind is a shape the sheet holds.
type spriteKind uint8

const (
	spriteDisc spriteKind = iota
	spriteRing
)

// spriteKey is a shape at a size: radius and width in sheet pixels,
// rounded to a quarter pixel.
type spriteKey struct {
	kind     spriteKind
	r, width float64
}

type spriteSlot struct{ x, y, size int }

const (
	sheetSize = 512
	// whiteSize is the white square in the sheet's corner that plain
	// shapes sample; its middle is whiteUV, far enough from its edges
	// that linear filtering sees only white.
	whiteSize = 4
	whiteUV   = 2
	// spriteScale is how many sheet pixels a sprite has per device
	// pixel: a sprite is drawn sharp at twice the size and shrunk as it is
	// drawn, each device pixel the average of four sheet pixels.
	spriteScale = 2
	// spritePad is the blank margin around a sprite, in sheet pixels.
	spritePad = 2
)

func (s *spriteSheet) image() *ebiten.Image {
	if s.img == nil {
		s.img = ebiten.NewImageWithOptions(image.Rect(0, 0, sheetSize, sheetSize), &ebiten.NewImageOptions{Unmanaged: true})
		s.img.SubImage(image.Rect(0, 0, whiteSize, whiteSize)).(*ebiten.Image).Fill(hex(0xffffff).rgba())
		s.slots = map[spriteKey]spriteSlot{}
		s.pack = shelf{size: sheetSize}
		s.pack.reset(whiteSize + 1)
	}
	return s.img
}

// slot returns where the sprite for k is, drawing it first if need be;
// ok is false when the sheet is full (the caller flushes and resets).
func (s *spriteSheet) slot(k spriteKey) (spriteSlot, bool) {
	if sl, ok := s.slots[k]; ok {
		return sl, true
	}
	img := s.image()
	// Even, so that the shape's centre is a pixel corner.
	size := 2*int(math.Ceil(k.r+k.width/2)) + 2*spritePad
	x, y, ok := s.pack.place(size, size)
	if !ok {
		return spriteSlot{}, false
	}
	sl := spriteSlot{x, y, size}
	// Drawn with the canvas's own shapes from the small white image (a
	// sheet cannot be its own source), and not anti-aliased: the sheet
	// holds the shape at twice its size, and shrinking it smooths it.
	in := &canvas{dst: img.SubImage(image.Rect(x, y, x+size, y+size)).(*ebiten.Image), sc: 1, src: whiteSub, srcUV: 1}
	at := viz.Pt(float64(x+size/2), float64(y+size/2))
	white := hex(0xffffff)
	switch k.kind {
	case spriteDisc:
		in.disc(at, k.r, white)
	case spriteRing:
		in.ring(at, k.r, k.width, white)
	}
	in.flush()
	s.slots[k] = sl
	return sl, true
}

// clear empties the sheet but for its white corner.
func (s *spriteSheet) clear() {
	s.img.SubImage(image.Rect(0, whiteSize, sheetSize, sheetSize)).(*ebiten.Image).Clear()
	s.img.SubImage(image.Rect(whiteSize, 0, sheetSize, whiteSize)).(*ebiten.Image).Clear()
	clear(s.slots)
	s.pack.reset(whiteSize + 1)
	s.resets++
}

// sprite draws a white shape from the sheet centred at p, tinted clr: a
// disc of radius r, or a ring of radius r and width (in logical pixels).
// It looks as disc or ring would draw it, at the cost of one quad. The
// centre snaps to the nearest half device pixel, so that each device pixel
// samples the sheet where four of its pixels meet and takes their average,
// not a blur of more.
func (c *canvas) sprite(kind spriteKind, p viz.Point, r, width float64, clr colorF) {
	if r <= 0 || clr.a <= 0 {
		return
	}
	k := spriteScale * c.sc
	key := spriteKey{kind, math.Round(r*k*4) / 4, math.Round(width*k*4) / 4}
	if kind == spriteDisc {
		key.width = 0
	}
	sh := c.sheets()
	sl, ok := sh.slot(key)
	if !ok {
		// Full: what is batched still needs the old sprites.
		c.drawShapes()
		sh.clear()
		if sl, ok = sh.slot(key); !ok {
			c.disc(p, r, clr)
			return
		}
	}
	c.room(4)
	half := float32(sl.size) / (2 * spriteScale)
	cx, cy := float32(math.Round(p.X*c.sc*spriteScale)/spriteScale), float32(math.Round(p.Y*c.sc*spriteScale)/spriteScale)
	x0, y0, x1, y1 := cx-half, cy-half, cx+half, cy+half
	u0, v0 := float32(sl.x), float32(sl.y)
	u1, v1 := u0+float32(sl.size), v0+float32(sl.size)
	i0 := c.vertexUV(x0, y0, u0, v0, clr)
	i1 := c.vertexUV(x1, y0, u1, v0, clr)
	i2 := c.vertexUV(x1, y1, u1, v1, clr)
	i3 := c.vertexUV(x0, y1, u0, v1, clr)
	c.is = append(c.is, i0, i1, i2, i0, i2, i3)
}

// sheets returns the canvas's sprite sheet, made on first use.
func (c *canvas) sheets() *spriteSheet {
	if c.sheet == nil {
		c.sheet = &spriteSheet{}
	}
	return c.sheet
}
