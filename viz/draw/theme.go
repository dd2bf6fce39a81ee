package draw

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/app"
	colors "raftlab/viz/palette"
)

// colorF is a straight-alpha colour.
type colorF struct{ r, g, b, a float32 }

func hex(v uint32) colorF {
	return colorF{float32(v>>16&0xff) / 255, float32(v>>8&0xff) / 255, float32(v&0xff) / 255, 1}
}

// alpha returns c with its opacity multiplied by k.
func (c colorF) alpha(k float64) colorF { c.a *= float32(k); return c }

// mix returns c moved a fraction k of the way to d.
func (c colorF) mix(d colorF, k float32) colorF {
	return colorF{c.r + (d.r-c.r)*k, c.g + (d.g-c.g)*k, c.b + (d.b-c.b)*k, c.a + (d.a-c.a)*k}
}

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

func (c colorF) scale() ebiten.ColorScale {
	var s ebiten.ColorScale
	s.SetR(c.r * c.a)
	s.SetG(c.g * c.a)
	s.SetB(c.b * c.a)
	s.SetA(c.a)
	return s
}

// palette is a theme's colours.
type palette struct {
	bg, surface, border, shadow colorF
	link, linkCut, onDisc       colorF
	tones                       [app.NumTones]colorF
	terms                       []colorF
	termText                    colorF
}

// fromColors turns a theme's colours (package palette, which the SVG
// painter reads too) into the painter's.
func fromColors(c colors.Colors) *palette {
	p := &palette{
		bg: hex(c.BG), surface: hex(c.Surface), border: hex(c.Border), shadow: hex(c.Shadow).alpha(c.ShadowAlpha),
		link: hex(c.Link), linkCut: hex(c.LinkCut), onDisc: hex(c.OnDisc), termText: hex(c.TermText),
	}
	for t, v := range c.Tones {
		p.tones[t] = hex(v)
	}
	for _, v := range c.Terms {
		p.terms = append(p.terms, hex(v))
	}
	return p
}

func lightPalette() *palette { return fromColors(colors.Light()) }

func darkPalette() *palette { return fromColors(colors.Dark()) }

func (p *palette) tone(t app.Tone) colorF {
	if int(t) < len(p.tones) {
		return p.tones[t]
	}
	return p.tones[app.ToneText]
}

func (p *palette) term(i int) colorF {
	if i <= 0 {
		return p.terms[0]
	}
	return p.terms[1+(i-1)%(len(p.terms)-1)]
}
