package fonts

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// sfnt holds what laying text out and drawing it needs from a TrueType
// file: the glyph of each character, each glyph's advance, the vertical
// extents, the pair kerning of the font's "kern" feature, its ligatures
// and its glyphs' outlines. It reads the tables with the standard library
// only, so that text can be measured where the graphics library cannot be
// loaded (a poster made on a machine with no display).
type sfnt struct {
	upem               int32
	ascent, descent    int16 // hhea, font units (descent is negative)
	cmap               map[rune]uint16
	latin              [256]uint16 // cmap's first 256 characters, looked up without the map
	advances           []uint16
	kern               []pairLookup
	ligatures          []ligatureLookup
	numGlyphs, nMetric int
	outlines           glyfTables
}

// pairLookup is one GPOS pair-adjustment lookup: its subtables in order.
type pairLookup []pairSubtable

// pairSubtable is a PairPos subtable, format 1 (glyph pairs) or 2 (class
// pairs), reduced to the first glyph's advance change.
// The tables indexed by glyph are slices, not maps: a line is laid out
// glyph by glyph, and in the browser, before its code is optimised, a map
// lookup per pair was most of measuring the words of the first frame.
type pairSubtable struct {
	covered []bool // by glyph
	// Format 1: the second glyphs and the change for each, per first glyph.
	pairs map[uint16]map[uint16]int16
	// Format 2: each glyph's class (first and second glyph) and the change
	// per class pair.
	class1, class2 []uint16
	n2             int
	byClass        []int16
}

// classOf is glyph g's class in a class table (0 if it is not listed).
func classOf(classes []uint16, g uint16) int {
	if int(g) < len(classes) {
		return int(classes[g])
	}
	return 0
}

// apply returns the first glyph's advance change for the pair and whether
// the subtable took the pair (HarfBuzz then tries no later subtable).
func (s *pairSubtable) apply(a, b uint16) (int16, bool) {
	if int(a) >= len(s.covered) || !s.covered[a] {
		return 0, false
	}
	if s.pairs != nil {
		v, ok := s.pairs[a][b]
		return v, ok
	}
	c1, c2 := classOf(s.class1, a), classOf(s.class2, b)
	i := c1*s.n2 + c2
	if c2 >= s.n2 || i >= len(s.byClass) {
		return 0, false
	}
	return s.byClass[i], true
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) u16(off int) uint16 {
	if off < 0 || off+2 > len(r.b) {
		r.fail(off)
		return 0
	}
	return binary.BigEndian.Uint16(r.b[off:])
}

func (r *reader) u32(off int) uint32 {
	if off < 0 || off+4 > len(r.b) {
		r.fail(off)
		return 0
	}
	return binary.BigEndian.Uint32(r.b[off:])
}

func (r *reader) fail(off int) {
	if r.err == nil {
		r.err = fmt.Errorf("fonts: a table reads past the end of the file at byte %d", off)
	}
}

// parseSfnt reads the tables laying out and drawing text need.
func parseSfnt(b []byte) (*sfnt, error) {
	r := &reader{b: b}
	tables, lengths := map[string]int{}, map[string]int{}
	n := int(r.u16(4))
	for i := 0; i < n; i++ {
		rec := 12 + 16*i
		if rec+16 > len(b) {
			return nil, fmt.Errorf("fonts: the table directory is cut short")
		}
		tables[string(b[rec:rec+4])] = int(r.u32(rec + 8))
		lengths[string(b[rec:rec+4])] = int(r.u32(rec + 12))
	}
	for _, t := range []string{"head", "hhea", "hmtx", "maxp", "cmap"} {
		if _, ok := tables[t]; !ok {
			return nil, fmt.Errorf("fonts: the font has no %s table", t)
		}
	}
	f := &sfnt{upem: int32(r.u16(tables["head"] + 18))}
	hhea := tables["hhea"]
	f.ascent, f.descent = int16(r.u16(hhea+4)), int16(r.u16(hhea+6))
	f.nMetric = int(r.u16(hhea + 34))
	f.numGlyphs = int(r.u16(tables["maxp"] + 4))
	hmtx := tables["hmtx"]
	for i := 0; i < f.nMetric; i++ {
		f.advances = append(f.advances, r.u16(hmtx+4*i))
	}
	f.cmap = readCmap(r, tables["cmap"])
	for c := range f.latin {
		f.latin[c] = f.cmap[rune(c)]
	}
	if gpos, ok := tables["GPOS"]; ok {
		f.kern = readKern(r, gpos)
	}
	if gsub, ok := tables["GSUB"]; ok {
		f.ligatures = readLigatures(r, gsub)
	}
	if r.err != nil {
		return nil, r.err
	}
	var err error
	if f.outlines, err = readGlyf(r, tables, lengths, f.numGlyphs, f.nMetric); err != nil {
		return nil, err
	}
	if f.upem == 0 || f.nMetric == 0 {
		return nil, fmt.Errorf("fonts: the font has no units per em or no advances")
	}
	return f, nil
}

