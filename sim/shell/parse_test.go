// The parser's words and operators, and the shell running what a real one runs.
package shell

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"testing"
)

func TestParseShell(t *testing.T) {
	tests := []struct {
		src  string
		want []pipeline
	}{
		{"echo hi", []pipeline{{cmds: []simpleCommand{{args: []string{"echo", "hi"}}}, next: ";"}}},
		{`echo 'a b' "c\"d" e\ f`, []pipeline{{cmds: []simpleCommand{{args: []string{"echo", "a b", `c"d`, "e f"}}}, next: ";"}}},
		{"a && b || c", []pipeline{
			{cmds: []simpleCommand{{args: []string{"a"}}}, next: "&&"},
			{cmds: []simpleCommand{{args: []string{"b"}}}, next: "||"},
			{cmds: []simpleCommand{{args: []string{"c"}}}, next: ";"},
		}},
		{"a | b x", []pipeline{{cmds: []simpleCommand{{args: []string{"a"}}, {args: []string{"b", "x"}}}, next: ";"}}},
		{"cmd >/dev/null 2>&1", []pipeline{{cmds: []simpleCommand{{args: []string{"cmd"}, redirs: []redirect{
			{fd: 1, op: ">", target: "/dev/null"}, {fd: 2, op: ">&", target: "1"}}}}, next: ";"}}},
		{"x 2> /dev/null >> f", []pipeline{{cmds: []simpleCommand{{args: []string{"x"}, redirs: []redirect{
			{fd: 2, op: ">", target: "/dev/null"}, {fd: 1, op: ">>", target: "f"}}}}, next: ";"}}},
		{"; echo a;", []pipeline{{cmds: []simpleCommand{{args: []string{"echo", "a"}}}, next: ";"}}},
		{"echo a # rest", []pipeline{{cmds: []simpleCommand{{args: []string{"echo", "a"}}}, next: ";"}}},
	}
	for _, tc := range tests {
		got, err := parseShell(tc.src)
		if err != nil {
			t.Errorf("parseShell(%q): %v", tc.src, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parseShell(%q) =\n %+v\nwant\n %+v", tc.src, got, tc.want)
		}
	}
	for _, bad := range []string{"'open", `"open`, "a &&", "| b", "a >"} {
		if _, err := parseShell(bad); err == nil {
			t.Errorf("parseShell(%q) succeeded, want a syntax error", bad)
		}
	}
}

// A command substitution runs when its command runs, in place of the word part it
// stands for, as /system/bin/sh runs it; a value spliced into a command line that
// carries one therefore shows in the file system as a file it created.
func TestShellRunsWhatARealShellRuns(t *testing.T) {
	fs := NewFS()
	if err := fs.MkdirAll("/data/local/tmp", 0o771); err != nil {
		t.Fatal(err)
	}
	sh := New(fs)
	tests := []struct {
		script string
		out    string
		file   string // created by the script
	}{
		{"echo $(echo a b)", "a b\n", ""},
		{"echo x`echo y`z", "xyz\n", ""},
		{`echo "$(echo 'q)')"`, "q)\n", ""},
		{"echo $(echo $(echo nested))", "nested\n", ""},
		{"false && echo $(touch /data/local/tmp/not-run)", "", ""},
		{"echo a$(touch /data/local/tmp/s1)", "a\n", "/data/local/tmp/s1"},
		{"echo `touch /data/local/tmp/s2`", "\n", "/data/local/tmp/s2"},
		{"echo a\ntouch\t/data/local/tmp/s3", "a\n", "/data/local/tmp/s3"},
		{"echo a; touch /data/local/tmp/s4", "a\n", "/data/local/tmp/s4"},
		{"echo a & touch /data/local/tmp/s5", "a\n", "/data/local/tmp/s5"},
		{"echo a | touch /data/local/tmp/s6", "", "/data/local/tmp/s6"},
		{"echo a>/data/local/tmp/s7", "", "/data/local/tmp/s7"},
		{"echo a #; touch /data/local/tmp/not-run", "a\n", ""},
		{"echo a#b", "a#b\n", ""},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		sh.Run(context.Background(), tc.script, bytes.NewReader(nil), &out, &errs)
		if out.String() != tc.out {
			t.Errorf("%q printed %q (stderr %q), want %q", tc.script, out.String(), errs.String(), tc.out)
		}
		if tc.file != "" && !slices.Contains(fs.Paths(), tc.file) {
			t.Errorf("%q did not create %s", tc.script, tc.file)
		}
	}
	if slices.Contains(fs.Paths(), "/data/local/tmp/not-run") {
		t.Error("a substitution ran although its command did not")
	}
	for _, bad := range []string{"echo $(echo", "echo `echo", "echo $(echo ')"} {
		if _, err := parseShell(bad); err == nil {
			t.Errorf("parseShell(%q) succeeded, want a syntax error", bad)
		}
	}
}
