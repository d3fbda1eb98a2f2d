package h264

import "image"

// The encoder works in BT.601 limited-range YCbCr, what decoders assume for a stream
// that does not say otherwise and what Android's encoders produce from the screen.
// Every sample lies in 16..240, so I_PCM never needs the zero value older decoders
// reject.

func rgbToY(r, g, b int32) byte { return byte((66*r+129*g+25*b+128)>>8 + 16) }

func rgbToCb(r, g, b int32) byte { return byte((-38*r-74*g+112*b+128)>>8 + 128) }

func rgbToCr(r, g, b int32) byte { return byte((112*r-94*g-18*b+128)>>8 + 128) }

// planes holds a picture padded to whole macroblocks.
type planes struct {
	y, cb, cr []byte
	yStride   int // = 16 × macroblock columns
	cStride   int
}

func newPlanes(mbW, mbH int) planes {
	ys, cs := mbW*16, mbW*8
	return planes{y: make([]byte, ys*mbH*16), cb: make([]byte, cs*mbH*8), cr: make([]byte, cs*mbH*8), yStride: ys, cStride: cs}
}

// fill converts img (w×h, both even) into p. The padding right and below repeats the
// last column and row, so it never differs between frames that match inside.
func (p *planes) fill(img *image.RGBA, w, h int) {
	b := img.Bounds()
	for y := 0; y < h; y++ {
		off := img.PixOffset(b.Min.X, b.Min.Y+y)
		src := img.Pix[off : off+w*4]
		dst := p.y[y*p.yStride : y*p.yStride+p.yStride]
		for x := 0; x < w; x++ {
			dst[x] = rgbToY(int32(src[x*4]), int32(src[x*4+1]), int32(src[x*4+2]))
		}
		for x := w; x < p.yStride; x++ {
			dst[x] = dst[w-1]
		}
	}
	for y := h; y < len(p.y)/p.yStride; y++ {
		copy(p.y[y*p.yStride:(y+1)*p.yStride], p.y[(h-1)*p.yStride:h*p.yStride])
	}
	cw, ch := w/2, h/2
	for cy := 0; cy < ch; cy++ {
		o0 := img.PixOffset(b.Min.X, b.Min.Y+2*cy)
		r0 := img.Pix[o0 : o0+w*4]
		r1 := img.Pix[o0+img.Stride : o0+img.Stride+w*4]
		cbRow := p.cb[cy*p.cStride : (cy+1)*p.cStride]
		crRow := p.cr[cy*p.cStride : (cy+1)*p.cStride]
		for cx := 0; cx < cw; cx++ {
			i := cx * 8
			r := (int32(r0[i]) + int32(r0[i+4]) + int32(r1[i]) + int32(r1[i+4]) + 2) >> 2
			g := (int32(r0[i+1]) + int32(r0[i+5]) + int32(r1[i+1]) + int32(r1[i+5]) + 2) >> 2
			bl := (int32(r0[i+2]) + int32(r0[i+6]) + int32(r1[i+2]) + int32(r1[i+6]) + 2) >> 2
			cbRow[cx] = rgbToCb(r, g, bl)
			crRow[cx] = rgbToCr(r, g, bl)
		}
		for cx := cw; cx < p.cStride; cx++ {
			cbRow[cx], crRow[cx] = cbRow[cw-1], crRow[cw-1]
		}
	}
	rows := len(p.cb) / p.cStride
	for cy := ch; cy < rows; cy++ {
		copy(p.cb[cy*p.cStride:(cy+1)*p.cStride], p.cb[(ch-1)*p.cStride:ch*p.cStride])
		copy(p.cr[cy*p.cStride:(cy+1)*p.cStride], p.cr[(ch-1)*p.cStride:ch*p.cStride])
	}
}

// YCbCr converts img to the 4:2:0 picture the encoder codes for it, unpadded: what a
// decoder must return for a frame encoded from img.
func YCbCr(img *image.RGBA) *image.YCbCr {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	p := newPlanes((w+15)/16, (h+15)/16)
	p.fill(img, w, h)
	out := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	for y := 0; y < h; y++ {
		copy(out.Y[y*out.YStride:y*out.YStride+w], p.y[y*p.yStride:])
	}
	for y := 0; y < h/2; y++ {
		copy(out.Cb[y*out.CStride:y*out.CStride+w/2], p.cb[y*p.cStride:])
		copy(out.Cr[y*out.CStride:y*out.CStride+w/2], p.cr[y*p.cStride:])
	}
	return out
}
