package draw

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"raftlab/viz/app"
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

// toneColors are each tone's colour in the light and the dark theme.
// Role colours follow the Okabe–Ito set, which stays distinct under the
// common colour-vision deficiencies; shapes and words tell roles apart too.
var toneColors = [app.NumTones][2]uint32{
	app.ToneText:         {0x1d2330, 0xe6e9ef},
	app.ToneMuted:        {0x5b6475, 0x9aa3b2},
	app.ToneAccent:       {0x2f6fe4, 0x6ea2ff},
	app.ToneGood:         {0x0072b2, 0x56b4e9},
	app.ToneBad:          {0xc54b00, 0xff8a3d},
	app.ToneWarn:         {0xa86f00, 0xf0c040},
	app.ToneFollower:     {0x56b4e9, 0x56b4e9},
	app.TonePreCandidate: {0xf0e442, 0xf0e442},
	app.ToneCandidate:    {0xe69f00, 0xe69f00},
	app.ToneLeader:       {0x009e73, 0x1fbf8f},
	app.ToneReplica:      {0xcc79a7, 0xd98cb5},
	app.ToneDown:         {0x3d434d, 0x4a5160},
	app.TonePaused:       {0xb9bec7, 0x8a919e},
	app.ToneVote:         {0xcc79a7, 0xd98cb5},
	app.ToneAppend:       {0x0072b2, 0x56b4e9},
	app.ToneClient:       {0xe69f00, 0xf0a030},
	app.ToneCopy:         {0x009e73, 0x1fbf8f},
}

func withTones(p *palette, theme int) *palette {
	for t, c := range toneColors {
		p.tones[t] = hex(c[theme])
	}
	p.terms = termColors()
	return p
}

func lightPalette() *palette {
	return withTones(&palette{
		bg: hex(0xf6f7f9), surface: hex(0xffffff), border: hex(0xd5dae2), shadow: hex(0x1d2330).alpha(0.12),
		link: hex(0x9aa3b2), linkCut: hex(0xd55e00), onDisc: hex(0x11161f), termText: hex(0x1d2330),
	}, 0)
}

func darkPalette() *palette {
	return withTones(&palette{
		bg: hex(0x10151f), surface: hex(0x1a2231), border: hex(0x2d3850), shadow: hex(0x000000).alpha(0.35),
		link: hex(0x5d6880), linkCut: hex(0xff8a3d), onDisc: hex(0x0b0f16), termText: hex(0x10151f),
	}, 1)
}

// termColors are the log entry colours by term: light enough for dark
// numbers on top, far enough apart to tell neighbouring terms apart.
func termColors() []colorF {
	return []colorF{
		hex(0xc9ced6), // term 0 (naive protocols' untermed entries use the writer instead)
		hex(0x8ecae6), hex(0xffc35c), hex(0x9fd08a), hex(0xf4a3a0),
		hex(0xc4b2ec), hex(0xf7d488), hex(0x93c5b5), hex(0xe9b3c4),
	}
}

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
