//go:build !js

package main

// firstDrawn has nothing to report outside a browser.
func firstDrawn() {}