// readCmap reads the Unicode subtable (format 12 preferred, else 4).
func readCmap(r *reader, at int) map[rune]uint16 {
	m := map[rune]uint16{}
	n := int(r.u16(at + 2))
	best, bestFormat := -1, uint16(0)
	for i := 0; i < n; i++ {
		rec := at + 4 + 8*i
		platform, encoding := r.u16(rec), r.u16(rec+2)
		sub := at + int(r.u32(rec+4))
		format := r.u16(sub)
		unicode := platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))
		if unicode && (format == 12 || (format == 4 && bestFormat != 12)) {
			best, bestFormat = sub, format
		}
	}
	switch bestFormat {
	case 12:
		groups := int(r.u32(best + 12))
		for g := 0; g < groups && r.err == nil; g++ {
			rec := best + 16 + 12*g
			start, end, glyph := r.u32(rec), r.u32(rec+4), r.u32(rec+8)
			for c := start; c <= end && c-start < 0x10000; c++ {
				m[rune(c)] = uint16(glyph + c - start)
			}
		}
	case 4:
		segs := int(r.u16(best+6)) / 2
		ends := best + 14
		starts := ends + 2*segs + 2
		deltas := starts + 2*segs
		ranges := deltas + 2*segs
		for s := 0; s < segs && r.err == nil; s++ {
			end, start := r.u16(ends+2*s), r.u16(starts+2*s)
			delta, ro := r.u16(deltas+2*s), r.u16(ranges+2*s)
			for c := uint32(start); c <= uint32(end) && c != 0xffff; c++ {
				var g uint16
				if ro == 0 {
					g = uint16(c) + delta
				} else {
					g = r.u16(ranges + 2*s + int(ro) + 2*int(uint16(c)-start))
					if g != 0 {
						g += delta
					}
				}
				if g != 0 {
					m[rune(c)] = g
				}
			}
		}
	}
	return m
}

// featureLookups calls each for every subtable of the lookups of the
// table's features named in tags, lookup by lookup in lookup order (the
// order HarfBuzz applies them in), with the subtable's type (an extension
// subtable resolved to the one it points to), and end after each lookup.
func featureLookups(r *reader, table int, tags map[string]bool, extension uint16, each func(kind uint16, sub int), end func()) {
	features := table + int(r.u16(table+6))
	lookups := table + int(r.u16(table+8))
	use := map[int]bool{}
	for i, n := 0, int(r.u16(features)); i < n; i++ {
		rec := features + 2 + 6*i
		if rec < 0 || rec+4 > len(r.b) {
			r.fail(rec)
			return
		}
		if !tags[string(r.b[rec:rec+4])] {
			continue
		}
		ft := features + int(r.u16(rec+4))
		for k, m := 0, int(r.u16(ft+2)); k < m; k++ {
			use[int(r.u16(ft+4+2*k))] = true
		}
	}
	var order []int
	for i := range use {
		order = append(order, i)
	}
	sort.Ints(order)
	for _, li := range order {
		lk := lookups + int(r.u16(lookups+2+2*li))
		kind := r.u16(lk)
		for s, n := 0, int(r.u16(lk+4)); s < n && r.err == nil; s++ {
			sub := lk + int(r.u16(lk+6+2*s))
			k := kind
			if k == extension { // the real subtable is further on
				k = r.u16(sub + 2)
				sub += int(r.u32(sub + 4))
			}
			each(k, sub)
		}
		end()
	}
}

