package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
)

// runNotices writes THIRD_PARTY_NOTICES for one built executable: the Go standard
// library and every module the binary links, and every npm package bundled into the
// console it embeds, each with the full text of its licence and notice files. MIT,
// BSD and Apache licences ask for exactly this in binary distributions.
func runNotices(args []string) error {
	f := flag.NewFlagSet("notices", flag.ContinueOnError)
	binary := f.String("binary", "", "the built executable (any GOOS)")
	moduleDir := f.String("module-dir", ".", "the main module's directory, where `go mod download` runs")
	maps := f.String("sourcemaps", "", "a build of the console with source maps (vite build --sourcemap --outDir DIR)")
	vite := f.String("vite", "", "the Vite package that built the console, listed when its runtime is in the bundle")
	out := f.String("out", "", "file to write")
	if err := f.Parse(args); err != nil {
		return err
	}
	if *binary == "" || *maps == "" || *out == "" {
		return fmt.Errorf("-binary, -sourcemaps and -out are required")
	}
	bin, err := linkedModules(*binary)
	if err != nil {
		return err
	}
	std, err := goStdlib(*moduleDir, bin.GoVersion)
	if err != nil {
		return err
	}
	mods, err := goComponents(bin.Mods, func(m []modRef) (map[modRef]string, error) { return moduleDirs(*moduleDir, m) })
	if err != nil {
		return err
	}
	npm, err := npmComponents(*maps, *vite)
	if err != nil {
		return err
	}
	if len(npm) == 0 {
		return fmt.Errorf("the source maps under %s name no npm package; the console always bundles the Svelte runtime", *maps)
	}
	return writeWith(*out, func(w *os.File) error {
		return writeNotices(w, bin.Platform, append([]component{std}, mods...), npm)
	})
}

const rule = "================================================================================"

// writeNotices writes the file: a header, an index of every component, then one
// section per component with its licence files verbatim. The output depends only on
// its inputs (components come sorted), so a rebuild gives the same bytes.
func writeNotices(out io.Writer, platform string, goParts, npm []component) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "THIRD-PARTY SOFTWARE NOTICES for FixThis Desktop (%s)\n\n", platform)
	fmt.Fprint(w, wrap("FixThis is built from third-party software: the Go standard library and "+
		"the Go modules linked into the executable, and the npm packages bundled into "+
		"the web console it embeds. Their licences ask that their copyright and licence "+
		"notices accompany every copy. This file lists each component with its version "+
		"and then reproduces the licence and notice files it ships, unchanged.", 80))
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\nGo (%d):\n", len(goParts))
	for _, c := range goParts {
		fmt.Fprintf(tw, "  %s\t%s\n", c.Name, c.Version)
	}
	fmt.Fprintf(tw, "\nnpm packages in the console (%d):\n", len(npm))
	for _, c := range npm {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Name, c.Version, c.License)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, group := range [][]component{goParts, npm} {
		for _, c := range group {
			fmt.Fprintf(w, "\n\n%s\n%s %s\n", rule, c.Name, c.Version)
			if c.License != "" {
				fmt.Fprintf(w, "Declared licence: %s\n", c.License)
			}
			fmt.Fprintf(w, "%s\n", rule)
			for _, lf := range c.Files {
				fmt.Fprintf(w, "\n--- %s ---\n\n%s\n", lf.Name, lf.Text)
			}
		}
	}
	return w.Flush()
}

// wrap breaks text into lines of at most width characters.
func wrap(text string, width int) string {
	var b strings.Builder
	line := 0
	for _, word := range strings.Fields(text) {
		if line > 0 && line+1+len(word) > width {
			b.WriteByte('\n')
			line = 0
		} else if line > 0 {
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += len(word)
	}
	b.WriteByte('\n')
	return b.String()
}
