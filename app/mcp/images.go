package mcp

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/jpeg"

	"fixthis/capture"

	"github.com/disintegration/imaging"
	"github.com/mark3labs/mcp-go/mcp"
)

// Limits for images sent to an agent: the long edge most vision models use
// without rescaling, and a size that keeps a tool result small.
const (
	maxImageEdge  = 1568
	maxImageBytes = 1 << 20
)

// fitImage decodes a PNG or JPEG and re-encodes it within maxImageEdge and
// maxImageBytes (see fitFrame); one that fits already is sent as it is.
func fitImage(data []byte) ([]byte, string, error) {
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("decode image: %w", err)
	}
	b := img.Bounds()
	if b.Dx() <= maxImageEdge && b.Dy() <= maxImageEdge && len(data) <= maxImageBytes {
		if bytes.HasPrefix(data, []byte("\x89PNG")) {
			return data, "image/png", nil
		}
		if bytes.HasPrefix(data, []byte("\xff\xd8")) {
			return data, "image/jpeg", nil
		}
	}
	return fitFrame(img)
}

// fitFrame encodes img within maxImageEdge and maxImageBytes: PNG when that fits
// (sharp UI text), else JPEG at falling quality, shrinking further only if even that
// is too big. A frame captured in this process comes here directly, not decoded back
// from the full-size PNG that was stored.
//
// The scaling is an area average (imaging.Box), which keeps text crisp at these
// reductions (2400 → 1568 px) in a third of Lanczos' time, and the PNG is the
// evidence encoder (fastest deflate on every core): on the demo app's 1080×2400
// frame the two take about 45 ms where Lanczos and image/png's default level took
// 170 ms (BenchmarkFitFrame).
func fitFrame(img image.Image) ([]byte, string, error) {
	b := img.Bounds()
	edge := maxImageEdge
	for attempt := 0; attempt < 6; attempt++ {
		scaled := img
		if b.Dx() > edge || b.Dy() > edge {
			scaled = imaging.Fit(img, edge, edge, imaging.Box)
		}
		var buf bytes.Buffer
		if err := capture.EncodeScreenPNG(&buf, scaled); err == nil && buf.Len() <= maxImageBytes {
			return buf.Bytes(), "image/png", nil
		}
		for _, q := range []int{85, 70, 55} {
			buf.Reset()
			if err := jpeg.Encode(&buf, scaled, &jpeg.Options{Quality: q}); err != nil {
				return nil, "", fmt.Errorf("encode image: %w", err)
			}
			if buf.Len() <= maxImageBytes {
				return buf.Bytes(), "image/jpeg", nil
			}
		}
		edge = edge * 3 / 4
	}
	return nil, "", fmt.Errorf("image does not fit in %d bytes", maxImageBytes)
}

// imageContent returns image content for an agent (true), or a text note
// saying why the image is missing (false).
func imageContent(data []byte, what string) (mcp.Content, bool) {
	out, mime, err := fitImage(data)
	return asContent(out, mime, err, what)
}

// frameContent is imageContent for a decoded frame.
func frameContent(img image.Image, what string) (mcp.Content, bool) {
	out, mime, err := fitFrame(img)
	return asContent(out, mime, err, what)
}

func asContent(out []byte, mime string, err error, what string) (mcp.Content, bool) {
	if err != nil {
		return mcp.NewTextContent(fmt.Sprintf("(%s not attached: %v)", what, err)), false
	}
	return mcp.NewImageContent(base64.StdEncoding.EncodeToString(out), mime), true
}
