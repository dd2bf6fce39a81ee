package svg

import (
	"encoding/base64"
	"fmt"
	"strings"

	"raftlab/viz/fonts"
	"raftlab/viz/frame"
	"raftlab/viz/palette"
)

// fontFamily names the embedded font inside a document.
const fontFamily = "raftlab-mplus"

// fontFace is the @font-face rule that embeds the app's font, so that the
// poster shows the same letters as the live figure, in print too.
func fontFace() string {
	return fmt.Sprintf("@font-face{font-family:%s;src:url(data:font/ttf;base64,%s) format(\"truetype\")}",
		fontFamily, base64.StdEncoding.EncodeToString(fonts.MPlus1pRegularLatin))
}

var escaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// text holds back a label, to be written above the pass's shapes. Its
// line box's top-left is at t.X, t.Y (its centre with t.Center), as in
// package draw; it is set to the width the app measured it at.
func (c *canvas) Text(t frame.TextItem, clr palette.RGBA) {
	if strings.TrimSpace(t.Text) == "" || clr.A <= 0 || t.Size <= 0 {
		return
	}
	w := fonts.Measure(t.Text, t.Size)
	ascent, descent := fonts.Extents(t.Size)
	x, top := t.X, t.Y
	if t.Center {
		x, top = t.X-w/2, t.Y-(ascent+descent)/2
	}
	fmt.Fprintf(&c.texts, `<text x="%s" y="%s" font-size="%s" textLength="%s" lengthAdjust="spacingAndGlyphs" %s`,
		num(x), num(top+ascent), num(t.Size), num(w), colour(clr, "fill"))
	if t.Bold {
		// The font has no bold face; package draw draws the glyphs twice,
		// a little apart, and the viewer's synthetic bold looks the same
		// (an outline of the same colour would look so too, but printed it
		// becomes a second copy of the words).
		c.texts.WriteString(` font-weight="bold"`)
	}
	fmt.Fprintf(&c.texts, ">%s</text>\n", escaper.Replace(t.Text))
}
