package draw

import (
	"image"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/frame"
	"raftlab/viz/paint"
)

// keptScreen lets a frame repaint only the pixels that changed. The game
// leaves Ebiten's screen uncleared between frames
// (SetScreenClearedEveryFrame(false)), so the screen still holds the last
// frame when the next one is painted.
//
// Where WebGL is drawn in software, as in most browsers without a GPU, a
// frame costs about as much as the pixels it fills. While a run plays,
// what moves is small: message dots, the timers' arcs, the clock and the
// timeline's cursor. So a frame is recorded (see recorder) and compared
// with the last one, operation by operation: the pixels that may differ
// are those of the operations in one frame and not the other, and of those
// drawn in a different order relative to the rest. The screen is cut into
// tiles; the tiles those pixels touch are filled with the background, and
// every operation that reaches into them is drawn again there, clipped to
// them, in the frame's order. Everywhere else the screen already shows
// what the same operations in the same order painted last frame.
type keptScreen struct {
	valid bool // the screen holds the last frame, recorded in last
	dst   *ebiten.Image
	size  image.Point
	pal   *palette
	sc    float64
	// sheetResets is how often the sprite sheet had started over when
	// the screen was painted.
	sheetResets int
	// cur is the frame being painted, last the one before.
	cur, last recorder
	// heads maps a key's hash to the first of last's operations with that
	// hash not yet taken, in drawing order (the rest follow through
	// op.next).
	heads map[uint64]int32
	// damaged are the rectangles to repaint, as found; tiles marks the
	// tiles they touch, and rects are those joined into rectangles.
	damaged []image.Rectangle
	tiles   []bool
	rects   []image.Rectangle
	// whole and partly count frames painted each way, filled the pixels
	// filled with the background, and repaints the rectangles repainted
	// (for tests and benchmarks).
	whole, partly    int
	filled, repaints int
}

// tileSize is the side of a tile, in device pixels. Smaller tiles repaint
// fewer pixels around a moving dot but make more rectangles, each a few
// draw calls. Five machines playing at 1280x800 repaint about 63,000
// pixels a frame in 16 rectangles with tiles of 16 alone, 90,000 in 12
// with tiles of 32, and 69,000 in 15 with coarseTileSize taking the
// frames that would make too many (TestKeptScreenPaintsWhatPaintingWholeDoes
// logs it). In
// Chromium under SwiftShader tiles of 16 drew more frames a second than
// tiles of 8, and than tiles of 32, in three windows of four each
// (BENCHMARKS.md, "Frames per second without a GPU").
const tileSize = 16

// wholeShare is the share of the screen to repaint above which a frame is
// painted whole: in one pass, not in pieces.
const wholeShare = 0.6

// invalidate makes the next frame paint everything.
func (k *keptScreen) invalidate() { k.valid = false }

// usable says whether the screen still holds the last frame as painted,
// at the same size, scale and palette. Another screen image, or one of
// another size, is a screen that holds nothing yet: Ebiten hands Draw a
// new one on a resize and when clearing every frame is turned on or off,
// and a screen that lost its pixels some other way is reported through
// invalidate (Game.Invalidate).
func (k *keptScreen) usable(dst *ebiten.Image, p *palette, sc float64) bool {
	return k.valid && k.dst == dst && k.size == dst.Bounds().Size() && k.pal == p && k.sc == sc
}

// paintFrame paints the frame: it records it, then has the executor draw
// only what changed when the screen keeps the last frame (see
// keptScreen), everything otherwise.
func (c *canvas) paintFrame(f *frame.Frame, p *palette) {
	c.calls, c.verts = 0, 0
	k := c.kept
	if k == nil {
		// A canvas that keeps nothing paints every frame whole, and
		// records it all the same.
		c.record(&c.rec, f, p)
		c.execute(&c.rec, c.dst.Bounds(), toF(p.BG))
		return
	}
	rec := &k.cur
	c.record(rec, f, p)
	screen := c.dst.Bounds()
	sheet := c.sheets()
	partly := k.usable(c.dst, p, c.sc) && k.sheetResets == sheet.resets && k.findDamage(screen)
	if partly {
		for _, r := range k.rects {
			k.filled += area(r)
			c.execute(rec, r, toF(p.BG))
		}
		k.repaints += len(k.rects)
		// A message dot is sampled from its sprite's place in the sheet,
		// and where that is shifts its edge pixels by a level: a sheet
		// that started over, moving the sprites, would leave repainted
		// dots a level apart from what is kept around them.
		partly = k.sheetResets == sheet.resets
	}
	if partly {
		k.partly++
	} else {
		k.filled += area(screen)
		c.execute(rec, screen, toF(p.BG))
		k.whole++
	}
	k.valid = true
	k.dst, k.size, k.pal, k.sc, k.sheetResets = c.dst, screen.Size(), p, c.sc, sheet.resets
	k.cur, k.last = k.last, k.cur
	k.index()
}

// record records the frame's cluster, logs, panels and chrome, in the
// order they are painted.
func (c *canvas) record(rec *recorder, f *frame.Frame, p *palette) {
	rec.begin(c)
	pt := paint.Painter{S: rec, P: p.Palette}
	t0 := time.Now()
	pt.Cluster(f)
	t1 := time.Now()
	pt.Logs(f)
	t2 := time.Now()
	for i := range f.Panels {
		pt.Panel(&f.Panels[i])
	}
	c.clusterUs, c.panelsUs = t1.Sub(t0).Microseconds(), time.Since(t2).Microseconds()
	pt.Chrome(f)
	rec.end()
}

