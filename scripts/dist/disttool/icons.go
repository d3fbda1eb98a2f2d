package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
)

// runIcons writes DIR/NxN/apps/fixthis.png for each size, the hicolor theme layout
// desktop environments look icons up in. Scaling here keeps the release build free of
// an image tool and gives the same bytes on every machine.
func runIcons(args []string) error {
	f := flag.NewFlagSet("icons", flag.ContinueOnError)
	iconPNG := f.String("icon", "build/appicon.png", "square PNG app icon")
	out := f.String("out", "", "hicolor directory to fill (…/share/icons/hicolor)")
	name := f.String("name", "fixthis", "icon name (the launcher entry's Icon=)")
	sizes := f.String("sizes", "16,24,32,48,64,128,256,512", "comma-separated pixel sizes")
	if err := f.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-out is required")
	}
	src, err := decodePNG(*iconPNG)
	if err != nil {
		return err
	}
	if b := src.Bounds(); b.Dx() != b.Dy() {
		return fmt.Errorf("%s is %dx%d; an app icon must be square", *iconPNG, b.Dx(), b.Dy())
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("bad size %q", s)
		}
		dst := image.NewNRGBA(image.Rect(0, 0, n, n))
		draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
		dir := filepath.Join(*out, fmt.Sprintf("%dx%d", n, n), "apps")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		enc := png.Encoder{CompressionLevel: png.BestCompression}
		if err := writeWith(filepath.Join(dir, *name+".png"), func(w *os.File) error { return enc.Encode(w, dst) }); err != nil {
			return err
		}
	}
	return nil
}

func decodePNG(path string) (image.Image, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	img, err := png.Decode(fh)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return img, nil
}
