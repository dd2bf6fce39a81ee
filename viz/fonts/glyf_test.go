package fonts

import (
	"bytes"
	"testing"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/font/opentype"
	"github.com/stretchr/testify/require"
)

// TestOutlinesMatchTheShaper: every glyph's outline, as this package reads
// it, is segment for segment and bit for bit the outline the graphics
// library's text package rasterised (it reads fonts with go-text's
// reader), so that the glyphs the app fills itself are the same pixels.
func TestOutlinesMatchTheShaper(t *testing.T) {
	ref, err := font.ParseTTF(bytes.NewReader(MPlus1pRegularLatin))
	require.NoError(t, err)
	f := face()
	ops := map[opentype.SegmentOp]SegmentOp{opentype.SegmentOpMoveTo: MoveTo, opentype.SegmentOpLineTo: LineTo, opentype.SegmentOpQuadTo: QuadTo}
	withOutline, composite := 0, 0
	for id := 0; id < f.numGlyphs; id++ {
		got, err := f.Outline(uint16(id))
		require.NoError(t, err, "glyph %d", id)
		var want []opentype.Segment
		if o, ok := ref.GlyphData(font.GID(id)).(font.GlyphOutline); ok {
			want = o.Segments
		}
		require.Len(t, got, len(want), "glyph %d: segments", id)
		if len(got) > 0 {
			withOutline++
		}
		if b := f.outlines.glyf[f.outlines.loca[id]:f.outlines.loca[id+1]]; len(b) >= 2 && int16(uint16(b[0])<<8|uint16(b[1])) < 0 {
			composite++
		}
		for i, w := range want {
			op, ok := ops[w.Op]
			require.True(t, ok, "glyph %d segment %d: op %v", id, i, w.Op)
			require.Equal(t, op, got[i].Op, "glyph %d segment %d", id, i)
			n := 1
			if op == QuadTo {
				n = 2
			}
			for j := 0; j < n; j++ {
				require.Equal(t, Point{w.Args[j].X, w.Args[j].Y}, got[i].Args[j], "glyph %d segment %d point %d", id, i, j)
			}
		}
	}
	t.Logf("%d glyphs, %d with an outline, %d composite", f.numGlyphs, withOutline, composite)
	require.Greater(t, withOutline, 150)
}

// TestRasterizeAppends: a glyph's pixels are appended after what the
// buffer held, the same whatever it held, and a glyph drawn after another
// (the rasteriser is reused) is what it is alone.
func TestRasterizeAppends(t *testing.T) {
	gs, _ := Glyphs(nil, "Wg", 13)
	require.Len(t, gs, 2)
	w, h, alone := Rasterize(nil, gs[1].Key)
	require.Equal(t, 4*w*h, len(alone))
	require.Equal(t, gs[1].W, w)
	require.Equal(t, gs[1].H, h)
	_, _, first := Rasterize(nil, gs[0].Key)
	_, _, after := Rasterize([]byte("kept"), gs[1].Key)
	require.Equal(t, "kept", string(after[:4]))
	require.Equal(t, alone, after[4:])
	require.NotEqual(t, first, alone)
	ink := 0
	for i := 3; i < len(alone); i += 4 {
		require.Equal(t, alone[i], alone[i-3], "pixel %d is not white at its coverage", i/4)
		if alone[i] > 0 {
			ink++
		}
	}
	require.Greater(t, ink, 20)
	_, _, none := Rasterize([]byte("x"), GlyphKey{ID: face().glyph(' '), Size: 13})
	require.Equal(t, "x", string(none))
}
