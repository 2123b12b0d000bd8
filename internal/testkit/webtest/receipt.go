package webtest

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// ReceiptPNG is the photo of a receipt for the forms that take one: a
// small PNG, which the server checks by its bytes.
var ReceiptPNG = func() []byte {
	m := image.NewRGBA(image.Rect(0, 0, 40, 60))
	for x := range 40 {
		for y := range 60 {
			m.Set(x, y, color.RGBA{R: uint8(4 * x), G: 120, B: uint8(3 * y), A: 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		panic(err) // encoding an in-memory image does not fail
	}
	return b.Bytes()
}()
