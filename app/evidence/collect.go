package evidence

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/app/evidence/network"
)

// Shell runs one shell command on the device evidence is collected from: the adb
// handle (adb.Client.Device) is one as it is.
type Shell interface {
	Shell(ctx context.Context, cmd string) (adb.ShellResult, error)
}

// Defaults for Request.
const (
	DefaultTimeout  = 2 * time.Second // each collector
	DefaultBudget   = 3 * time.Second // the whole preset
	DefaultLookback = 30 * time.Second
	// maxRaw bounds what one collector stores; logcat keeps the newest part.
	maxRaw = 512 << 10
)

// Request says what to collect, from which device and app, and where to
// store the redacted raw output.
type Request struct {
	Serial  string
	Package string
	// Since is when the log window starts: shortly before the freeze.
	Since time.Time
	// Freeze is when the screen was frozen; the network window starts
	// NetworkLookback before it. Zero takes it as DefaultLookback after Since.
	Freeze time.Time
	// WebView is what a webview.Watcher saw of the app's WebView between the
	// freeze and now; the network collector reports it with the log's calls.
	WebView []network.Request
	// WebViewNote says why there are none when a watch was tried and failed,
	// as a fixed phrase ("the DevTools socket did not answer"), never an
	// error's text, which may carry serials or ports; it becomes a note.
	WebViewNote string
	// Bodies keeps the text of the HTTP bodies the app logged (OkHttp at BODY
	// level) with its calls, redacted by the same rules as every line and at
	// most network.MaxBody bytes each; off, a body is only its size and type.
	// The user turns it on; nothing else does.
	Bodies bool
	// Timeout bounds each collector, Budget the whole preset (defaults above).
	Timeout time.Duration
	Budget  time.Duration
	// Store receives the redacted raw output; nil stores nothing.
	Store *Store
	// SessionID and CaptureID name the storage directory. An empty CaptureID
	// gets a new random one.
	SessionID string
	CaptureID string

	// log is the preset's shared logcat read (applog.go).
	log *appLogRead
}

// collector is one allowlisted collector: it runs its exact commands and
// turns their output into an attachment. raw is what gets stored.
type collector struct {
	kind Kind
	file string
	run  func(ctx context.Context, sh Shell, req Request) (raw string, at Attachment)
}

// preset is the baseline preset.
var preset = []collector{
	{KindLogcat, "logcat.txt", runLogcat},
	{KindFrames, "gfxinfo.txt", runGfxinfo},
	{KindMemory, "meminfo.txt", runMeminfo},
	{KindNetwork, "network.json", runNetwork},
}

// Collect runs the baseline preset: every collector at once, each under its
// own timeout and all under the budget. It always returns an attempt; what
// went wrong is in its status, reasons and warnings.
func Collect(ctx context.Context, sh Shell, req Request) Attempt {
	if req.CaptureID == "" {
		req.CaptureID = NewCaptureID()
	}
	start := time.Now()
	att := Attempt{ID: req.CaptureID, Package: req.Package, StartedAt: start.UnixMilli()}
	switch {
	case req.Serial == "":
		att.Attachments = unsupportedAll(ReasonNoDevice)
	case req.Package == "", adb.CheckPackage(req.Package) != nil:
		// A value that is no package name never reaches a device command.
		att.Attachments = unsupportedAll(ReasonNoPackage)
	default:
		var raws []rawOutput
		att.Attachments, raws = runCollectors(ctx, sh, req, preset)
		storeRaw(req, &att, raws)
	}
	att.finish()
	att.DurationMs = time.Since(start).Milliseconds()
	return att
}

// rawOutput pairs an attachment with the output it came from.
type rawOutput struct {
	text string
	file string
}

// runCollectors runs cs at once, each under its own timeout, all under the
// budget (the defaults where the request sets none), beside the logcat read
// they share.
func runCollectors(ctx context.Context, sh Shell, req Request, cs []collector) ([]Attachment, []rawOutput) {
	if req.Timeout <= 0 {
		req.Timeout = DefaultTimeout
	}
	if req.Budget <= 0 {
		req.Budget = DefaultBudget
	}
	ctx, cancel := context.WithTimeout(ctx, req.Budget)
	defer cancel()
	if slices.ContainsFunc(cs, func(c collector) bool { return c.kind == KindLogcat || c.kind == KindNetwork }) {
		logCtx, logCancel := context.WithTimeout(ctx, req.Timeout)
		defer logCancel()
		req.log = startLogRead(logCtx, sh, req)
	}
	out := make([]Attachment, len(cs))
	raws := make([]rawOutput, len(cs))
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, ccancel := context.WithTimeout(ctx, req.Timeout)
			defer ccancel()
			t0 := time.Now()
			raw, at := c.run(cctx, sh, req)
			at.Kind, at.DurationMs = c.kind, time.Since(t0).Milliseconds()
			redactAttachment(&at)
			out[i], raws[i] = at, rawOutput{text: raw, file: c.file}
		}()
	}
	wg.Wait()
	return out, raws
}

// unsupportedAll is the preset's result when it cannot start at all.
func unsupportedAll(r Reason) []Attachment {
	out := make([]Attachment, len(preset))
	for i, c := range preset {
		out[i] = Attachment{Kind: c.kind, Status: StatusUnsupported, Reason: r, Summary: describe(c.kind, r)}
	}
	return out
}

