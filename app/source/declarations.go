package source

import (
	"strings"
	"unicode"
)

// fun parses a function declaration after the `fun` keyword at j and records
// it when it is @Composable, with the byte range of its body so every line
// inside can name its owner; other functions are kept as spans that name the
// owners of layout and view-id references.
func (s *kotlinScan) fun(j int, annotations []string) {
	composable, preview := false, false
	for _, a := range annotations {
		if a == "Composable" {
			composable = true
		}
		if strings.Contains(a, "Preview") {
			preview = true
		}
	}
	c := s.m.Code
	k := s.skipSpace(j)
	if k < len(c) && c[k] == '<' {
		k = s.matchBracket(k, '<', '>')
		k = s.skipSpace(k)
	}
	name := ""
	for k < len(c) && isIdentStart(c[k]) {
		name, k = s.ident(k)
		// `fun Receiver.Name(` and `fun Type<T>.Name(`: keep the last segment.
		if k < len(c) && c[k] == '<' {
			k = s.matchBracket(k, '<', '>')
		}
		if k < len(c) && c[k] == '.' {
			k++
			continue
		}
		break
	}
	if name == "" {
		return
	}
	k = s.skipSpace(k)
	if k >= len(c) || c[k] != '(' {
		return
	}
	k = s.matchBracket(k, '(', ')')
	end := s.body(k)
	start := j - len("fun")
	if !composable {
		// Plain functions only name the owner of layout and view-id references.
		s.funs = append(s.funs, span{name, s.lineOf(start), s.lineOf(max(end-1, start))})
		return
	}
	s.fi.Defs = append(s.fi.Defs, Def{
		Name: name, Line: s.lineOf(start), EndLine: s.lineOf(max(end-1, start)),
		Start: int32(start), End: int32(end), Preview: preview,
	})
}

// javaKeywords precede a parenthesis without declaring a method.
var javaKeywords = map[string]bool{"new": true, "return": true, "else": true, "throw": true, "case": true, "if": true,
	"for": true, "while": true, "switch": true, "catch": true, "synchronized": true, "do": true, "try": true}

// javaMethod records `Type name(…) [throws …] {…}` as a function span, so
// layout and view-id references in Java name their method as Kotlin's do
// (SettingsActivity.onCreate). i and j bound the name.
func (s *kotlinScan) javaMethod(i, j int, name string) {
	c := s.m.Code
	if javaKeywords[name] {
		return
	}
	k := s.skipSpace(j)
	if k >= len(c) || c[k] != '(' {
		return
	}
	p := s.prevNonSpace(i)
	if p < 0 || !(isIdentPart(c[p]) || c[p] == '>' || c[p] == ']') {
		return // a call or an expression, not a declaration with a return type
	}
	if word, _ := s.identEndingAt(p); javaKeywords[word] {
		return
	}
	k = s.skipSpace(s.matchBracket(k, '(', ')'))
	if k+6 < len(c) && string(c[k:k+6]) == "throws" {
		for k < len(c) && c[k] != '{' && c[k] != ';' {
			k++
		}
	}
	if k >= len(c) || c[k] != '{' {
		return // abstract or interface method
	}
	end := s.matchBracket(k, '{', '}')
	s.funs = append(s.funs, span{name, s.lineOf(i), s.lineOf(max(end-1, i))})
}

// body returns the offset just after a function body that starts at or after
// k: a `{…}` block, or an `= expression` that ends at a line break outside any
// bracket where the next line does not continue the expression.
func (s *kotlinScan) body(k int) int {
	c := s.m.Code
	depth := 0
	for i := k; i < len(c); i++ {
		switch c[i] {
		case '(', '[', '<':
			depth++
		case ')', ']', '>':
			if depth > 0 {
				depth--
			}
		case '{':
			if depth == 0 {
				return s.matchBracket(i, '{', '}')
			}
			depth++
		case '}':
			if depth == 0 {
				return i // abstract function inside a class body
			}
			depth--
		case '=':
			if depth == 0 {
				return s.expressionEnd(i + 1)
			}
		case '\n':
			if depth == 0 {
				n := s.skipSpace(i)
				if n < len(c) && c[n] != ':' && c[n] != '{' && c[n] != '=' {
					return i // no body
				}
			}
		}
	}
	return len(c)
}

