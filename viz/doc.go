// Package viz is raftlab's user-interface logic without any drawing.
//
// It turns a canvas size into a screen layout (toolbar, cluster ring, links,
// log strips, side panels, timeline), answers what lies under a pointer,
// classifies pointer gestures (taps, cut strokes across links, node drags,
// long presses), parses URL query and desktop flag parameters, maps the
// speed slider and holds the keyboard map.
//
// Everything here is plain Go over plain values: nodes are the indices
// 0..n-1 and every result is a small struct or enum the app maps onto a
// simulator action or a draw call. The package imports neither Ebiten nor the
// simulator, so it builds and is tested headless on any machine.
package viz
