// Package layers holds the test that keeps the repository's packages in
// their layers, so that its arrows point one way: raftcore at the bottom
// (the standard library only), scenarios on it, the screen (viz) above
// both, the programs (cmd) on top. Inside the screen, the frame is the
// contract that painters import without the app.
package layers
