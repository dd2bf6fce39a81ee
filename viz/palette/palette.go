// Package palette holds raftlab's colours: each tone's colour in the light
// and the dark theme, the surfaces, and the log entries' colours by term.
// Every painter (Ebiten's in package draw, the SVG one in package svg)
// takes its colours from here, so that a poster and the live figure agree.
package palette

import "raftlab/viz/frame"

// Colors is one theme's colours as 0xRRGGBB, opaque unless said.
type Colors struct {
	BG, Surface, Border uint32
	// Shadow is a card's shadow, drawn at ShadowAlpha.
	Shadow      uint32
	ShadowAlpha float64
	// Link is a working link, LinkCut a cut one; OnDisc is the ink on a
	// machine's disc; TermText the numbers on log entries.
	Link, LinkCut, OnDisc, TermText uint32
	Tones                           [frame.NumTones]uint32
	// Terms are the log entries' colours: Terms[0] for term 0, then
	// repeating from Terms[1] (see Term).
	Terms []uint32
}

// toneColors are each tone's colour in the light and the dark theme.
// Role colours follow the Okabe–Ito set, which stays distinct under the
// common colour-vision deficiencies; shapes and words tell roles apart too.
var toneColors = [frame.NumTones][2]uint32{
	frame.ToneText:         {0x1d2330, 0xe6e9ef},
	frame.ToneMuted:        {0x5b6475, 0x9aa3b2},
	frame.ToneAccent:       {0x2f6fe4, 0x6ea2ff},
	frame.ToneGood:         {0x0072b2, 0x56b4e9},
	frame.ToneBad:          {0xc54b00, 0xff8a3d},
	frame.ToneWarn:         {0xa86f00, 0xf0c040},
	frame.ToneFollower:     {0x56b4e9, 0x56b4e9},
	frame.TonePreCandidate: {0xf0e442, 0xf0e442},
	frame.ToneCandidate:    {0xe69f00, 0xe69f00},
	frame.ToneLeader:       {0x009e73, 0x1fbf8f},
	frame.ToneReplica:      {0xcc79a7, 0xd98cb5},
	frame.ToneDown:         {0x3d434d, 0x4a5160},
	frame.TonePaused:       {0xb9bec7, 0x8a919e},
	frame.ToneVote:         {0xcc79a7, 0xd98cb5},
	frame.ToneAppend:       {0x0072b2, 0x56b4e9},
	frame.ToneClient:       {0xe69f00, 0xf0a030},
	frame.ToneCopy:         {0x009e73, 0x1fbf8f},
	frame.ToneSnap:         {0x5a3ea8, 0xb3a2f0},
}

// termColors are the log entry colours by term: light enough for dark
// numbers on top, far enough apart to tell neighbouring terms apart.
var termColors = []uint32{
	0xc9ced6, // term 0 (naive protocols' untermed entries use the writer instead)
	0x8ecae6, 0xffc35c, 0x9fd08a, 0xf4a3a0,
	0xc4b2ec, 0xf7d488, 0x93c5b5, 0xe9b3c4,
}

func withTones(c Colors, theme int) Colors {
	for t, v := range toneColors {
		c.Tones[t] = v[theme]
	}
	c.Terms = append([]uint32(nil), termColors...)
	return c
}

// Light is the light theme.
func Light() Colors {
	return withTones(Colors{
		BG: 0xf6f7f9, Surface: 0xffffff, Border: 0xd5dae2, Shadow: 0x1d2330, ShadowAlpha: 0.12,
		Link: 0x9aa3b2, LinkCut: 0xd55e00, OnDisc: 0x11161f, TermText: 0x1d2330,
	}, 0)
}

// Dark is the dark theme.
func Dark() Colors {
	return withTones(Colors{
		BG: 0x10151f, Surface: 0x1a2231, Border: 0x2d3850, Shadow: 0x000000, ShadowAlpha: 0.35,
		Link: 0x5d6880, LinkCut: 0xff8a3d, OnDisc: 0x0b0f16, TermText: 0x10151f,
	}, 1)
}

// For returns the colours of a theme: dark for ThemeDark, light otherwise.
func For(t frame.Theme) Colors {
	if t == frame.ThemeDark {
		return Dark()
	}
	return Light()
}
