package fonts

import (
	"encoding/binary"
	"fmt"
)

// The outlines of the font's glyphs, from its "glyf" table, as the
// segments a rasteriser fills. Package draw rasterises them itself, so
// that the app needs no text shaper at all (see raster.go); its pixels
// must stay what the graphics library's text package drew, so the
// segments are built the way that package's font reader builds them:
// points as float32 in font units, y up, moved by the difference between
// the glyph's left edge and its side bearing, and a contour that starts
// off the curve starting at the midpoint of its first two off-curve
// points.
// TestOutlinesMatchTheShaper holds the two to each other glyph by glyph.

// SegmentOp is what a segment does: move, a line, or a quadratic curve.
type SegmentOp uint8

const (
	MoveTo SegmentOp = iota
	LineTo
	QuadTo
)

// Point is a point of an outline.
type Point struct{ X, Y float32 }

// Segment is one step of an outline: MoveTo and LineTo use Args[0];
// QuadTo's control point is Args[0] and its end Args[1].
type Segment struct {
	Op   SegmentOp
	Args [2]Point
}

// glyfTables is where the outlines are: the glyf table's bytes and each
// glyph's range in it.
type glyfTables struct {
	glyf []byte
	loca []uint32 // numGlyphs+1 offsets into glyf
	lsb  []int16  // each glyph's left side bearing (hmtx)
}

// readGlyf reads the loca table (its format from head) and keeps the glyf
// table's bytes.
func readGlyf(r *reader, tables map[string]int, lengths map[string]int, numGlyphs, nMetric int) (glyfTables, error) {
	var g glyfTables
	glyfAt, ok1 := tables["glyf"]
	locaAt, ok2 := tables["loca"]
	if !ok1 || !ok2 {
		return g, fmt.Errorf("fonts: the font has no glyf or loca table")
	}
	glyfLen := lengths["glyf"]
	if glyfAt < 0 || glyfAt+glyfLen > len(r.b) {
		return g, fmt.Errorf("fonts: the glyf table runs past the end of the file")
	}
	g.glyf = r.b[glyfAt : glyfAt+glyfLen]
	long := r.u16(tables["head"]+50) != 0
	for i := 0; i <= numGlyphs; i++ {
		if long {
			g.loca = append(g.loca, r.u32(locaAt+4*i))
		} else {
			g.loca = append(g.loca, 2*uint32(r.u16(locaAt+2*i)))
		}
	}
	hmtx := tables["hmtx"]
	for i := 0; i < numGlyphs; i++ {
		if i < nMetric {
			g.lsb = append(g.lsb, int16(r.u16(hmtx+4*i+2)))
		} else {
			g.lsb = append(g.lsb, int16(r.u16(hmtx+4*nMetric+2*(i-nMetric))))
		}
	}
	return g, r.err
}

// contourPoint is a point of a glyph's contours as read.
type contourPoint struct {
	Point
	onCurve, endOfContour bool
}

// Outline returns glyph id's outline in font units, y up; nil for a glyph
// with no contours (a space) or one the font does not have.
func (f *sfnt) Outline(id uint16) ([]Segment, error) {
	pts, err := f.glyphPoints(id)
	if err != nil {
		return nil, err
	}
	return segmentsOf(pts), nil
}

// glyphPoints returns glyph id's contour points, moved so that the left
// edge its side bearing gives is at x 0.
func (f *sfnt) glyphPoints(id uint16) ([]contourPoint, error) {
	g := f.outlines
	if int(id)+1 >= len(g.loca) || int(id) >= len(g.lsb) {
		return nil, nil
	}
	start, end := g.loca[id], g.loca[id+1]
	if start >= end {
		return nil, nil // no outline
	}
	if end > uint32(len(g.glyf)) || end-start < 10 {
		return nil, fmt.Errorf("fonts: glyph %d lies outside the glyf table", id)
	}
	b := g.glyf[start:end]
	contours := int16(binary.BigEndian.Uint16(b))
	xMin := int16(binary.BigEndian.Uint16(b[2:]))
	left := float32(xMin - g.lsb[id])
	if contours < 0 {
		// The app's font has none (TestOutlinesMatchTheShaper reads
		// every glyph); a font that has them needs their parts put
		// together as the text package's reader does.
		return nil, fmt.Errorf("fonts: glyph %d is made of other glyphs, which this reader does not assemble", id)
	}
	pts, err := simpleGlyph(b, int(contours))
	if err != nil {
		return nil, fmt.Errorf("fonts: glyph %d: %w", id, err)
	}
	for i := range pts {
		pts[i].X += -left
	}
	return pts, nil
}

