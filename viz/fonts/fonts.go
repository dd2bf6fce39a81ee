// Package fonts holds the one font raftlab draws text with, M+ 1p Regular
// cut down to the characters the app writes, and what the painters need
// of it: widths (measure.go), lines laid out as glyphs and the glyphs
// filled as images (raster.go) from the font's own tables (sfnt.go,
// glyf.go).
//
// The font is the M+ 1p that Ebiten ships in its examples/resources/fonts
// package, which holds some fifteen thousand glyphs for Japanese as well
// as Latin. The app writes only Latin text and a few symbols, and the
// whole font was 1.66 MB of every download and a third of a second of
// parsing before the first frame in the browser. This subset keeps
// printable ASCII, Latin-1, general punctuation, arrows, the comparison
// signs, check marks and a few geometric shapes, with the font's own
// kerning and layout features for them. `make font` makes it again from
// Ebiten's copy (it needs pyftsubset, from the Debian package fonttools);
// LICENSE.md is the font's licence.
package fonts

import _ "embed"

// MPlus1pRegularLatin is the subset of M+ 1p Regular, as a TrueType file.
//
//go:embed mplus-1p-regular-latin.ttf
var MPlus1pRegularLatin []byte
