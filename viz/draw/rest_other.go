//go:build !js

package draw

// parks: on the desktop Ebiten waits for window events while the game
// rests, so its loop needs no parking.
const parks = false

func (g *Game) listen() {}
