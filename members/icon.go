package members

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"net/http"
	"strconv"
)

// The app's icons, drawn when the app starts rather than kept as files: a
// court seen from above, white lines on green, on the kit's accent blue.
// The maskable one keeps the court inside the safe zone (the middle 80%)
// that a launcher's mask never cuts.

// Colours of the icon.
var (
	iconBlue  = color.RGBA{R: 0x0b, G: 0x5c, B: 0xad, A: 0xff}
	iconGreen = color.RGBA{R: 0x2e, G: 0x8b, B: 0x57, A: 0xff}
	iconWhite = color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}
)

// drawIcon returns the PNG of the icon of size pixels a side; the court
// fills margin (a fraction of size) less on every side.
func drawIcon(size int, margin float64) ([]byte, error) {
	m := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.Draw(m, m.Bounds(), &image.Uniform{iconBlue}, image.Point{}, draw.Src)
	in := int(float64(size) * margin)
	// The court is twice as long as it is wide, upright in the square.
	h := size - 2*in
	w := h / 2
	x0, y0 := (size-w)/2, in
	court := image.Rect(x0, y0, x0+w, y0+h)
	draw.Draw(m, court, &image.Uniform{iconGreen}, image.Point{}, draw.Src)
	line := max(2, size/64)
	fill := func(r image.Rectangle) { draw.Draw(m, r, &image.Uniform{iconWhite}, image.Point{}, draw.Src) }
	fill(image.Rect(x0, y0, x0+w, y0+line))                               // the far baseline
	fill(image.Rect(x0, y0+h-line, x0+w, y0+h))                           // the near baseline
	fill(image.Rect(x0, y0, x0+line, y0+h))                               // the left side
	fill(image.Rect(x0+w-line, y0, x0+w, y0+h))                           // the right side
	fill(image.Rect(x0-line, y0+h/2-line, x0+w+line, y0+h/2+line))        // the net
	fill(image.Rect(x0, y0+h/4, x0+w, y0+h/4+line))                       // the far service line
	fill(image.Rect(x0, y0+3*h/4-line, x0+w, y0+3*h/4))                   // the near service line
	fill(image.Rect(x0+w/2-line/2, y0+h/4, x0+w/2+line-line/2, y0+3*h/4)) // the centre line
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// icon is one of the app's icons, served as a PNG.
type icon struct {
	name    string // its path under Prefix
	size    int
	purpose string // the manifest's purpose: any or maskable
	png     []byte
}

// newIcons draws the icons the manifest lists.
func newIcons() ([]icon, error) {
	icons := []icon{
		{name: "icon-192.png", size: 192, purpose: "any"},
		{name: "icon-512.png", size: 512, purpose: "any"},
		{name: "icon-maskable-512.png", size: 512, purpose: "maskable"},
	}
	for i := range icons {
		margin := 0.12
		if icons[i].purpose == "maskable" {
			margin = 0.2
		}
		var err error
		if icons[i].png, err = drawIcon(icons[i].size, margin); err != nil {
			return nil, err
		}
	}
	return icons, nil
}

// ServeHTTP answers the icon, cached for a day.
func (ic icon) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "image/png")
	h.Set("Content-Length", strconv.Itoa(len(ic.png)))
	h.Set("Cache-Control", "public, max-age=86400")
	_, _ = w.Write(ic.png)
}
