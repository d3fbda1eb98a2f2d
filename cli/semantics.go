package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"fixthis/capture"
)

// runSemantics parses a uiautomator dump file and prints its nodes (debugging, tests).
func runSemantics(ctx context.Context, env Env, args []string) error {
	f := newFlags("semantics", env.Stdout)
	xmlPath := f.String("xml", "", "uiautomator dump file to parse (required)")
	asJSON := f.Bool("json", false, "print one JSON document")
	if err := parse(f, args); err != nil {
		return err
	}
	if *xmlPath == "" {
		return usagef("--xml FILE is required")
	}
	data, err := os.ReadFile(*xmlPath)
	if err != nil {
		return fmt.Errorf("read %s: %w", *xmlPath, err)
	}
	nodes, err := capture.ParseDump(data)
	if err != nil {
		return fmt.Errorf("parse %s: %w", *xmlPath, err)
	}
	if *asJSON {
		if nodes == nil {
			nodes = []capture.Node{}
		}
		out, _ := json.Marshal(map[string]any{"nodes": nodes})
		fmt.Fprintf(env.Stdout, "%s\n", out)
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "UID\tROLE\tLABEL\tBOUNDS")
	for _, n := range nodes {
		label := firstNonEmpty(n.TestTag, n.Text, n.ContentDescription, n.ResourceID)
		if n.Redacted {
			label = "(redacted)"
		}
		depth := strings.Count(n.IndexPath, ".")
		fmt.Fprintf(tw, "%s%s\t%s\t%q\t[%d,%d][%d,%d]\n", strings.Repeat("  ", depth), n.UID, n.Role, label,
			n.Bounds.Left, n.Bounds.Top, n.Bounds.Right, n.Bounds.Bottom)
	}
	tw.Flush()
	fmt.Fprintf(env.Stdout, "%d nodes\n", len(nodes))
	return nil
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
