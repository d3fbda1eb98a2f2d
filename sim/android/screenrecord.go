// screenrecord: its arguments as Android checks them, and the H.264 stream of the
// screen, scaled and letterboxed.
package android

import (
	"bytes"
	"fmt"
	"image"
	"strconv"
	"strings"
	"time"

	"fixthis/internal/h264"
)

// screenrecord's limits and defaults, as Android 10+ ships them.
const (
	recordMinBitRate    = 100000
	recordMaxBitRate    = 200 * 1000000
	recordDefaultRate   = 20000000
	recordMaxTimeLimit  = 180
	recordFallbackW     = 1280
	recordFallbackH     = 720
	recordMaxEncoderDim = 4096 // what the simulated "hardware" encoder accepts per side
	recordFrameInterval = time.Second / 60
	recordIFrameEvery   = 10 * time.Second // screenrecord asks its encoder for i-frame-interval 10
)

const recordUsage = `Usage: screenrecord [options] <filename>

Android screenrecord v1.3.  Records the device's display to a .mp4 file.

Options:
--size WIDTHxHEIGHT
    Set the video size, e.g. "1280x720".  Default is the device's main
    display resolution (if supported), 1280x720 if not.  For best results,
    use a size supported by the AVC encoder.
--bit-rate RATE
    Set the video bit rate, in bits per second.  Value may be specified as
    bits or megabits, e.g. '4000000' is equivalent to '4M'.  Default %dMbps.
--bugreport
    Add additional information, such as a timestamp overlay, that is helpful
    in videos captured to illustrate bugs.
--time-limit TIME
    Set the maximum recording time, in seconds.  Default / maximum is %d.
--verbose
    Display interesting information on stdout.
--help
    Show this message.

Recording continues until Ctrl-C is hit or the time limit is reached.

`

// recordArgs are screenrecord's parsed options.
type recordArgs struct {
	w, h      int // 0: the display's size
	bitRate   int
	timeLimit int
	format    string
	verbose   bool
	file      string
}

// parseRecordArgs reads options the way screenrecord's getopt_long loop does and
// prints what it prints; ok is false when the command must exit with status.
func parseRecordArgs(e *cmdEnv) (a recordArgs, status int, ok bool) {
	a = recordArgs{bitRate: recordDefaultRate, timeLimit: recordMaxTimeLimit, format: "mp4"}
	withArg := map[string]bool{"size": true, "bit-rate": true, "time-limit": true, "output-format": true, "codec-name": true}
	noArg := map[string]bool{"help": true, "verbose": true, "bugreport": true, "show-device-info": true,
		"show-frame-time": true, "rotate": true, "monotonic-time": true, "persistent-surface": true}
	var operands []string
	args := e.Args[1:]
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			operands = append(operands, arg)
			continue
		}
		if !strings.HasPrefix(arg, "--") {
			return a, e.Errorf(2, "screenrecord: invalid option -- '%s'\n", arg[1:2]), false
		}
		name, val, hasVal := strings.Cut(arg[2:], "=")
		switch {
		case noArg[name]:
			if hasVal {
				return a, e.Errorf(2, "screenrecord: option '--%s' doesn't allow an argument\n", name), false
			}
		case withArg[name]:
			if !hasVal {
				if i+1 >= len(args) {
					return a, e.Errorf(2, "screenrecord: option '--%s' requires an argument\n", name), false
				}
				i++
				val = args[i]
			}
		default:
			return a, e.Errorf(2, "screenrecord: unrecognized option '%s'\n", arg), false
		}
		switch name {
		case "help":
			return a, e.Errorf(0, recordUsage, a.bitRate/1000000, a.timeLimit), false
		case "verbose":
			a.verbose = true
		case "size":
			w, h, good := parseWidthHeight(val)
			if !good {
				return a, e.Errorf(2, "Invalid size '%s', must be width x height\n", val), false
			}
			if w == 0 || h == 0 {
				return a, e.Errorf(2, "Invalid size %dx%d, width and height may not be zero\n", w, h), false
			}
			a.w, a.h = w, h
		case "bit-rate":
			rate, good := parseValueWithUnit(val)
			if !good {
				return a, e.Errorf(2, "Unrecognized value: %s\n", val), false
			}
			if rate < recordMinBitRate || rate > recordMaxBitRate {
				return a, e.Errorf(2, "Bit rate %dbps outside acceptable range [%d,%d]\n", rate, recordMinBitRate, recordMaxBitRate), false
			}
			a.bitRate = rate
		case "time-limit":
			t := atoi(val)
			if t == 0 || t > recordMaxTimeLimit {
				return a, e.Errorf(2, "Time limit %ds outside acceptable range [1,%d]\n", t, recordMaxTimeLimit), false
			}
			a.timeLimit = t
		case "output-format":
			switch val {
			case "mp4", "h264", "webm", "3gpp", "frames", "raw-frames":
				a.format = val
			default:
				return a, e.Errorf(2, "Unknown format '%s'\n", val), false
			}
		}
	}
	if len(operands) != 1 {
		return a, e.Errorf(2, "Must specify output file (see --help).\n"), false
	}
	a.file = operands[0]
	return a, 0, true
}

