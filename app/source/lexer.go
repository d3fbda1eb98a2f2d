package source

import "strings"

// literal is one Kotlin string literal found by the lexer. Offsets point at the
// opening and one past the closing quote in the original text, so structural
// matching on the masked text can ask "is there a string right here?".
type literal struct {
	Start, End int
	// Value is the literal text with escapes decoded and every template
	// expression replaced by templateMark, so "Hi ${name}!" reads "Hi \x00!".
	Value     string
	Templated bool
	Raw       bool
}

// templateMark stands for a template expression inside a literal's Value.
const templateMark = "\x00"

// maskedSource is a Kotlin file with every comment and string body blanked out
// (newlines kept, so offsets and line numbers stay valid). Quotes survive, which
// lets patterns such as `Text("` be recognised without being fooled by code-like
// text inside strings or comments.
type maskedSource struct {
	Code     []byte
	Literals []literal
	// byStart maps an opening-quote offset to its index in Literals.
	byStart map[int]int
}

// literalAt returns the literal whose opening quote is at offset off.
func (m *maskedSource) literalAt(off int) (literal, bool) {
	i, ok := m.byStart[off]
	if !ok {
		return literal{}, false
	}
	return m.Literals[i], true
}

// maskKotlin lexes src just far enough to separate code from comments and
// strings: nested block comments, line comments, character literals, escaped
// and raw strings, and `$name` / `${…}` templates whose expressions may hold
// further strings and braces.
func maskKotlin(src []byte) *maskedSource {
	m := &maskedSource{Code: make([]byte, len(src)), byStart: map[int]int{}}
	copy(m.Code, src)
	lx := lexer{src: src, out: m}
	lx.code(0, false)
	return m
}

type lexer struct {
	src []byte
	out *maskedSource
}

// blank replaces src[i:j] in the masked copy with spaces, keeping newlines.
func (l *lexer) blank(i, j int) {
	for k := i; k < j && k < len(l.out.Code); k++ {
		if l.out.Code[k] != '\n' {
			l.out.Code[k] = ' '
		}
	}
}

// code scans code from i. Inside a template (inTemplate) it stops after the
// `}` that closes the template and returns the offset after it.
func (l *lexer) code(i int, inTemplate bool) int {
	src := l.src
	depth := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			l.blank(i, j)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := l.blockComment(i)
			l.blank(i, j)
			i = j
		case c == '"':
			i = l.str(i)
		case c == '\'':
			i = l.char(i)
		case c == '`':
			j := i + 1
			for j < len(src) && src[j] != '`' && src[j] != '\n' {
				j++
			}
			i = j + 1
		case c == '{':
			depth++
			i++
		case c == '}':
			if inTemplate && depth == 0 {
				return i + 1
			}
			depth--
			i++
		default:
			i++
		}
	}
	return i
}

// blockComment returns the offset after the comment opened at i; Kotlin block
// comments nest, unlike Java's.
func (l *lexer) blockComment(i int) int {
	src := l.src
	depth := 0
	for i < len(src) {
		if src[i] == '/' && i+1 < len(src) && src[i+1] == '*' {
			depth++
			i += 2
			continue
		}
		if src[i] == '*' && i+1 < len(src) && src[i+1] == '/' {
			depth--
			i += 2
			if depth == 0 {
				return i
			}
			continue
		}
		i++
	}
	return i
}

// char skips a character literal such as '"' or '\”.
func (l *lexer) char(i int) int {
	src := l.src
	j := i + 1
	if j < len(src) && src[j] == '\\' {
		j += 2
	} else {
		j++
	}
	// Unicode escapes and malformed input: find the closing quote on this line.
	for j < len(src) && src[j] != '\'' && src[j] != '\n' {
		j++
	}
	if j < len(src) && src[j] == '\'' {
		l.blank(i+1, j)
		return j + 1
	}
	return i + 1
}

// str lexes an escaped ("…") or raw ("""…""") string starting at i and returns
// the offset after it.
func (l *lexer) str(i int) int {
	src := l.src
	raw := i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"'
	start := i
	if raw {
		i += 3
	} else {
		i++
	}
	var val strings.Builder
	templated := false
	// Template expressions stay visible in the masked code (they are code, and
	// may call stringResource); only the literal text around them is blanked.
	var holes [][2]int
	for i < len(src) {
		c := src[i]
		if raw && c == '"' && i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
			// Extra quotes before the closing triple belong to the content.
			j := i
			for j < len(src) && src[j] == '"' {
				j++
			}
			for k := i; k < j-3; k++ {
				val.WriteByte('"')
			}
			l.finish(start, j, raw, val.String(), templated, holes)
			return j
		}
		if !raw && c == '"' {
			l.finish(start, i+1, raw, val.String(), templated, holes)
			return i + 1
		}
		if !raw && c == '\n' {
			// Unterminated string: stop at the line end so one typo does not
			// swallow the rest of the file.
			l.finish(start, i, raw, val.String(), templated, holes)
			return i
		}
		if !raw && c == '\\' && i+1 < len(src) {
			i = l.escape(i, &val)
			continue
		}
		if c == '$' && i+1 < len(src) {
			n := src[i+1]
			if n == '{' {
				end := l.code(i+2, true)
				holes = append(holes, [2]int{i + 2, end - 1})
				val.WriteString(templateMark)
				templated = true
				i = end
				continue
			}
			if isIdentStart(n) {
				j := i + 1
				for j < len(src) && isIdentPart(src[j]) {
					j++
				}
				val.WriteString(templateMark)
				templated = true
				i = j
				continue
			}
		}
		val.WriteByte(c)
		i++
	}
	l.finish(start, i, raw, val.String(), templated, holes)
	return i
}

func (l *lexer) escape(i int, val *strings.Builder) int {
	src := l.src
	switch src[i+1] {
	case 'n':
		val.WriteByte('\n')
	case 't':
		val.WriteByte('\t')
	case 'r':
		val.WriteByte('\r')
	case 'b':
		val.WriteByte('\b')
	case 'u':
		if i+6 <= len(src) {
			var r rune
			ok := true
			for _, h := range src[i+2 : i+6] {
				d, good := hexVal(h)
				if !good {
					ok = false
					break
				}
				r = r*16 + rune(d)
			}
			if ok {
				val.WriteRune(r)
				return i + 6
			}
		}
		val.WriteByte('u')
	default:
		val.WriteByte(src[i+1])
	}
	return i + 2
}

func (l *lexer) finish(start, end int, raw bool, value string, templated bool, holes [][2]int) {
	q := 1
	if raw {
		q = 3
	}
	closing := q
	if end-start < 2*q {
		closing = 0
	}
	from := start + q
	for _, h := range holes {
		l.blank(from, h[0])
		from = h[1]
	}
	l.blank(from, end-closing)
	l.out.byStart[start] = len(l.out.Literals)
	l.out.Literals = append(l.out.Literals, literal{Start: start, End: end, Value: value, Templated: templated, Raw: raw})
}

func hexVal(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }
