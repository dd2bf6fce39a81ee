//go:build !js

package draw

import (
	"bytes"
	"image"
	"image/png"
)

// pngOf encodes img as PNG with the standard library's encoder.
func pngOf(img *image.RGBA) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
