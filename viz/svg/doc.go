// Package svg paints raftlab's frames as SVG documents: the same plain
// frame.Frame that package draw paints with Ebiten, drawn as vector shapes
// and real <text>, with no graphics library and no display.
//
// It follows package draw pass by pass, with the same colours (package
// palette), shapes, marks and widths, and the same font (package fonts),
// embedded in the document. Every label is set to the width the app laid
// it out with (fonts.Measure, which matches draw.Measure), so a word fits
// its button on paper exactly as on screen, whatever font the viewer
// ends up using. The output depends only on the frame: the same frame
// gives the same bytes, which is what lets committed posters be checked
// against the code (see package poster).
package svg
