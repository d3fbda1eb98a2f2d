package capture

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
	"hash/crc32"
	"image"
	"image/png"
	"io"
	"runtime"
	"sync"
)

// A full-resolution frame is 7.8 MB of RGB once the alpha byte goes. image/png feeds
// it through one deflate stream on one core, which takes longer than fetching the
// frame from the phone. encodeOpaquePNG writes the same kind of file (8-bit RGB, no
// filter, fastest deflate, as image/png does at BestSpeed) from several goroutines:
// the rows are cut into bands, each band is deflated on its own and ended with a sync
// flush, and the pieces are joined into one zlib stream. A band's compressor starts
// with an empty window, so no back-reference crosses a join and the stream decodes as
// if it had been written in one go.

const (
	pngMaxBands    = 8
	pngMinBandRows = 64
	pngBlockRows   = 16 // rows filtered per write: ~50 KB at 1080 px, stays in cache
)

var (
	flateWriters = sync.Pool{New: func() any {
		w, _ := flate.NewWriter(nil, flate.BestSpeed) // the level is valid: no error
		return w
	}}
	bandBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	rowBuffers  = sync.Pool{New: func() any { return new([]byte) }}
)

// band is one piece of the zlib stream: the deflated rows and the Adler-32 of the
// filtered bytes that went in.
type band struct {
	out    *bytes.Buffer
	adler  uint32
	n      int64 // filtered bytes in
	opaque bool
}

// encodeOpaquePNG writes img as an RGB PNG when it is an *image.NRGBA or *image.RGBA
// whose every pixel is opaque, as screen frames are. Any other image is written by
// image/png at BestSpeed, so the result is always a PNG of exactly img's pixels.
func encodeOpaquePNG(w io.Writer, img image.Image) error {
	var pix []byte
	var stride int
	var rect image.Rectangle
	switch m := img.(type) {
	case *image.NRGBA:
		pix, stride, rect = m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, m.Rect
	case *image.RGBA:
		// Opaque premultiplied pixels are the same bytes as non-premultiplied ones.
		pix, stride, rect = m.Pix[m.PixOffset(m.Rect.Min.X, m.Rect.Min.Y):], m.Stride, m.Rect
	}
	width, height := rect.Dx(), rect.Dy()
	if pix == nil || width <= 0 || height <= 0 {
		return stdPNG(w, img)
	}
	n := min(runtime.GOMAXPROCS(0), pngMaxBands, (height+pngMinBandRows-1)/pngMinBandRows)
	n = max(n, 1)
	bands := make([]band, n)
	var wg sync.WaitGroup
	for i := range bands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bands[i] = deflateBand(pix, stride, width, height*i/n, height*(i+1)/n, i == n-1)
		}()
	}
	wg.Wait()
	defer func() {
		for _, b := range bands {
			bandBuffers.Put(b.out)
		}
	}()
	for _, b := range bands {
		if !b.opaque {
			return stdPNG(w, img)
		}
	}
	return writePNG(w, width, height, bands)
}

// deflateBand filters rows y0..y1 to RGB (filter type 0) and deflates them; the last
// band ends the deflate stream, the others end with a sync flush at a byte boundary.
func deflateBand(pix []byte, stride, width, y0, y1 int, last bool) band {
	out := bandBuffers.Get().(*bytes.Buffer)
	out.Reset()
	zw := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(zw)
	zw.Reset(out)
	rowp := rowBuffers.Get().(*[]byte)
	defer rowBuffers.Put(rowp)
	rowLen := 1 + 3*width
	if cap(*rowp) < pngBlockRows*rowLen {
		*rowp = make([]byte, pngBlockRows*rowLen)
	}
	buf := (*rowp)[:pngBlockRows*rowLen]
	sum := adler32.New()
	var alpha byte = 0xff
	b := band{out: out}
	for y := y0; y < y1; {
		rows := min(pngBlockRows, y1-y)
		chunk := buf[:rows*rowLen]
		for r := 0; r < rows; r++ {
			src := pix[(y+r)*stride : (y+r)*stride+4*width]
			dst := chunk[r*rowLen : (r+1)*rowLen]
			dst[0] = 0 // filter type None
			d := dst[1:]
			for s := 0; s+3 < len(src); s += 4 {
				d[0], d[1], d[2] = src[s], src[s+1], src[s+2]
				alpha &= src[s+3]
				d = d[3:]
			}
		}
		sum.Write(chunk)
		zw.Write(chunk) // writes into a bytes.Buffer: cannot fail
		b.n += int64(len(chunk))
		y += rows
	}
	if last {
		zw.Close()
	} else {
		zw.Flush()
	}
	b.adler = sum.Sum32()
	b.opaque = alpha == 0xff
	return b
}

// writePNG writes the signature, IHDR, one IDAT holding the zlib stream made of bands,
// and IEND.
func writePNG(w io.Writer, width, height int, bands []band) error {
	var hdr [13]byte
	binary.BigEndian.PutUint32(hdr[0:], uint32(width))
	binary.BigEndian.PutUint32(hdr[4:], uint32(height))
	hdr[8], hdr[9] = 8, 2          // 8 bits per sample, truecolour; compression, filter, interlace 0
	zlibHead := []byte{0x78, 0x01} // deflate, 32 KiB window, fastest
	var adler uint32 = 1
	size := len(zlibHead) + 4
	for _, b := range bands {
		adler = adler32Combine(adler, b.adler, b.n)
		size += b.out.Len()
	}
	var tail [4]byte
	binary.BigEndian.PutUint32(tail[:], adler)
	parts := [][]byte{zlibHead}
	for _, b := range bands {
		parts = append(parts, b.out.Bytes())
	}
	parts = append(parts, tail[:])
	if _, err := w.Write(pngSignature); err != nil {
		return err
	}
	if err := writeChunk(w, "IHDR", hdr[:]); err != nil {
		return err
	}
	if err := writeChunk(w, "IDAT", parts...); err != nil {
		return err
	}
	return writeChunk(w, "IEND")
}

// writeChunk writes one PNG chunk whose data is the concatenation of parts.
func writeChunk(w io.Writer, typ string, parts ...[]byte) error {
	var head [8]byte
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	binary.BigEndian.PutUint32(head[:4], uint32(n))
	copy(head[4:], typ)
	crc := crc32.NewIEEE()
	crc.Write(head[4:])
	if _, err := w.Write(head[:]); err != nil {
		return err
	}
	for _, p := range parts {
		crc.Write(p)
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	var foot [4]byte
	binary.BigEndian.PutUint32(foot[:], crc.Sum32())
	_, err := w.Write(foot[:])
	return err
}

// adler32Combine returns the Adler-32 of A followed by B from the checksums of A (a1)
// and of B (a2), and B's length (zlib's adler32_combine).
func adler32Combine(a1, a2 uint32, len2 int64) uint32 {
	const base = 65521
	rem := uint64(len2 % base)
	s1 := uint64(a1 & 0xffff)
	s2 := rem * s1 % base
	s1 += uint64(a2&0xffff) + base - 1
	s2 += uint64(a1>>16) + uint64(a2>>16) + base - rem
	return uint32(s2%base)<<16 | uint32(s1%base)
}

func stdPNG(w io.Writer, img image.Image) error {
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	return enc.Encode(w, img)
}
