package draw

import (
	"image/color"

	colors "raftlab/viz/palette"
)

// colorF is a straight-alpha colour.
type colorF struct{ r, g, b, a float32 }

func hex(v uint32) colorF { return toF(colors.Hex(v)) }

func toF(c colors.RGBA) colorF { return colorF{c.R, c.G, c.B, c.A} }

func (c colorF) rgba() color.RGBA {
	a := c.a
	if a < 0 {
		a = 0
	}
	if a > 1 {
		a = 1
	}
	return color.RGBA{uint8(c.r*a*255 + 0.5), uint8(c.g*a*255 + 0.5), uint8(c.b*a*255 + 0.5), uint8(a*255 + 0.5)}
}

// palette is a theme's colours (package palette).
type palette struct{ *colors.Palette }

func lightPalette() *palette { return &palette{colors.Resolve(colors.Light())} }

func darkPalette() *palette { return &palette{colors.Resolve(colors.Dark())} }