// readKern reads the pair-adjustment lookups of the GPOS "kern" feature.
func readKern(r *reader, gpos int) []pairLookup {
	var out []pairLookup
	var l pairLookup
	featureLookups(r, gpos, map[string]bool{"kern": true}, 9, func(kind uint16, sub int) {
		if kind != 2 {
			return
		}
		if st, ok := readPairPos(r, sub); ok {
			l = append(l, st)
		}
	}, func() {
		if len(l) > 0 {
			out = append(out, l)
		}
		l = nil
	})
	return out
}

// ligatureLookup is one GSUB ligature lookup: for each first glyph (by
// glyph), the ligatures that start with it, in the order they are tried.
type ligatureLookup [][]ligature

// startingWith is the ligatures that start with glyph g.
func (l ligatureLookup) startingWith(g uint16) []ligature {
	if int(g) < len(l) {
		return l[g]
	}
	return nil
}

type ligature struct {
	glyph uint16
	rest  []uint16 // the components after the first
}

// readLigatures reads the ligature lookups of the features HarfBuzz turns
// on by default for Latin text that can join glyphs.
func readLigatures(r *reader, gsub int) []ligatureLookup {
	var out []ligatureLookup
	var l ligatureLookup
	tags := map[string]bool{"ccmp": true, "rlig": true, "liga": true, "clig": true}
	featureLookups(r, gsub, tags, 7, func(kind uint16, sub int) {
		if kind != 4 || r.u16(sub) != 1 {
			return
		}
		cov := readCoverage(r, sub+int(r.u16(sub+2)))
		for i, n := 0, int(r.u16(sub+4)); i < n && i < len(cov); i++ {
			set := sub + int(r.u16(sub+6+2*i))
			for k, m := 0, int(r.u16(set)); k < m; k++ {
				lig := set + int(r.u16(set+2+2*k))
				g := ligature{glyph: r.u16(lig)}
				for c, cn := 1, int(r.u16(lig+2)); c < cn; c++ {
					g.rest = append(g.rest, r.u16(lig+2+2*c))
				}
				if int(cov[i]) >= len(l) {
					l = append(l, make([][]ligature, int(cov[i])+1-len(l))...)
				}
				l[cov[i]] = append(l[cov[i]], g)
			}
		}
	}, func() {
		if len(l) > 0 {
			out = append(out, l)
		}
		l = nil
	})
	return out
}

// glyph is character c's glyph (0, the font's "missing" glyph, if it has
// none).
func (f *sfnt) glyph(c rune) uint16 {
	if c >= 0 && c < rune(len(f.latin)) {
		return f.latin[c]
	}
	return f.cmap[c]
}

// substitute joins the glyphs the ligature lookups join, lookup by lookup,
// in place (a ligature only ever shortens the run). Only glyphs of the
// font's own join, not stretched spaces; hidden characters between the
// parts are passed over and come after the ligature, but for the
// non-joiner, which keeps its neighbours apart.
func (f *sfnt) substitute(cells []cell) []cell {
	var skipped []cell
	for _, l := range f.ligatures {
		w := 0
		for i := 0; i < len(cells); {
			took := false
			if c := cells[i]; c.adv < 0 && !c.hidden {
				for _, lig := range l.startingWith(c.id) {
					if end, ok := matchParts(cells, i+1, lig.rest); ok {
						skipped = skipped[:0]
						for _, h := range cells[i+1 : end] {
							if h.hidden {
								skipped = append(skipped, h)
							}
						}
						cells[w] = cell{id: lig.glyph, adv: -1}
						w++
						w += copy(cells[w:], skipped)
						i = end
						took = true
						break
					}
				}
			}
			if !took {
				cells[w] = cells[i]
				w++
				i++
			}
		}
		cells = cells[:w]
	}
	return cells
}

