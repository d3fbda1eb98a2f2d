package device

import (
	"context"
	"fixthis/app/errcode"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"
	"unicode"
)

// PaintReport is what a console says it paints: the body of POST /api/preview/stats,
// sent every few seconds while live pictures arrive. The app has no other view into a
// console, and the desktop window none at all, so this is how its log, `GET
// /api/preview` and the benchmark learn which decoder a window uses and how fast.
type PaintReport struct {
	Transport     string   `json:"transport"` // "h264" or "jpeg"
	Decoder       string   `json:"decoder"`
	FramesPainted int      `json:"framesPainted"`
	FPS           float64  `json:"fps"`
	LatencyMsP50  *float64 `json:"latencyMsP50"`
	// ReceivedAt is stamped by the app (RFC 3339); a console's value is ignored.
	ReceivedAt string `json:"receivedAt,omitempty"`
}

// maxDecoderName bounds the decoder description a console may send.
const maxDecoderName = 200

// Validate reports what is wrong with a console's report.
func (r PaintReport) Validate() error {
	if r.Transport != "h264" && r.Transport != "jpeg" {
		return fmt.Errorf("transport must be h264 or jpeg, not %s", errcode.Quote(r.Transport))
	}
	if len(r.Decoder) > maxDecoderName || strings.IndexFunc(r.Decoder, unicode.IsControl) >= 0 {
		return fmt.Errorf("decoder must be at most %d printable characters", maxDecoderName)
	}
	finite := func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }
	if r.FramesPainted < 0 || !finite(r.FPS) || (r.LatencyMsP50 != nil && !finite(*r.LatencyMsP50)) {
		return fmt.Errorf("framesPainted, fps and latencyMsP50 must be non-negative numbers")
	}
	return nil
}

// paintReports keeps the newest report and logs it: at Info when the transport or
// decoder changes (a line worth having when someone asks why the mirror is slow), at
// Debug every time (FIXTHIS_LOG=debug; the benchmark reads these).
type paintReports struct {
	mu     sync.Mutex
	latest *PaintReport
}

func (pr *paintReports) note(log *slog.Logger, r PaintReport, now time.Time) {
	r.ReceivedAt = now.UTC().Format(time.RFC3339Nano)
	pr.mu.Lock()
	changed := pr.latest == nil || pr.latest.Transport != r.Transport || pr.latest.Decoder != r.Decoder
	pr.latest = &r
	pr.mu.Unlock()
	p50 := -1.0
	if r.LatencyMsP50 != nil {
		p50 = *r.LatencyMsP50
	}
	level := slog.LevelDebug
	if changed {
		level = slog.LevelInfo
	}
	log.Log(context.Background(), level, "console paints the live preview", "transport", r.Transport, "decoder", r.Decoder,
		"framesPainted", r.FramesPainted, "fps", r.FPS, "latencyMsP50", p50)
}

func (pr *paintReports) last() *PaintReport {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.latest == nil {
		return nil
	}
	c := *pr.latest
	return &c
}

// NotePaint records a console's report; see PaintReport.
func (p *Preview) NotePaint(r PaintReport) error {
	if err := r.Validate(); err != nil {
		return err
	}
	p.paints.note(p.log, r, time.Now())
	return nil
}
