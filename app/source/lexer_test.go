package source

import (
	"strings"
	"testing"
)

func TestMaskKotlin(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		literals []string // decoded values, in lexing order
		visible  []string // must survive in the masked code
		hidden   []string // must be masked out
	}{
		{
			name:    "nested block comment",
			src:     "/* a /* b */ Text(\"x\") */ val y = 1",
			visible: []string{"val y = 1"},
			hidden:  []string{"Text"},
		},
		{
			name:     "line comment keeps next line",
			src:      "// Text(\"a\")\nText(\"b\")",
			literals: []string{"b"},
			visible:  []string{"Text(\""},
			hidden:   []string{"a\""},
		},
		{
			name:     "escaped quote",
			src:      `Text("say \"hi\"") + call()`,
			literals: []string{`say "hi"`},
			visible:  []string{"call()"},
			hidden:   []string{"say"},
		},
		{
			name:     "raw string with quotes and extra closing quote",
			src:      `val s = """a "b" Text("c")"""" ; foo()`,
			literals: []string{`a "b" Text("c")"`},
			visible:  []string{"foo()"},
			hidden:   []string{"Text"},
		},
		{
			name:     "template with nested string and braces",
			src:      `Text("Hi ${user.map { "x}" }.first()}!") ; after()`,
			literals: []string{"x}", "Hi \x00!"},
			visible:  []string{"after()", "user.map {"},
			hidden:   []string{"Hi"},
		},
		{
			name:     "simple template",
			src:      `Text("Hello $name, bye")`,
			literals: []string{"Hello \x00, bye"},
		},
		{
			name:     "char literal quote",
			src:      `val q = '"' ; Text("real")`,
			literals: []string{"real"},
			visible:  []string{"Text(\""},
		},
		{
			name:     "unicode escape",
			src:      `Text("caf\u00e9")`,
			literals: []string{"café"},
		},
		{
			name:     "unterminated string stops at line end",
			src:      "Text(\"oops\nfun next() {}",
			literals: []string{"oops"},
			visible:  []string{"fun next() {}"},
		},
		{
			name:     "comment marker inside string",
			src:      `val url = "http://x/*y" ; code()`,
			literals: []string{"http://x/*y"},
			visible:  []string{"code()"},
		},
		{
			name:     "stringResource inside template stays code",
			src:      `text = "${n} ${stringResource(id = R.string.messages)}"`,
			literals: []string{"\x00 \x00"},
			visible:  []string{"R.string.messages"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := maskKotlin([]byte(tt.src))
			if len(m.Code) != len(tt.src) {
				t.Fatalf("masked length %d, want %d", len(m.Code), len(tt.src))
			}
			var got []string
			for _, l := range m.Literals {
				got = append(got, l.Value)
			}
			if tt.literals != nil && strings.Join(got, "|") != strings.Join(tt.literals, "|") {
				t.Errorf("literals = %q, want %q", got, tt.literals)
			}
			code := string(m.Code)
			for _, v := range tt.visible {
				if !strings.Contains(code, v) {
					t.Errorf("masked code %q lost %q", code, v)
				}
			}
			for _, h := range tt.hidden {
				if strings.Contains(code, h) {
					t.Errorf("masked code %q still shows %q", code, h)
				}
			}
			if strings.Count(code, "\n") != strings.Count(tt.src, "\n") {
				t.Errorf("newlines not preserved")
			}
		})
	}
}

func TestTemplateMatches(t *testing.T) {
	tests := []struct {
		tmpl, text string
		want       bool
	}{
		{"Hello \x00!", "Hello, Ana!", false},
		{"Hello \x00!", "Hello Ana!", true},
		{"\x00 items in your cart", "3 items in your cart", true},
		{"\x00 items in your cart", "3 things in your cart", false},
		{"By \x00 on \x00", "By Ana on Monday", true},
		{"\x00: \x00", "Some very long label: value", false}, // too little literal text
	}
	for _, tt := range tests {
		parts := templateParts(tt.tmpl)
		got := parts != nil && templateMatches(parts, normalize(tt.text))
		if got != tt.want {
			t.Errorf("templateMatches(%q, %q) = %v, want %v", tt.tmpl, tt.text, got, tt.want)
		}
	}
}
