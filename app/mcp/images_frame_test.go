package mcp

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestFrameContentScalesTheFrameItself(t *testing.T) {
	frame := image.NewNRGBA(image.Rect(0, 0, 1080, 2400))
	for i := range frame.Pix {
		frame.Pix[i] = byte(i * 7)
	}
	frame.SetNRGBA(0, 0, color.NRGBA{255, 0, 0, 255})
	c, ok := frameContent(frame, "screenshot")
	img, isImg := c.(mcp.ImageContent)
	if !ok || !isImg {
		t.Fatalf("frameContent: %#v", c)
	}
	raw, _ := base64.StdEncoding.DecodeString(img.Data)
	cfg, _, err := image.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Height != maxImageEdge || len(raw) > maxImageBytes {
		t.Errorf("sent %dx%d, %d bytes (%v)", cfg.Width, cfg.Height, len(raw), err)
	}
}
