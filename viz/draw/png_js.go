//go:build js

package draw

import (
	"encoding/base64"
	"fmt"
	"image"
	"strings"
	"syscall/js"
)

// pngOf encodes img as PNG with the browser's own encoder: the pixels go
// onto a canvas of their size and come back from toDataURL, which encodes
// at once (toBlob would answer later, after the frame that asked). Linking
// image/png instead would put its encoder and, through its registration
// with package image, its decoder into the module: about 90 KB of code a
// reader downloads for a picture he may never save.
//
// A canvas takes colours with straight alpha and image.RGBA holds them
// premultiplied, so a pixel not fully opaque is divided back first, as
// image/png does (color.NRGBAModel's arithmetic). The app's pictures are
// opaque (every frame paints its background), and for opaque pixels the
// canvas gives back exactly what it was given; a pixel with alpha may come
// back rounded, since the canvas keeps its colours premultiplied.
func pngOf(img *image.RGBA) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 {
		return nil, fmt.Errorf("a picture of %dx%d pixels has nothing to encode", w, h)
	}
	pix := make([]byte, 4*w*h)
	for y := 0; y < h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		copy(pix[4*w*y:], row)
	}
	for i := 0; i < len(pix); i += 4 {
		a := uint32(pix[i+3]) * 0x101
		if a == 0xffff {
			continue
		}
		for k := 0; k < 3; k++ {
			if a == 0 {
				pix[i+k] = 0
				continue
			}
			pix[i+k] = uint8(uint32(pix[i+k]) * 0x101 * 0xffff / a >> 8)
		}
	}
	doc := js.Global().Get("document")
	if doc.Type() != js.TypeObject {
		return nil, fmt.Errorf("no document to encode a picture on")
	}
	canvas := doc.Call("createElement", "canvas")
	canvas.Set("width", w)
	canvas.Set("height", h)
	ctx := canvas.Call("getContext", "2d")
	if ctx.Type() != js.TypeObject {
		return nil, fmt.Errorf("the browser gave no 2D canvas to encode a picture on")
	}
	arr := js.Global().Get("Uint8ClampedArray").New(len(pix))
	js.CopyBytesToJS(arr, pix)
	data := js.Global().Get("ImageData").New(arr, w, h)
	ctx.Call("putImageData", data, 0, 0)
	url := canvas.Call("toDataURL", "image/png").String()
	canvas.Set("width", 0) // frees the canvas's pixels before the collector finds it
	const prefix = "data:image/png;base64,"
	if !strings.HasPrefix(url, prefix) {
		return nil, fmt.Errorf("the browser did not encode the %dx%d picture as PNG", w, h)
	}
	return base64.StdEncoding.DecodeString(url[len(prefix):])
}
