package handoff

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"fixthis/app/source"
)

// The words of the prompt: how a value, a name, a term list or a box is written
// on one line, bounded and quoted.

// oneLine folds any line breaks and tabs into spaces: every value in the
// prompt must stay on its own line for the grammar to hold.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t\v\f\u2028\u2029") {
		return strings.TrimSpace(s)
	}
	return strings.Join(strings.Fields(s), " ")
}

// token makes a value safe where the grammar expects a single word.
// checkID says whether c is a check id the check: line can carry as it is: 1-40
// lowercase letters and underscores (the store refuses anything else).
func checkID(c string) bool {
	if c == "" || len(c) > 40 {
		return false
	}
	for i := 0; i < len(c); i++ {
		if (c[i] < 'a' || c[i] > 'z') && c[i] != '_' {
			return false
		}
	}
	return true
}

func token(s, fallback string) string {
	s = strings.Join(strings.Fields(s), "-")
	s = strings.NewReplacer(",", "", "[", "", "]", "", "=", "-").Replace(s)
	if s == "" {
		return fallback
	}
	return s
}

// indexName is which source index found a candidate, "" when it does not say: the
// project folder's (current lines), the installed app's (the build's lines), or both.
func indexName(ix source.IndexSource) string {
	switch ix {
	case source.FromProject, source.FromApp, source.FromBoth:
		return string(ix)
	}
	return ""
}

func level(c string) string {
	switch c {
	case "high", "medium", "low":
		return c
	}
	return "none"
}

func terms(ts []string, limit int) string {
	var out []string
	for _, t := range ts {
		if limit > 0 && len(out) == limit {
			break
		}
		if t = token(t, ""); t != "" {
			out = append(out, t)
		}
	}
	return strings.Join(out, ", ")
}

func bounded(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// quote renders a UI string as a double-quoted, escaped, bounded value.
func quote(s string) string { return quoteN(s, maxValueRunes) }

// maxSaidRunes bounds the transcript excerpt of a voice item's said: line.
const maxSaidRunes = 200

// quoteN is quote with its own bound of n characters.
func quoteN(s string, n int) string {
	s = bounded(oneLine(s), n)
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s)
	return `"` + s + `"`
}

// buildLine is the header's app build: package, version, install time (UTC) and the
// source commit, e.g.
// "- App build: `com.x.debug` 2.5.0 (versionCode 250), installed 2026-12-01 08:29 UTC; source: git 1a2b3c4d, uncommitted changes".
func buildLine(b *Build) string {
	var sb strings.Builder
	sb.WriteString("- App build: `" + strings.ReplaceAll(oneLine(b.Package), "`", "'") + "`")
	if v := oneLine(b.VersionName); v != "" {
		sb.WriteString(" " + v)
	}
	if b.VersionCode > 0 {
		fmt.Fprintf(&sb, " (versionCode %d)", b.VersionCode)
	}
	if !b.Installed.IsZero() {
		sb.WriteString(", installed " + b.Installed.UTC().Format("2006-01-02 15:04") + " UTC")
	}
	switch head := oneLine(b.GitHead); {
	case head == "":
		sb.WriteString("; source: not a git work tree")
	case b.GitDirty:
		sb.WriteString("; source: git " + shortID(head) + ", uncommitted changes")
	default:
		sb.WriteString("; source: git " + shortID(head))
	}
	return sb.String()
}

func boxString(b Box) string {
	return fmt.Sprintf("(%d,%d)-(%d,%d)", b.Left, b.Top, b.Right, b.Bottom)
}