// reasonWords says a reason in words; a reason not listed reads as a failed command.
var reasonWords = map[Reason]string{
	ReasonNoDevice:          "no device selected",
	ReasonNoPackage:         "the app's package is not known",
	ReasonProcessNotRunning: "the app's process is not running",
	ReasonTimeout:           "the device did not answer in time",
	ReasonDeviceGone:        "the device disconnected",
	ReasonUnparsable:        "the device printed a format FixThis does not know",
}

// describe says in words why a collector produced nothing.
func describe(k Kind, r Reason) string {
	what := map[Kind]string{KindLogcat: "log", KindFrames: "frame stats", KindMemory: "memory stats", KindNetwork: "network calls"}[k]
	why, ok := reasonWords[r]
	if !ok {
		why = "the command failed"
	}
	return "no " + what + ": " + why
}

// reasonFor maps an exec error to a reason token.
func reasonFor(ctx context.Context, err error) Reason {
	switch {
	case errors.Is(err, context.DeadlineExceeded) || ctx.Err() != nil:
		return ReasonTimeout
	case errors.Is(err, adb.ErrDeviceGone) || errors.Is(err, adb.ErrDeviceNotFound):
		return ReasonDeviceGone
	}
	return ReasonCommandFailed
}

func failed(k Kind, r Reason) Attachment {
	return Attachment{Kind: k, Status: StatusFailed, Reason: r, Summary: describe(k, r)}
}

// shell runs cmd and returns its redacted stdout.
func shell(ctx context.Context, sh Shell, cmd string) (string, Reason) {
	text, r := rawShell(ctx, sh, cmd)
	return Redact(text), r
}

// rawShell runs cmd and returns its stdout as the device printed it, for a
// caller that redacts the part it keeps; a non-zero exit with nothing on
// stdout is a failed command.
func rawShell(ctx context.Context, sh Shell, cmd string) (string, Reason) {
	res, err := sh.Shell(ctx, cmd)
	if err != nil {
		return "", reasonFor(ctx, err)
	}
	if res.ExitCode != 0 && len(res.Stdout) == 0 {
		return "", ReasonCommandFailed
	}
	return string(res.Stdout), ReasonNone
}

func runLogcat(ctx context.Context, sh Shell, req Request) (string, Attachment) {
	lr, r := req.sharedLog(ctx, sh)
	if r != ReasonNone {
		return "", failed(KindLogcat, r)
	}
	if lr.unread > 0 {
		slog.Debug("logcat: lines in no threadtime format", "lines", lr.unread)
	}
	// The app's lines again, redacted: the summary's texts must be too. The
	// system lines that named the app's processes are not among them, so the
	// processes the whole log named are handed in.
	sum, kept, _ := parseLogcat(strings.Join(lr.app, "\n"), req.Package, append([]int{lr.pid}, lr.pids...)...)
	// Only the app's own lines (with its crash and ANR records) are kept: other
	// apps' logs are none of this feedback's business.
	raw := ""
	if len(kept) > 0 {
		raw = strings.Join(kept, "\n") + "\n"
	}
	if len(raw) > maxRaw {
		raw = raw[len(raw)-maxRaw:]
		if i := strings.IndexByte(raw, '\n'); i >= 0 {
			raw = raw[i+1:]
		}
	}
	return raw, Attachment{Status: StatusComplete, Summary: sum.Line(), Logcat: &sum}
}

// gfxinfoCommand is `dumpsys gfxinfo <pkg>`.
func gfxinfoCommand(pkg string) string { return adb.Command("dumpsys", "gfxinfo", pkg) }

func runGfxinfo(ctx context.Context, sh Shell, req Request) (string, Attachment) {
	return runDumpsys(ctx, sh, req, KindFrames, gfxinfoCommand(req.Package), ParseGfxinfo,
		func(at *Attachment, s FrameSummary) { at.Frames = &s })
}

// meminfoCommand is `dumpsys meminfo <pkg>`.
func meminfoCommand(pkg string) string { return adb.Command("dumpsys", "meminfo", pkg) }

func runMeminfo(ctx context.Context, sh Shell, req Request) (string, Attachment) {
	return runDumpsys(ctx, sh, req, KindMemory, meminfoCommand(req.Package), ParseMeminfo,
		func(at *Attachment, s MemorySummary) { at.Memory = &s })
}

// runDumpsys runs one dumpsys collector: the command, its parser, and the
// attachment with the parsed figures set by attach. What the device printed is
// kept even when it does not parse, so the artifact shows why.
func runDumpsys[S interface{ Line() string }](ctx context.Context, sh Shell, req Request, k Kind, cmd string,
	parse func(string) (S, error), attach func(*Attachment, S)) (string, Attachment) {
	text, r := shell(ctx, sh, cmd)
	if r != ReasonNone {
		return "", failed(k, r)
	}
	sum, err := parse(text)
	if at, bad := parseFailure(k, err); bad {
		return capRaw(text), at
	}
	at := Attachment{Status: StatusComplete, Summary: sum.Line()}
	attach(&at, sum)
	return capRaw(text), at
}

// parseFailure maps a parser error: no process is unsupported (there is
// nothing to measure, and no number is made up), anything else failed.
func parseFailure(k Kind, err error) (Attachment, bool) {
	switch {
	case err == nil:
		return Attachment{}, false
	case errors.Is(err, ErrNoProcess):
		return Attachment{Kind: k, Status: StatusUnsupported, Reason: ReasonProcessNotRunning, Summary: describe(k, ReasonProcessNotRunning)}, true
	}
	return failed(k, ReasonUnparsable), true
}

func capRaw(s string) string {
	if len(s) > maxRaw {
		return s[:maxRaw]
	}
	return s
}
