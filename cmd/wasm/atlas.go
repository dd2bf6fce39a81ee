//go:build js && wasm

package main

import _ "unsafe" // for go:linkname

// ebitenMinSourceSize is the side of the first atlas Ebiten makes for the
// images it keeps together as sources, 1024 pixels unless set before the
// game starts (Ebiten's atlas package reads it at the first frame). The
// only such images the app has are two white squares of 3x3 pixels:
// Ebiten's own, which every Fill and Clear draws from, and the one shapes
// are drawn into the sprite sheet from (see viz/draw). At 1024 their atlas
// is a texture of 4 MB, half of what a figure's WebGL context held; from
// 16 it grows only as images are placed in it, and it holds the same
// pixels where they were sampled.
//
// Ebiten has no setting for it: this links to its package's variable. A
// later Ebiten that renamed it would leave this one unread, and the atlas
// at 1024 again: e2e's TestFigureTexturesFitItsSize fails then.
//
//go:linkname ebitenMinSourceSize github.com/hajimehoshi/ebiten/v2/internal/atlas.minSourceSize
var ebitenMinSourceSize int

func init() { ebitenMinSourceSize = 16 }
