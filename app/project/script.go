package project

import (
	"regexp"
	"strconv"
	"strings"
)

// Gradle build scripts are read as text, never run: Groovy and Kotlin DSL share enough
// syntax (blocks in braces, `key = value` or `key value`, quoted strings) that one small
// reader covers both for the handful of values the model needs. Anything computed
// (a variable from a plugin, a conditional) is reported as unresolved rather than
// guessed.

// stripComments removes // and /* */ comments, leaving string literals (which may hold
// "//" as in URLs) intact. Newlines inside block comments are kept so line structure
// survives.
func stripComments(src string) string {
	var b strings.Builder
	b.Grow(len(src))
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"' || c == '\'':
			end := stringEnd(src, i)
			b.WriteString(src[i:end])
			i = end - 1
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			if i < len(src) {
				b.WriteByte('\n')
			}
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i < len(src) && !(src[i] == '*' && i+1 < len(src) && src[i+1] == '/') {
				if src[i] == '\n' {
					b.WriteByte('\n')
				}
				i++
			}
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// stringEnd returns the index just past the string literal starting at i (a quote),
// including Kotlin's and Groovy's triple-quoted strings.
func stringEnd(src string, i int) int {
	q := src[i]
	if strings.HasPrefix(src[i:], strings.Repeat(string(q), 3)) {
		if end := strings.Index(src[i+3:], strings.Repeat(string(q), 3)); end >= 0 {
			return i + 3 + end + 3
		}
		return len(src)
	}
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '$':
			// A template `${…}` may hold strings of its own: "${env["X"]}".
			if q == '"' && j+1 < len(src) && src[j+1] == '{' {
				j = templateEnd(src, j+2) - 1
			}
		case q:
			return j + 1
		case '\n':
			return j // an unterminated literal ends at the line
		}
	}
	return len(src)
}

// block is one `head { body }` found in a script.
type block struct {
	head string // the text before the brace on its statement, trimmed: `debug`, `getByName("debug")`
	body string
}

// children returns the blocks directly inside src (not nested deeper), in order.
func children(src string) []block {
	var out []block
	depth, stmtStart, open := 0, 0, 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'':
			i = stringEnd(src, i) - 1
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			depth--
			if depth == 0 {
				out = append(out, block{head: strings.TrimSpace(src[stmtStart:open]), body: src[open+1 : i]})
				stmtStart = i + 1
			}
			if depth < 0 {
				depth = 0
			}
		case '\n', ';':
			if depth == 0 {
				stmtStart = i + 1
			}
		}
	}
	return out
}

// topLevel is src with every nested block's body removed, so a regex over it sees
// only the statements that belong to src itself.
func topLevel(src string) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"', '\'':
			end := stringEnd(src, i)
			if depth == 0 {
				b.WriteString(src[i:end])
			}
			i = end - 1
			continue
		case '{':
			if depth == 0 {
				b.WriteByte(c)
			}
			depth++
			continue
		case '}':
			depth--
			if depth == 0 {
				b.WriteByte(c)
			}
			if depth < 0 {
				depth = 0
			}
			continue
		}
		if depth == 0 {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// blockName is the name a block head gives: `debug` for `debug`, `getByName("debug")`,
// `named("debug")`, `create("free")`, `register("free")`, `maybeCreate("debug")`.
func blockName(head string) string {
	// A head may carry a preceding expression on the same statement; the block's
	// own call is its last word.
	if m := namedCallRE.FindStringSubmatch(head); m != nil {
		return m[1]
	}
	fields := strings.Fields(head)
	if len(fields) == 0 {
		return ""
	}
	return fields[len(fields)-1]
}

var namedCallRE = regexp.MustCompile(`(?:getByName|named|create|register|maybeCreate)\s*\(\s*["']([^"']+)["']\s*\)\s*$`)

// find returns the bodies of the child blocks of src named one of names, in order.
func find(src string, names ...string) []string {
	var out []string
	for _, c := range children(src) {
		n := blockName(c.head)
		for _, want := range names {
			if n == want {
				out = append(out, c.body)
				break
			}
		}
	}
	return out
}

// value is the right-hand side of one property assignment.
type value struct {
	raw string // the expression as written
}

// literal returns the string the value spells when it is one plain string literal
// without templates, or an integer.
func (v value) literal() (string, bool) {
	s := strings.TrimSpace(v.raw)
	if n, err := strconv.Atoi(s); err == nil {
		return strconv.Itoa(n), true
	}
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && stringEnd(s, 0) == len(s) && s[len(s)-1] == s[0] {
		inner := s[1 : len(s)-1]
		if s[0] == '"' && strings.Contains(inner, "$") {
			return "", false // a template: computed when Gradle runs
		}
		return strings.ReplaceAll(inner, `\`, ""), true
	}
	return "", false
}

// assignments finds every `key = value`, `key value` (Groovy) and `key(value)` /
// `key.set(value)` statement for key at the top level of src, in order.
func assignments(src, key string) []value {
	re := assignRE(key)
	var out []value
	for _, m := range re.FindAllStringSubmatch(topLevel(src), -1) {
		raw := strings.TrimSpace(m[1] + m[2] + m[3])
		raw = strings.TrimSuffix(raw, ";")
		if strings.HasPrefix(raw, "(") && strings.HasSuffix(raw, ")") {
			raw = strings.TrimSpace(raw[1 : len(raw)-1])
		}
		out = append(out, value{raw: raw})
	}
	return out
}

var assignCache = map[string]*regexp.Regexp{}

func assignRE(key string) *regexp.Regexp {
	if re, ok := assignCache[key]; ok {
		return re
	}
	// key must start its statement (after a newline, `;` or `{`), optionally behind
	// `this.` or `it.`, and be followed by `=`, `(`, `.set(` or a Groovy space.
	re := regexp.MustCompile(`(?m)(?:^|[;{])[ \t]*(?:(?:this|it)\.)?` + regexp.QuoteMeta(key) +
		`(?:[ \t]*=[ \t]*(.+?)|(?:\.set)?[ \t]*(\(.+?)|[ \t]+(.+?))[ \t]*$`)
	assignCache[key] = re
	return re
}

// deepAssignments counts assignments to key anywhere in src, nested blocks included:
// one hidden in an if/else makes a value conditional.
func deepAssignments(src, key string) int {
	n := len(assignments(src, key))
	for _, c := range children(src) {
		n += deepAssignments(c.body, key)
	}
	return n
}

// quoted returns every string literal's content in src, in order.
func quoted(src string) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		if src[i] == '"' || src[i] == '\'' {
			end := stringEnd(src, i)
			if end-i >= 2 {
				out = append(out, src[i+1:end-1])
			}
			i = end - 1
		}
	}
	return out
}

// templateEnd returns the index just past the `}` closing a template expression
// whose body starts at i.
func templateEnd(src string, i int) int {
	depth := 1
	for ; i < len(src); i++ {
		switch src[i] {
		case '"', '\'':
			i = stringEnd(src, i) - 1
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\n':
			return i
		}
	}
	return len(src)
}

// findNested is find that also looks inside child blocks, down to depth levels:
// Kotlin lambdas see their outer receiver, so `buildTypes { }` written inside
// `defaultConfig { }` still configures the android extension.
func findNested(src string, depth int, names ...string) []string {
	out := find(src, names...)
	if depth <= 1 {
		return out
	}
	for _, c := range children(src) {
		n := blockName(c.head)
		skip := false
		for _, want := range names {
			skip = skip || n == want
		}
		if !skip {
			out = append(out, findNested(c.body, depth-1, names...)...)
		}
	}
	return out
}
