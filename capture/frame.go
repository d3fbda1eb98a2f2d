package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/png"

	"github.com/disintegration/imaging"
)

// Errors of frame decoding. Both are wrapped with the detail of what was wrong.
var (
	ErrTruncatedFrame = errors.New("truncated screencap frame")
	ErrMalformedFrame = errors.New("malformed screencap frame")
)

// PixelFormat is Android's PixelFormat/HAL format code as screencap writes it.
type PixelFormat uint32

// Formats screencap emits.
const (
	FormatRGBA8888 PixelFormat = 1
	FormatRGBX8888 PixelFormat = 2
	FormatRGB888   PixelFormat = 3
	FormatRGB565   PixelFormat = 4
	FormatBGRA8888 PixelFormat = 5
)

// BytesPerPixel of the format, 0 when unknown.
func (f PixelFormat) BytesPerPixel() int {
	switch f {
	case FormatRGBA8888, FormatRGBX8888, FormatBGRA8888:
		return 4
	case FormatRGB888:
		return 3
	case FormatRGB565:
		return 2
	}
	return 0
}

// RawHeader describes a raw screencap payload.
type RawHeader struct {
	Width, Height int
	Format        PixelFormat
	Dataspace     uint32 // 0 when the 12-byte (pre-Android 9) header was used
	HeaderSize    int    // 12 or 16
	Stride        int    // bytes per row in the payload
}

// maxFrameSide bounds width and height: anything larger is garbage, not a screen.
const maxFrameSide = 1 << 15

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// DecodeFrame decodes screencap output, raw or PNG (`screencap -p`), whichever it is.
// Text lines a device prints before the image (the multi-display warning lands in
// stdout on exec:) are skipped. Raw payloads are decoded in place; see DecodeRaw.
func DecodeFrame(data []byte) (*image.NRGBA, error) {
	data = skipTextLines(data)
	if bytes.HasPrefix(data, pngSignature) {
		return DecodePNG(data)
	}
	img, _, err := DecodeRaw(data)
	return img, err
}

// DecodePNG decodes `screencap -p` output into NRGBA.
func DecodePNG(data []byte) (*image.NRGBA, error) {
	img, err := png.Decode(bytes.NewReader(skipTextLines(data)))
	if err != nil {
		return nil, fmt.Errorf("decode screencap png: %w", err)
	}
	return toNRGBA(img), nil
}

// toNRGBA returns img as NRGBA, sharing pixels when the layout is already the same.
// Opaque RGBA (what PNG screenshots decode to) has identical bytes in both models.
func toNRGBA(img image.Image) *image.NRGBA {
	switch m := img.(type) {
	case *image.NRGBA:
		return m
	case *image.RGBA:
		if m.Opaque() {
			return &image.NRGBA{Pix: m.Pix, Stride: m.Stride, Rect: m.Rect}
		}
	}
	out := image.NewNRGBA(img.Bounds())
	draw.Draw(out, out.Rect, img, img.Bounds().Min, draw.Src)
	return out
}

// ParseRawHeader works out the header and row stride of a raw screencap payload.
// The header is 16 bytes (width, height, format, dataspace) on Android 9+ and 12
// before; which one is decided by which makes the payload length add up. Rows may be
// padded (stride > width×bpp) on older devices that wrote the whole buffer.
func ParseRawHeader(data []byte) (RawHeader, error) {
	if len(data) < 12 {
		return RawHeader{}, fmt.Errorf("%w: %d bytes, shorter than the 12-byte header", ErrTruncatedFrame, len(data))
	}
	h := RawHeader{
		Width:  int(binary.LittleEndian.Uint32(data[0:])),
		Height: int(binary.LittleEndian.Uint32(data[4:])),
		Format: PixelFormat(binary.LittleEndian.Uint32(data[8:])),
	}
	bpp := h.Format.BytesPerPixel()
	if bpp == 0 {
		return h, fmt.Errorf("%w: unknown pixel format %d", ErrMalformedFrame, h.Format)
	}
	if h.Width <= 0 || h.Height <= 0 || h.Width > maxFrameSide || h.Height > maxFrameSide {
		return h, fmt.Errorf("%w: implausible size %dx%d", ErrMalformedFrame, h.Width, h.Height)
	}
	row := h.Width * bpp
	need := row * h.Height
	pick := func(hdr, stride int) RawHeader {
		h.HeaderSize, h.Stride = hdr, stride
		if hdr == 16 {
			h.Dataspace = binary.LittleEndian.Uint32(data[12:])
		}
		return h
	}
	// Exact fits first, then padded rows, then trailing bytes after tight rows.
	for _, hdr := range []int{16, 12} {
		if len(data)-hdr == need {
			return pick(hdr, row), nil
		}
	}
	for _, hdr := range []int{16, 12} {
		pix := len(data) - hdr
		if pix > need && pix%h.Height == 0 {
			if stride := pix / h.Height; stride%bpp == 0 && stride-row < 256*bpp {
				return pick(hdr, stride), nil
			}
		}
	}
	if len(data)-16 > need {
		return pick(16, row), nil
	}
	if len(data)-12 < need {
		return h, fmt.Errorf("%w: %dx%d format %d needs %d pixel bytes, got %d",
			ErrTruncatedFrame, h.Width, h.Height, h.Format, need, max(0, len(data)-12))
	}
	return pick(12, row), nil
}

