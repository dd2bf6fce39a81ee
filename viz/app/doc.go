// Package app is raftlab's application model and controller, without any
// drawing.
//
// An App owns the simulated world (through its history, so the reader can
// step back and scrub), the scenario being played, and everything the
// reader has chosen on screen: the selected machine, open menus, the panel
// tab, speed, pause, theme. Pointer gestures, keys, the controls on screen
// and calls from a page script all become intents (see Intent), which one
// method, Do, applies; those that change the world become recorded
// raftcore Actions (the world changes in no other way). The app describes
// each frame as plain data: where every disc, link, message dot, log cell,
// panel line and control goes, and in which tone. The draw package only
// paints that description, so all of the app's behaviour is tested here
// without a window or a browser.
package app
