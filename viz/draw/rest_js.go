//go:build js

package draw

import "syscall/js"

// parks: in the browser an idle game parks Ebiten's loop, since Ebiten
// would otherwise ask for every animation frame.
const parks = true

// listen wakes the game on every event that Ebiten turns into a frame. While
// the loop is parked it holds Ebiten's frame lock, so the frame Ebiten runs
// for an event cannot start until the game wakes. The listeners capture on
// the window, so nothing on the page can stop an event before they see it.
func (g *Game) listen() {
	win := js.Global()
	wake := js.FuncOf(func(js.Value, []js.Value) any {
		g.Wake()
		return nil
	})
	opts := js.Global().Get("Object").New()
	opts.Set("capture", true)
	opts.Set("passive", true)
	for _, ev := range []string{"keydown", "keyup", "mousedown", "mouseup", "mousemove", "wheel",
		"touchstart", "touchend", "touchmove", "touchcancel", "resize", "focus"} {
		win.Call("addEventListener", ev, wake, opts)
	}
}
