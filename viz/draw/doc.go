// Package draw paints raftlab's frames with Ebiten and feeds the reader's
// mouse, touch and keys back to the app.
//
// All decisions live in package app: this package only turns a frame.Frame
// into shapes and text, and Ebiten's input into app calls. Game keeps
// Update and Draw thin, and draws nothing while the frame has not changed
// (the screen is not cleared between frames), so a paused figure costs
// next to nothing. A frame that changed is recorded as a list of drawing
// operations (record.go), compared with the last frame's list, and drawn by
// one executor only where it changed (retain.go, execute.go).
//
// Text is the M+ 1p font that Ebiten ships in its examples/resources/fonts
// package, cut down to the characters the app writes (package fonts),
// which also lays labels out and fills each glyph's outline; this package
// copies the glyphs into an atlas of its own and draws each pass's text in
// one call (font.go). It does not use Ebiten's text/v2: its shaper was an
// eighth of the download and most of the first frame's time in the
// browser, for a font whose shaping is advances, pair kerning and a few
// ligatures. The pixels are those text/v2 drew (TestGlyphsMatchTheTextPackage).
package draw
