//go:build js

package floorgame

import "syscall/js"

// Mark notes a moment of start-up on the page's performance timeline, as the
// app's raftlab-main and raftlab-setup do. syscall/js is linked in anyway by
// Ebiten's browser backend.
func Mark(name string) {
	js.Global().Get("performance").Call("mark", name)
}

// firstDrawn records when the first frame was drawn, in the page's
// performance.now() milliseconds, as window.<prefix>FirstDraw.
func firstDrawn(prefix string) {
	js.Global().Set(prefix+"FirstDraw", js.Global().Get("performance").Call("now"))
}
