package svg

import (
	"bytes"
	"fmt"

	"raftlab/viz"
	"raftlab/viz/frame"
	"raftlab/viz/paint"
	"raftlab/viz/palette"
)

// Options say how a frame is written.
type Options struct {
	// Title is the document's title, which screen readers and tooltips
	// use.
	Title string
	// Controls draws the frame's buttons, tabs and sliders. A poster
	// leaves them out: a still picture cannot be pressed. Chips and
	// toggles are drawn either way, as they say which setting is shown.
	Controls bool
	// NoFont leaves the font out of the document (much smaller; the
	// viewer's sans-serif is used, set to the same widths).
	NoFont bool
	// Region, when not empty, is the part of the frame the document
	// shows, at its own size (a picture of the stage or of one panel).
	Region viz.Rect
}

// Paint writes frame f as a standalone SVG document of f.W × f.H, or of
// o.Region of it.
func Paint(f *frame.Frame, o Options) []byte {
	var out bytes.Buffer
	view := viz.XYWH(0, 0, f.W, f.H)
	if !o.Region.Empty() {
		view = o.Region
	}
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="%s %s %s %s" width="%s" height="%s" font-family="%s, sans-serif" xml:space="preserve">`+"\n",
		num(view.X), num(view.Y), num(view.W), num(view.H), num(view.W), num(view.H), fontFamily)
	if o.Title != "" {
		fmt.Fprintf(&out, "<title>%s</title>\n", escaper.Replace(o.Title))
	}
	// Ligatures are turned off: printed, a ligature's glyph (fi, fl) has
	// no letters behind it, and the words could not be searched or
	// copied. Each label keeps its width all the same (see canvas.Text).
	style := "text{font-variant-ligatures:none}"
	if !o.NoFont {
		style += fontFace()
	}
	fmt.Fprintf(&out, "<style>%s</style>\n", style)
	p := paint.Painter{S: &canvas{out: &out}, P: palette.Resolve(palette.For(f.Theme)), NoControls: !o.Controls}
	p.Frame(f)
	out.WriteString("</svg>\n")
	return out.Bytes()
}
