package adbtest

import (
	"fmt"
	"strings"

	"fixthis/sim"
)

// Probe is one hostile value for a device command argument: Value is a valid base
// value with shell metacharacters spliced in, and File is the file a device shell
// that ran the injected part would create (empty when the probe changes the command
// in a way a file cannot show, such as an injected option or a comment).
type Probe struct {
	Name  string
	Value string
	File  string
}

// probeDir is where the probes' files would appear on the phone.
const probeDir = "/data/local/tmp/pwned-"

// Probes splices each shell metacharacter FixThis must never let through into base:
// newlines, tabs, ; & && | || > >> < #, $(…), backticks, both kinds of quote, CR,
// NUL, and a tab-separated option.
func Probes(base string) []Probe {
	var out []Probe
	add := func(name, format string) {
		file := probeDir + name
		v := strings.ReplaceAll(format, "BASE", base)
		v = strings.ReplaceAll(v, "FILE", file)
		if !strings.Contains(format, "FILE") {
			file = ""
		}
		out = append(out, Probe{Name: name, Value: v, File: file})
	}
	add("newline", "BASE\ntouch FILE")
	add("newline-tab", "BASE\ntouch\tFILE")
	add("semicolon", "BASE;touch FILE")
	add("background", "BASE&touch FILE")
	add("and", "BASE&&touch FILE")
	add("or", "BASE||touch FILE")
	add("pipe", "BASE|touch FILE")
	add("redirect", "BASE>FILE")
	add("redirect-space", "BASE >FILE")
	add("append", "BASE>>FILE")
	add("stdin", "BASE</data/local/tmp")
	add("comment", "BASE #")
	add("subst", "BASE$(touch FILE)")
	add("backtick", "BASE`touch FILE`")
	add("single-quote", "BASE';touch FILE;'")
	add("double-quote", "BASE\";touch FILE;\"")
	add("cr", "BASE\r;touch FILE")
	add("tab-option", "-p\tBASE")
	add("dash-option", "--help")
	add("space", "BASE touch")
	return out
}

// Pwned lists the files on the phone that probes created.
func Pwned(dev *sim.Device) []string {
	var out []string
	for _, f := range dev.Files() {
		if strings.HasPrefix(f, probeDir) {
			out = append(out, f)
		}
	}
	return out
}

// Tally counts, for a table of probes, how many the code refused and how many ran
// something on the phone; String is the line the tests log.
type Tally struct {
	What               string
	Sent, Ran, Refused int
}

func (t Tally) String() string {
	return fmt.Sprintf("probe %s: %d sent, %d ran on the phone, %d refused", t.What, t.Sent, t.Ran, t.Refused)
}