func (s *kotlinScan) expressionEnd(i int) int {
	c := s.m.Code
	depth := 0
	i = s.skipSpace(i)
	for ; i < len(c); i++ {
		switch c[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return i
			}
		case '\n':
			if depth == 0 {
				n := s.skipSpace(i)
				if n >= len(c) || !strings.ContainsRune(".?:+-*/&|=", rune(c[n])) {
					return i
				}
			}
		}
	}
	return len(c)
}

// matchBracket returns the offset after the bracket that closes the one at i.
func (s *kotlinScan) matchBracket(i int, open, close byte) int {
	c := s.m.Code
	depth := 0
	for ; i < len(c); i++ {
		switch c[i] {
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return i + 1
			}
		case '{', '}', ';':
			if open == '<' {
				return i // a comparison, not a type argument list
			}
		}
	}
	return len(c)
}

// class records Activity subclasses: `class X(…) : AppCompatActivity() {`.
func (s *kotlinScan) class(j int) {
	c := s.m.Code
	k := s.skipSpace(j)
	name, k := s.ident(k)
	if name == "" {
		return
	}
	if end := s.body(k); end > k {
		s.classes = append(s.classes, span{name, s.lineOf(j), s.lineOf(end - 1)})
	}
	start := k
	for ; k < len(c) && c[k] != '{' && c[k] != '}' && c[k] != '\n'; k++ {
		if c[k] == '(' {
			k = s.matchBracket(k, '(', ')') - 1
		}
		if c[k] == ':' {
			break
		}
		// Java: `class X extends Base`.
		if c[k] == 'e' && k+7 < len(c) && string(c[k:k+7]) == "extends" && !isIdentPart(c[k-1]) && !isIdentPart(c[k+7]) {
			k += 6
			break
		}
	}
	if k >= len(c) || c[k] != ':' && c[k] != 's' {
		return
	}
	for k < len(c) && c[k] != '{' && k-start < 400 {
		if isIdentStart(c[k]) {
			var base string
			base, k = s.ident(k)
			// The platform bases, or an app's own base activity
			// (KiwixMainActivity : CoreMainActivity).
			if activityBases[base] || strings.HasSuffix(base, "Activity") {
				s.fi.Activities = append(s.fi.Activities, Activity{Name: name, Line: s.lineOf(j), Base: base})
				return
			}
			continue
		}
		k++
	}
}

// constant records `val NAME = "literal"`, which testTag(NAME) and friends
// resolve through.
func (s *kotlinScan) constant(j int) {
	c := s.m.Code
	k := s.skipSpace(j)
	name, k := s.ident(k)
	if name == "" {
		return
	}
	k = s.skipSpace(k)
	if k < len(c) && c[k] == ':' {
		_, k = s.ident(s.skipSpace(k + 1))
		k = s.skipSpace(k)
	}
	if k >= len(c) || c[k] != '=' {
		return
	}
	k = s.skipSpace(k + 1)
	if lit, ok := s.m.literalAt(k); ok && !lit.Templated {
		s.add(Entry{Kind: kindConst, Key: name, Value: lit.Value}, k)
	}
}

// literals records every string literal not already classified, so copy that
// lives in data classes, view models or fake repositories is still found.
func (s *kotlinScan) literals() {
	for _, lit := range s.m.Literals {
		if s.consumed[lit.Start] || !hasLetter(lit.Value) {
			continue
		}
		s.add(Entry{Kind: kindLiteral, Value: lit.Value, Templated: lit.Templated}, lit.Start)
	}
}

func hasLetter(v string) bool {
	for _, r := range v {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

// assignOwners gives every entry and call its innermost enclosing composable.
func (s *kotlinScan) assignOwners() {
	defs := s.fi.Defs
	owner := func(line int32) int32 {
		best := int32(-1)
		for i, d := range defs {
			if line >= d.Line && line <= d.EndLine && (best < 0 || d.Line >= defs[best].Line) {
				best = int32(i)
			}
		}
		return best
	}
	for i := range s.fi.Entries {
		s.fi.Entries[i].Owner = owner(s.fi.Entries[i].Line)
	}
	for i := range s.fi.Calls {
		s.fi.Calls[i].Owner = owner(s.fi.Calls[i].Line)
	}
}
