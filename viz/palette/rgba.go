package palette

import "raftlab/viz/frame"

// RGBA is a straight-alpha colour with channels from 0 to 1.
type RGBA struct{ R, G, B, A float32 }

// Hex is the opaque colour 0xRRGGBB.
func Hex(v uint32) RGBA {
	return RGBA{float32(v>>16&0xff) / 255, float32(v>>8&0xff) / 255, float32(v&0xff) / 255, 1}
}

// Alpha returns c with its opacity multiplied by k.
func (c RGBA) Alpha(k float64) RGBA { c.A *= float32(k); return c }

// Mix returns c moved a fraction k of the way to d.
func (c RGBA) Mix(d RGBA, k float32) RGBA {
	return RGBA{c.R + (d.R-c.R)*k, c.G + (d.G-c.G)*k, c.B + (d.B-c.B)*k, c.A + (d.A-c.A)*k}
}

// Palette is a theme's colours ready to paint with.
type Palette struct {
	BG, Surface, Border, Shadow RGBA
	Link, LinkCut, OnDisc       RGBA
	TermText                    RGBA
	Tones                       [frame.NumTones]RGBA
	Terms                       []RGBA
}

// Resolve turns a theme's colours into a Palette.
func Resolve(c Colors) *Palette {
	p := &Palette{
		BG: Hex(c.BG), Surface: Hex(c.Surface), Border: Hex(c.Border), Shadow: Hex(c.Shadow).Alpha(c.ShadowAlpha),
		Link: Hex(c.Link), LinkCut: Hex(c.LinkCut), OnDisc: Hex(c.OnDisc), TermText: Hex(c.TermText),
	}
	for t, v := range c.Tones {
		p.Tones[t] = Hex(v)
	}
	for _, v := range c.Terms {
		p.Terms = append(p.Terms, Hex(v))
	}
	return p
}

// Tone is the colour of a tone.
func (p *Palette) Tone(t frame.Tone) RGBA {
	if int(t) < len(p.Tones) {
		return p.Tones[t]
	}
	return p.Tones[frame.ToneText]
}

// Term is the colour of a log entry of colour number i (0 for term 0,
// then repeating through the rest).
func (p *Palette) Term(i int) RGBA {
	if i <= 0 {
		return p.Terms[0]
	}
	return p.Terms[1+(i-1)%(len(p.Terms)-1)]
}
