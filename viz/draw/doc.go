// Package draw paints raftlab's frames with Ebiten and feeds the reader's
// mouse, touch and keys back to the app.
//
// All decisions live in package app: this package only turns a frame.Frame
// into shapes and text, and Ebiten's input into app calls. Game keeps
// Update and Draw thin, and draws nothing while the frame has not changed
// (the screen is not cleared between frames), so a paused figure costs
// next to nothing. A frame that changed is recorded as a list of drawing
// operations (record.go), compared with the last frame's list, and drawn by
// one executor only where it changed (retain.go, execute.go).
//
// Text uses Ebiten's text/v2 with the M+ 1p font that Ebiten ships in its
// examples/resources/fonts package, cut down to the characters the app
// writes (package fonts). A Go font from golang.org/x/image would make
// that module a direct dependency of raftlab, which the project's
// dependency rules do not allow; this font keeps Ebiten the only one.
package draw
