package sim

import (
	"reflect"
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
