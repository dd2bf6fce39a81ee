//go:build !js

package main

// firstDrawn has nothing to report outside a browser.
func firstDrawn() {}

// started has nothing to mark outside a browser.
func started() {}