// simpleGlyph reads a glyph's own contours.
func simpleGlyph(b []byte, contours int) ([]contourPoint, error) {
	short := fmt.Errorf("its contours are cut short")
	at := 10
	if at+2*contours+2 > len(b) {
		return nil, short
	}
	ends := make([]int, contours)
	n := 0
	for i := range ends {
		ends[i] = int(binary.BigEndian.Uint16(b[at+2*i:]))
		n = ends[i] + 1
	}
	at += 2 * contours
	at += 2 + int(binary.BigEndian.Uint16(b[at:])) // instructions
	pts := make([]contourPoint, n)
	flags := make([]byte, n)
	for i := 0; i < n; {
		if at >= len(b) {
			return nil, short
		}
		fl := b[at]
		at++
		repeat := 0
		if fl&0x08 != 0 {
			if at >= len(b) {
				return nil, short
			}
			repeat = int(b[at])
			at++
		}
		for ; repeat >= 0 && i < n; repeat-- {
			flags[i] = fl
			i++
		}
	}
	coord := func(shortBit, sameBit byte, set func(i int, v int16)) error {
		v := int16(0)
		for i, fl := range flags {
			switch {
			case fl&shortBit != 0:
				if at >= len(b) {
					return short
				}
				d := int16(b[at])
				at++
				if fl&sameBit == 0 {
					d = -d
				}
				v += d
			case fl&sameBit == 0:
				if at+2 > len(b) {
					return short
				}
				v += int16(binary.BigEndian.Uint16(b[at:]))
				at += 2
			}
			set(i, v)
		}
		return nil
	}
	if err := coord(0x02, 0x10, func(i int, v int16) { pts[i].X = float32(v) }); err != nil {
		return nil, err
	}
	if err := coord(0x04, 0x20, func(i int, v int16) { pts[i].Y = float32(v) }); err != nil {
		return nil, err
	}
	for i, fl := range flags {
		pts[i].onCurve = fl&0x01 != 0
	}
	for _, e := range ends {
		if e < n {
			pts[e].endOfContour = true
		}
	}
	return pts, nil
}

// segmentsOf turns contour points into segments. Between two off-curve
// points lies an implied on-curve point halfway; a contour that starts
// off the curve starts at its first on-curve point, or at the implied
// one after its first off-curve point; every contour is closed back to
// where it started.
func segmentsOf(pts []contourPoint) []Segment {
	if len(pts) == 0 {
		return nil
	}
	mid := func(p, q Point) Point { return Point{(p.X + q.X) / 2, (p.Y + q.Y) / 2} }
	out := make([]Segment, 0, len(pts)+2)
	var start, firstOff, pending Point
	var started, haveFirstOff, havePending bool
	for _, cp := range pts {
		p := cp.Point
		switch {
		case !started && cp.onCurve:
			start, started = p, true
			out = append(out, Segment{Op: MoveTo, Args: [2]Point{p}})
		case !started && !haveFirstOff:
			firstOff, haveFirstOff = p, true
		case !started:
			start, started = mid(firstOff, p), true
			pending, havePending = p, true
			out = append(out, Segment{Op: MoveTo, Args: [2]Point{start}})
		case !havePending && !cp.onCurve:
			pending, havePending = p, true
		case !havePending:
			out = append(out, Segment{Op: LineTo, Args: [2]Point{p}})
		case !cp.onCurve:
			out = append(out, Segment{Op: QuadTo, Args: [2]Point{pending, mid(pending, p)}})
			pending = p
		default:
			out = append(out, Segment{Op: QuadTo, Args: [2]Point{pending, p}})
			havePending = false
		}
		if !cp.endOfContour {
			continue
		}
		switch {
		case !haveFirstOff && !havePending:
			out = append(out, Segment{Op: LineTo, Args: [2]Point{start}})
		case !haveFirstOff:
			out = append(out, Segment{Op: QuadTo, Args: [2]Point{pending, start}})
		case !havePending:
			out = append(out, Segment{Op: QuadTo, Args: [2]Point{firstOff, start}})
		default:
			out = append(out,
				Segment{Op: QuadTo, Args: [2]Point{pending, mid(pending, firstOff)}},
				Segment{Op: QuadTo, Args: [2]Point{firstOff, start}})
		}
		started, haveFirstOff, havePending = false, false, false
	}
	return out
}