// parseWidthHeight reads "1280x720" with strtol's leniency: leading digits, an 'x',
// then digits to the end.
func parseWidthHeight(s string) (int, int, bool) {
	ws, hs, found := strings.Cut(s, "x")
	if !found || ws == "" || hs == "" {
		return 0, 0, false
	}
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err1 != nil || err2 != nil || w < 0 || h < 0 {
		return 0, 0, false
	}
	return w, h, true
}

// parseValueWithUnit reads "4000000" or "4M".
func parseValueWithUnit(s string) (int, bool) {
	mult := 1
	if strings.HasSuffix(s, "M") || strings.HasSuffix(s, "m") {
		s, mult = s[:len(s)-1], 1000000
	}
	n, err := strconv.Atoi(s)
	return n * mult, err == nil
}

// atoi is C's atoi: leading digits, 0 when there are none.
func atoi(s string) int {
	end := 0
	for end < len(s) && (s[end] >= '0' && s[end] <= '9' || end == 0 && s[end] == '-') {
		end++
	}
	n, _ := strconv.Atoi(s[:end])
	return n
}

// cmdScreenrecord is `screenrecord [options] FILE`. The simulated encoder produces
// --output-format=h264 only: a raw Annex-B stream (FILE "-" is stdout) of what the
// phone renders, a new access unit only when the screen changed, until the time
// limit or until the host closes the stream.
func cmdScreenrecord(e *cmdEnv) int {
	a, status, ok := parseRecordArgs(e)
	if !ok {
		return status
	}
	if a.format != "h264" {
		return e.Errorf(1, "screenrecord: the simulated device's encoder writes --output-format=h264 only, not %s\n", a.format)
	}
	disp := e.dev.phone.Frame().Bounds().Size()
	w, h := a.w, a.h
	if w == 0 {
		w, h = disp.X, disp.Y
	}
	enc, err := newRecordEncoder(w, h)
	if err != nil && a.w == 0 {
		// Without --size, screenrecord retries at 720p in the display's orientation.
		fw, fh := recordFallbackW, recordFallbackH
		if w < h {
			fw, fh = fh, fw
		}
		e.Errorf(0, "WARNING: failed at %dx%d, retrying at %dx%d\n", w, h, fw, fh)
		w, h = fw, fh
		enc, err = newRecordEncoder(w, h)
	}
	if err != nil {
		// screenrecord returns the codec's status_t (UNKNOWN_ERROR) from main; the
		// exit status keeps its low byte, which is 0.
		e.Errorf(0, "ERROR: unable to configure video/avc codec at %dx%d (err=-2147483648)\n", w, h)
		return 0
	}
	if a.verbose && a.file != "-" {
		e.Printf("Configuring recorder for %dx%d video/avc at %.2fMbps\n", w, h, float64(a.bitRate)/1e6)
	}
	var out bytes.Buffer
	sink := e.Stdout
	if a.file != "-" {
		sink = &out
	}
	r := recorder{e: e, enc: enc, w: w, h: h}
	stopped := r.run(sink, time.Duration(a.timeLimit)*time.Second)
	if a.file != "-" {
		if err := e.dev.fs.WriteFile(e.Resolve(a.file), out.Bytes(), 0o644); err != nil {
			return e.Errorf(1, "Unable to open '%s': %v\n", a.file, err)
		}
	}
	if stopped {
		return 130
	}
	return 0
}

// newRecordEncoder refuses what a phone's AVC encoder would: odd or oversized frames.
func newRecordEncoder(w, h int) (*h264.Encoder, error) {
	if w > recordMaxEncoderDim || h > recordMaxEncoderDim {
		return nil, fmt.Errorf("%dx%d exceeds the encoder's %d pixels per side", w, h, recordMaxEncoderDim)
	}
	return h264.NewEncoder(w, h)
}

// recorder is one screenrecord run: it projects the display into the video frame,
// letterboxed to keep its aspect as SurfaceFlinger's virtual display does, and
// encodes whenever the phone's picture changed.
type recorder struct {
	e      *cmdEnv
	enc    *h264.Encoder
	w, h   int
	canvas *image.RGBA
	// The scaler's taps, kept while the display and content sizes stay the same.
	content image.Rectangle
	srcSize image.Point
	xs, ys  []tap
}