// matchParts reports whether the cells from at on hold the glyphs parts,
// hidden characters (not a non-joiner) passed over, and where the match
// ends.
func matchParts(cells []cell, at int, parts []uint16) (int, bool) {
	for _, g := range parts {
		for at < len(cells) && cells[at].hidden && !cells[at].nonJoiner {
			at++
		}
		if at >= len(cells) {
			return 0, false
		}
		if c := cells[at]; c.adv >= 0 || c.hidden || c.id != g {
			return 0, false
		}
		at++
	}
	return at, true
}

func valueSize(vf uint16) int {
	n := 0
	for b := vf; b != 0; b &= b - 1 {
		n++
	}
	return 2 * n
}

// xAdvance reads the XAdvance field of a value record, if it has one.
func xAdvance(r *reader, at int, vf uint16) int16 {
	if vf&0x4 == 0 {
		return 0
	}
	off := 0
	if vf&0x1 != 0 {
		off += 2
	}
	if vf&0x2 != 0 {
		off += 2
	}
	return int16(r.u16(at + off))
}

func readPairPos(r *reader, at int) (pairSubtable, bool) {
	format := r.u16(at)
	cov := readCoverage(r, at+int(r.u16(at+2)))
	vf1, vf2 := r.u16(at+4), r.u16(at+6)
	s1, s2 := valueSize(vf1), valueSize(vf2)
	st := pairSubtable{}
	for _, g := range cov {
		if int(g) >= len(st.covered) {
			st.covered = append(st.covered, make([]bool, int(g)+1-len(st.covered))...)
		}
		st.covered[g] = true
	}
	switch format {
	case 1:
		st.pairs = map[uint16]map[uint16]int16{}
		for i, n := 0, int(r.u16(at+8)); i < n && i < len(cov); i++ {
			set := at + int(r.u16(at+10+2*i))
			m := map[uint16]int16{}
			for k, c := 0, int(r.u16(set)); k < c; k++ {
				rec := set + 2 + k*(2+s1+s2)
				m[r.u16(rec)] = xAdvance(r, rec+2, vf1)
			}
			st.pairs[cov[i]] = m
		}
	case 2:
		st.class1 = readClassDef(r, at+int(r.u16(at+8)))
		st.class2 = readClassDef(r, at+int(r.u16(at+10)))
		n1, n2 := int(r.u16(at+12)), int(r.u16(at+14))
		st.n2 = n2
		for i := 0; i < n1*n2; i++ {
			st.byClass = append(st.byClass, xAdvance(r, at+16+i*(s1+s2), vf1))
		}
	default:
		return st, false
	}
	return st, r.err == nil
}

// readCoverage returns the glyphs of a coverage table in coverage order.
func readCoverage(r *reader, at int) []uint16 {
	var out []uint16
	switch r.u16(at) {
	case 1:
		for i, n := 0, int(r.u16(at+2)); i < n; i++ {
			out = append(out, r.u16(at+4+2*i))
		}
	case 2:
		for i, n := 0, int(r.u16(at+2)); i < n && r.err == nil; i++ {
			rec := at + 4 + 6*i
			for g := uint32(r.u16(rec)); g <= uint32(r.u16(rec+2)); g++ {
				out = append(out, uint16(g))
			}
		}
	}
	return out
}

// readClassDef returns each glyph's class, by glyph (glyphs past the end
// or not listed are class 0).
func readClassDef(r *reader, at int) []uint16 {
	var classes []uint16
	set := func(g uint16, c uint16) {
		if int(g) >= len(classes) {
			classes = append(classes, make([]uint16, int(g)+1-len(classes))...)
		}
		classes[g] = c
	}
	switch r.u16(at) {
	case 1:
		start := r.u16(at + 2)
		for i, n := 0, int(r.u16(at+4)); i < n && r.err == nil; i++ {
			set(start+uint16(i), r.u16(at+6+2*i))
		}
	case 2:
		for i, n := 0, int(r.u16(at+2)); i < n && r.err == nil; i++ {
			rec := at + 4 + 6*i
			for g := uint32(r.u16(rec)); g <= uint32(r.u16(rec+2)); g++ {
				set(uint16(g), r.u16(rec+4))
			}
		}
	}
	return classes
}
