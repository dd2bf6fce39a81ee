//go:build !js

package floorgame

// Mark has no timeline to mark outside a browser.
func Mark(string) {}

// firstDrawn has nothing to report outside a browser.
func firstDrawn(string) {}