// run streams until the time limit (false) or until the command is cancelled or its
// output closed (true).
func (r *recorder) run(sink interface{ Write([]byte) (int, error) }, limit time.Duration) bool {
	ctx := r.e.Ctx
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	frames := make(chan *image.RGBA, 1)
	stop := make(chan struct{})
	defer close(stop)
	go r.display(frames, stop)
	r.canvas = image.NewRGBA(image.Rect(0, 0, r.w, r.h))
	var lastKey time.Time
	first := true
	for {
		select {
		case <-ctx.Done():
			return true
		case <-deadline.C:
			return false
		case frame := <-frames:
			r.project(frame)
			key := !first && time.Since(lastKey) >= recordIFrameEvery
			au, isKey, err := r.enc.Encode(r.canvas, key)
			if err != nil {
				r.e.Errorf(0, "Encoder failed (err=%v)\n", err)
				return false
			}
			if isKey {
				lastKey = time.Now()
			}
			first = false
			if au != nil {
				if _, err := sink.Write(au); err != nil {
					return true
				}
			}
		}
	}
}

// display plays the phone's compositor: at each display frame where the picture
// changed it renders it and hands it to the encoder, replacing one the encoder has
// not taken yet. Rendering the next picture while the last one is encoded is what
// keeps the recording at display rate; an encoder that falls behind skips pictures
// instead of queueing them, as a phone's does.
func (r *recorder) display(frames chan *image.RGBA, stop <-chan struct{}) {
	tick := time.NewTicker(recordFrameInterval)
	defer tick.Stop()
	phone := r.e.dev.phone
	var last uint64
	first := true
	for {
		if v := phone.Version(); first || v != last {
			last, first = v, false
			frame := phone.Frame()
			select {
			case <-frames:
			default:
			}
			frames <- frame
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// project draws frame into the canvas: scaled to fit, centred, black around it.
func (r *recorder) project(frame *image.RGBA) {
	src := frame.Bounds()
	dst := r.canvas.Bounds()
	if src.Size() == dst.Size() {
		copy(r.canvas.Pix, frame.Pix[frame.PixOffset(src.Min.X, src.Min.Y):])
		return
	}
	content := contentRect(src.Dx(), src.Dy(), r.w, r.h)
	if content != dst {
		clear(r.canvas.Pix)
		for i := 3; i < len(r.canvas.Pix); i += 4 {
			r.canvas.Pix[i] = 0xff
		}
	}
	r.scale(frame, content)
}

// scale draws src bilinearly into the content rectangle of the canvas. It is the
// sim's stand-in for the GPU's scaler: x/image/draw takes ~30 ms per frame here,
// this ~3 ms, which keeps the recording at display rate.
func (r *recorder) scale(src *image.RGBA, content image.Rectangle) {
	sb := src.Bounds()
	if r.xs == nil || r.content != content || r.srcSize != sb.Size() {
		r.content, r.srcSize = content, sb.Size()
		r.xs = make([]tap, content.Dx())
		for x := range r.xs {
			r.xs[x] = tapAt(x, content.Dx(), sb.Dx())
		}
		r.ys = make([]tap, content.Dy())
		for y := range r.ys {
			r.ys[y] = tapAt(y, content.Dy(), sb.Dy())
		}
	}
	for y, ty := range r.ys {
		row0 := src.Pix[src.PixOffset(sb.Min.X, sb.Min.Y+ty.i0):]
		row1 := src.Pix[src.PixOffset(sb.Min.X, sb.Min.Y+ty.i1):]
		dst := r.canvas.Pix[r.canvas.PixOffset(content.Min.X, content.Min.Y+y):]
		wy1 := ty.w
		wy0 := 256 - wy1
		for x, tx := range r.xs {
			a, b := tx.i0*4, tx.i1*4
			wx1 := tx.w
			wx0 := 256 - wx1
			o := x * 4
			for c := 0; c < 3; c++ {
				top := int32(row0[a+c])*wx0 + int32(row0[b+c])*wx1
				bot := int32(row1[a+c])*wx0 + int32(row1[b+c])*wx1
				dst[o+c] = byte((top*wy0 + bot*wy1 + 1<<15) >> 16)
			}
			dst[o+3] = 0xff
		}
	}
}

// tap is one output coordinate's two source neighbours and the weight (0..256) of
// the second.
type tap struct {
	i0, i1 int
	w      int32
}

func tapAt(out, outLen, srcLen int) tap {
	f := (float64(out)+0.5)*float64(srcLen)/float64(outLen) - 0.5
	f = max(0, min(f, float64(srcLen-1)))
	i0 := int(f)
	i1 := min(i0+1, srcLen-1)
	return tap{i0: i0, i1: i1, w: int32((f - float64(i0)) * 256)}
}

// contentRect is where a dispW×dispH display lands inside a videoW×videoH frame:
// as large as fits with the display's aspect, centred (screenrecord's projection).
// capture/video predicts the same rectangle on the host; the two are written apart on
// purpose, so a host that gets the projection wrong disagrees with the phone in tests.
func contentRect(dispW, dispH, videoW, videoH int) image.Rectangle {
	aspect := float64(dispH) / float64(dispW)
	outW, outH := videoW, int(float64(videoW)*aspect)
	if videoH <= outH {
		outH, outW = videoH, int(float64(videoH)/aspect)
	}
	offX, offY := (videoW-outW)/2, (videoH-outH)/2
	return image.Rect(offX, offY, offX+outW, offY+outH)
}
