package svg

import (
	"bytes"
	"fmt"

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
}

// Paint writes frame f as a standalone SVG document of f.W × f.H.
func Paint(f *frame.Frame, o Options) []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s" font-family="%s, sans-serif" xml:space="preserve">`+"\n",
		num(f.W), num(f.H), num(f.W), num(f.H), fontFamily)
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
