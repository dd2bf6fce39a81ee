package fonts

import (
	"fmt"
	"testing"
)

// parseAndRead parses b and, if it parses, reads every outline and lays a
// line out, turning a panic into an error: a font that does not read must
// be an error, never a crash.
func parseAndRead(b []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	f, perr := parseSfnt(b)
	if perr != nil {
		return nil
	}
	for id := 0; id < f.numGlyphs; id++ {
		f.Outline(uint16(id))
	}
	var cells [64]cell
	f.shape(cells[:0], "AV Tea fi é\u200b\u2009 ✓", 13, nil)
	return nil
}

// TestDamagedFontsAreErrors: the font cut short anywhere, or with any of
// a spread of its 16-bit fields (counts, offsets, formats, glyph ids) set
// to 0 or to 0xffff, reads as an error or as a font, never as a panic.
func TestDamagedFontsAreErrors(t *testing.T) {
	src := MPlus1pRegularLatin
	tried := 0
	for cut := 0; cut < len(src); cut += 37 {
		tried++
		if err := parseAndRead(append([]byte(nil), src[:cut]...)); err != nil {
			t.Fatalf("cut to %d bytes: %v", cut, err)
		}
	}
	step := 2 * 13
	if testing.Short() {
		step = 2 * 61
	}
	for at := 0; at+2 <= len(src); at += step {
		for _, v := range []uint16{0, 0xffff} {
			b := append([]byte(nil), src...)
			b[at], b[at+1] = byte(v>>8), byte(v)
			tried++
			if err := parseAndRead(b); err != nil {
				t.Fatalf("bytes %d-%d set to %#x: %v", at, at+1, v, err)
			}
		}
	}
	t.Logf("%d damaged fonts read", tried)
}