// RawFrameSize is the length of the raw screencap output whose first bytes are head,
// or 0 when they are no raw header. The header's own size (12 or 16) is decided by the
// whole length, so this counts 16: at most 4 bytes too many.
func RawFrameSize(head []byte) int {
	data := skipTextLines(head)
	if len(data) < 12 {
		return 0
	}
	w := int(binary.LittleEndian.Uint32(data[0:]))
	h := int(binary.LittleEndian.Uint32(data[4:]))
	bpp := PixelFormat(binary.LittleEndian.Uint32(data[8:])).BytesPerPixel()
	if bpp == 0 || w <= 0 || h <= 0 || w > maxFrameSide || h > maxFrameSide {
		return 0
	}
	return len(head) - len(data) + 16 + w*h*bpp
}

// DecodeRaw decodes `screencap` raw output. It takes ownership of data: RGBA_8888
// payloads are wrapped as they are (no copy), RGBX and BGRA are fixed up in place,
// and only RGB_888 and RGB_565 get a new buffer.
func DecodeRaw(data []byte) (*image.NRGBA, RawHeader, error) {
	h, err := ParseRawHeader(data)
	if err != nil {
		return nil, h, err
	}
	w, ht, s := h.Width, h.Height, h.Stride
	pix := data[h.HeaderSize:]
	rect := image.Rect(0, 0, w, ht)
	// The last row needs only its pixels, not its padding.
	used := s*(ht-1) + w*h.Format.BytesPerPixel()
	switch h.Format {
	case FormatRGBA8888:
		return &image.NRGBA{Pix: pix[:used], Stride: s, Rect: rect}, h, nil
	case FormatRGBX8888:
		for y := 0; y < ht; y++ {
			r := pix[y*s : y*s+w*4]
			for i := 3; i < len(r); i += 4 {
				r[i] = 0xff
			}
		}
		return &image.NRGBA{Pix: pix[:used], Stride: s, Rect: rect}, h, nil
	case FormatBGRA8888:
		for y := 0; y < ht; y++ {
			r := pix[y*s : y*s+w*4]
			for i := 0; i+3 < len(r); i += 4 {
				r[i], r[i+2] = r[i+2], r[i]
			}
		}
		return &image.NRGBA{Pix: pix[:used], Stride: s, Rect: rect}, h, nil
	case FormatRGB888:
		out := image.NewNRGBA(rect)
		for y := 0; y < ht; y++ {
			src, dst := pix[y*s:y*s+w*3], out.Pix[y*out.Stride:]
			for x := 0; x < w; x++ {
				dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = src[3*x], src[3*x+1], src[3*x+2], 0xff
			}
		}
		return out, h, nil
	case FormatRGB565:
		out := image.NewNRGBA(rect)
		for y := 0; y < ht; y++ {
			src, dst := pix[y*s:y*s+w*2], out.Pix[y*out.Stride:]
			for x := 0; x < w; x++ {
				v := uint16(src[2*x]) | uint16(src[2*x+1])<<8
				r, g, b := byte(v>>11), byte(v>>5&0x3f), byte(v&0x1f)
				dst[4*x], dst[4*x+1], dst[4*x+2], dst[4*x+3] = r<<3|r>>2, g<<2|g>>4, b<<3|b>>2, 0xff
			}
		}
		return out, h, nil
	}
	return nil, h, fmt.Errorf("%w: unknown pixel format %d", ErrMalformedFrame, h.Format)
}

// skipTextLines drops leading lines of printable ASCII (≥ 8 characters) that some
// devices write to stdout before the image, e.g. "[Warning] Multiple displays were
// found…". A raw header can never look like that: its width's high bytes are zero.
func skipTextLines(data []byte) []byte {
	for {
		nl := bytes.IndexByte(data, '\n')
		if nl < 8 || nl > 1024 {
			return data
		}
		for _, c := range data[:nl] {
			if (c < 0x20 || c > 0x7e) && c != '\t' && c != '\r' {
				return data
			}
		}
		data = data[nl+1:]
	}
}

// Upright turns a frame captured in the panel's natural orientation into what the
// user sees for a display rotation (0-3, Surface.ROTATION_*): the UI in such a buffer
// is turned clockwise by the rotation, so it is turned back counter-clockwise.
func Upright(img *image.NRGBA, rotation int) *image.NRGBA {
	switch rotation & 3 {
	case 1:
		return imaging.Rotate90(img)
	case 2:
		return imaging.Rotate180(img)
	case 3:
		return imaging.Rotate270(img)
	}
	return img
}