// findDamage compares the frame just recorded with the last and notes in
// rects the tiles to repaint. It reports false when the frame is better
// painted whole.
func (k *keptScreen) findDamage(screen image.Rectangle) bool {
	cur, last := &k.cur, &k.last
	for i := range last.ops {
		last.ops[i].matched = false
	}
	k.damaged = k.damaged[:0]
	// Walk this frame in drawing order, matching each operation with the
	// first unmatched one of the last frame with the same key. Those
	// matched in increasing order of the last frame's drawing are drawn
	// in the same order relative to each other; any other is new, gone or
	// moved in the order, and its pixels are to be repainted.
	kept := int32(-1)
	for _, i := range cur.order {
		o := &cur.ops[i]
		if prev := k.take(o); prev != nil {
			// A Fan's or an Outline's key holds a hash of its points:
			// equal keys with other points are not the same shape.
			same := o.to-o.from == prev.to-prev.from &&
				slices.Equal(cur.pts[o.from:o.to], last.pts[prev.from:prev.to])
			if same && prev.pos > kept {
				kept = prev.pos
				continue
			}
			k.damage(prev.bounds, screen)
		}
		k.damage(o.bounds, screen)
	}
	for _, j := range last.order {
		if o := &last.ops[j]; !o.matched {
			k.damage(o.bounds, screen)
		}
	}
	// Many scattered changes (hundreds of message dots) make many small
	// rectangles, each a few draw calls: coarser tiles make fewer.
	for _, size := range [...]int{tileSize, coarseTileSize} {
		share := k.cover(screen, size)
		if share >= wholeShare {
			return false
		}
		if len(k.rects) <= maxRects {
			return true
		}
	}
	return false
}

// maxRects is the most rectangles a frame repaints at tileSize before it
// tries coarseTileSize, and the most at that before it is painted whole.
const (
	maxRects       = 24
	coarseTileSize = 4 * tileSize
)

// damage notes that the pixels of r (within the screen) are to be
// repainted.
func (k *keptScreen) damage(r image.Rectangle, screen image.Rectangle) {
	if r = r.Intersect(screen); !r.Empty() {
		k.damaged = append(k.damaged, r)
	}
}

// cover makes rects the tiles of side size that the damaged rectangles
// touch, joined into rectangles, and returns the share of the screen they
// cover.
func (k *keptScreen) cover(screen image.Rectangle, size int) float64 {
	cols, rows := (screen.Dx()+size-1)/size, (screen.Dy()+size-1)/size
	k.tiles = append(k.tiles[:0], make([]bool, cols*rows)...)
	for _, r := range k.damaged {
		r = r.Sub(screen.Min)
		for y := r.Min.Y / size; y <= (r.Max.Y-1)/size; y++ {
			for x := r.Min.X / size; x <= (r.Max.X-1)/size; x++ {
				k.tiles[y*cols+x] = true
			}
		}
	}
	// Join the tiles of a row into runs, and a run into the rectangle of
	// the row above when it spans the same columns.
	k.rects = k.rects[:0]
	marked := 0
	for y := range rows {
		for x := 0; x < cols; {
			if !k.tiles[y*cols+x] {
				x++
				continue
			}
			x0 := x
			for x < cols && k.tiles[y*cols+x] {
				x++
			}
			marked += x - x0
			r := image.Rect(x0*size, y*size, x*size, (y+1)*size).Add(screen.Min).Intersect(screen)
			joined := false
			for n := len(k.rects) - 1; n >= 0; n-- {
				a := &k.rects[n]
				if a.Max.Y < r.Min.Y {
					break
				}
				if a.Max.Y == r.Min.Y && a.Min.X == r.Min.X && a.Max.X == r.Max.X {
					a.Max.Y = r.Max.Y
					joined = true
					break
				}
			}
			if !joined {
				k.rects = append(k.rects, r)
			}
		}
	}
	return float64(marked) / float64(cols*rows)
}

// take returns the first of the last frame's operations, in drawing
// order, with o's key that no operation of this frame has taken, and
// marks it taken; nil if there is none.
func (k *keptScreen) take(o *op) *op {
	last := &k.last
	head, ok := k.heads[o.hash]
	if !ok {
		return nil
	}
	// Those taken at the head of a chain leave it, so that a run of
	// operations with one key is taken one step at a time.
	j := head
	for j >= 0 && last.ops[j].matched {
		j = last.ops[j].next
	}
	if j != head {
		k.heads[o.hash] = j
	}
	// Keys that share a hash share the chain.
	for ; j >= 0; j = last.ops[j].next {
		if p := &last.ops[j]; !p.matched && p.key == o.key {
			p.matched = true
			return p
		}
	}
	return nil
}

// index makes heads for the frame just painted (now last), for the next
// frame to match against.
func (k *keptScreen) index() {
	if k.heads == nil {
		k.heads = map[uint64]int32{}
	}
	clear(k.heads)
	last := &k.last
	for n := len(last.order) - 1; n >= 0; n-- {
		i := last.order[n]
		o := &last.ops[i]
		o.next = -1
		if j, ok := k.heads[o.hash]; ok {
			o.next = j
		}
		k.heads[o.hash] = i
	}
}

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }
