package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"fixthis/app/audit"
	"fixthis/capture"
)

// auditMemoryLimit is the heap size at which the audit collects garbage after all.
const auditMemoryLimit = 256 << 20

// runAudit audits a saved uiautomator dump (and its screenshot) with no phone: the
// accessibility and layout checks of app/audit.
func runAudit(ctx context.Context, env Env, args []string) error {
	f := newFlags("audit", env.Stdout)
	dumpPath := f.String("dump", "", "uiautomator dump file (required)")
	shotPath := f.String("screenshot", "", "PNG screenshot of the same screen; without it the contrast checks do not run")
	density := f.Int("density", 0, "the display density in dpi, as `adb shell wm density` prints it (required)")
	asJSON := f.Bool("json", false, `print {"findings": [...]}`)
	if err := parse(f, args); err != nil {
		return err
	}
	if *dumpPath == "" {
		return usagef("--dump FILE is required")
	}
	if *density == 0 {
		return usagef("--density DPI is required (adb shell wm density prints it, e.g. 420)")
	}
	// A one-shot command holding a few screenfuls of pixels: collecting garbage
	// along the way costs ~10 % of its CPU and frees nothing it needs. The limit
	// still lets the collector run should a huge input grow the heap.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(auditMemoryLimit))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	data, err := os.ReadFile(*dumpPath)
	if err != nil {
		return fmt.Errorf("read %s: %w", *dumpPath, err)
	}
	in, err := audit.ReadDump(data)
	if err != nil {
		return fmt.Errorf("parse %s: %w", *dumpPath, err)
	}
	in.DensityDPI = *density
	if *shotPath != "" {
		png, err := os.ReadFile(*shotPath)
		if err != nil {
			return fmt.Errorf("read %s: %w", *shotPath, err)
		}
		if in.Pixels, err = capture.DecodePNG(png); err != nil {
			return fmt.Errorf("%s: %w", *shotPath, err)
		}
	}
	findings, err := audit.Run(in)
	if err != nil {
		return err
	}
	if *asJSON {
		if findings == nil {
			findings = []audit.Finding{}
		}
		out, err := json.Marshal(map[string]any{"findings": findings})
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	printFindings(env.Stdout, findings)
	return nil
}

// printFindings writes a line per finding (severity, check, node, bounds, measured
// and required), its message and fix indented below, then a count by severity.
func printFindings(w io.Writer, findings []audit.Finding) {
	count := map[string]int{}
	for _, x := range findings {
		count[x.Severity]++
		b := x.Bounds
		fmt.Fprintf(w, "%-7s %-26s %s [%d,%d][%d,%d]  %s, needs %s\n        %s\n        fix: %s\n",
			x.Severity, x.Check, x.NodeUID, b.Left, b.Top, b.Right, b.Bottom, x.Measured, x.Required, x.Message, x.Suggestion)
	}
	fmt.Fprintf(w, "%s: %s, %s, %d info\n", plural(len(findings), "finding"),
		plural(count[audit.SeverityError], "error"), plural(count[audit.SeverityWarning], "warning"), count[audit.SeverityInfo])
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
