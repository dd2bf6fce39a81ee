//go:build js

package main

import "syscall/js"

// firstDrawn records when the first frame was drawn, in the page's performance.now()
// milliseconds, as window.sizefloorFirstDraw, so that page load to first frame can be
// measured against the app's (the app reports it with its raftlab-ready event).
// syscall/js is linked in anyway by Ebiten's browser backend.
func firstDrawn() {
	js.Global().Set("sizefloorFirstDraw", js.Global().Get("performance").Call("now"))
}

// started marks floor-main on the page's performance timeline: the Go runtime and
// package initialisation are done, as raftlab-main marks for the app.
func started() {
	js.Global().Get("performance").Call("mark", "floor-main")
}
