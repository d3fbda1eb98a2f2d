package source

import (
	"bytes"
	"hash/fnv"
	"sort"
	"strings"
)

// Entry kinds: what a piece of indexed evidence is.
const (
	kindText      uint8 = iota + 1 // Text("…"), text = "…", label = "…"
	kindCD                         // contentDescription = "…"
	kindTag                        // testTag("…")
	kindLiteral                    // any other string literal
	kindStringRes                  // R.string.x used in code; Key holds x
	kindRole                       // Role.X
	kindConst                      // val NAME = "…"; Key holds NAME
	kindRef                        // identifier passed as text/cd/tag; Key holds it
	kindXMLString                  // <string name="x">…</string>; Key holds x
	kindViewID                     // android:id="@+id/x" in a layout; Key holds idKey(x), Value the element
	kindLayoutRef                  // R.layout.x, XBinding.inflate, <include layout>; Key holds layoutKey
	kindIDRef                      // R.id.x or binding.x in code; Key holds idKey(x)
	kindClassRef                   // a class a layout-like file names (custom view, hosted fragment); Key holds its simple name
)

// Entry is one piece of indexed evidence at a line of a file.
type Entry struct {
	Kind uint8
	// Ctx says what a stringRes/ref/const feeds: kindText, kindCD or kindTag.
	Ctx   uint8
	Value string
	Key   string
	Line  int32
	// Owner indexes FileIndex.Defs (the innermost enclosing composable), or -1.
	// For layout and view-id references in code, Value names the enclosing
	// class and member function ("SettingsActivity.onCreate").
	Owner int32
	// LineHash fingerprints the trimmed source line, so a candidate can be
	// reported stale when the file changed after indexing.
	LineHash  uint32
	Templated bool
}

// Def is a function definition; only @Composable ones are kept.
type Def struct {
	Name       string
	Line       int32
	EndLine    int32
	Start, End int32 // byte offsets of the declaration and the body end
	Preview    bool
}

// Call is a call of a capitalised function (a candidate composable call site).
type Call struct {
	Name  string
	Line  int32
	Owner int32
}

// Activity is a class extending one of the Android Activity base classes.
type Activity struct {
	Name string
	Line int32
	// Base is the class it extends; an app's own base activity shows part of
	// every screen that extends it (a drawer, a toolbar).
	Base string
}

var activityBases = map[string]bool{
	"Activity": true, "ComponentActivity": true, "AppCompatActivity": true, "FragmentActivity": true,
}

// textParams are named arguments whose string value is rendered as visible text.
var textParams = map[string]uint8{
	"text": kindText, "label": kindText, "title": kindText, "placeholder": kindText,
	"subtitle": kindText, "message": kindText, "contentDescription": kindCD,
	"stateDescription": kindCD,
}

// textCalls take their first positional argument as visible text.
var textCalls = map[string]bool{"Text": true, "BasicText": true, "ClickableText": true}

type kotlinScan struct {
	src      []byte
	m        *maskedSource
	lines    []int
	fi       *FileIndex
	consumed map[int]bool // literal starts already classified
	funs     []span       // non-composable functions
	classes  []span       // classes and named objects
	refs     map[string]bool
	java     bool // Java source: methods are declared without `fun`
}

// extractKotlin indexes one Kotlin file's source.
func extractKotlin(fi *FileIndex, src []byte) {
	s := &kotlinScan{src: src, m: maskKotlin(src), lines: lineStarts(src), fi: fi, consumed: map[int]bool{},
		java: strings.HasSuffix(fi.Path, ".java")}
	s.scan()
	for _, c := range s.classes {
		s.fi.Classes = append(s.fi.Classes, c.name)
	}
	s.literals()
	s.assignOwners()
	s.linkOwners()
}

func lineStarts(src []byte) []int {
	ls := []int{0}
	for i, c := range src {
		if c == '\n' {
			ls = append(ls, i+1)
		}
	}
	return ls
}

// lineOf returns the 1-based line of offset off.
func (s *kotlinScan) lineOf(off int) int32 {
	return int32(sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }))
}

func (s *kotlinScan) lineHash(line int32) uint32 {
	return hashLine(lineText(s.src, s.lines, int(line)))
}

func lineText(src []byte, lines []int, line int) []byte {
	if line < 1 || line > len(lines) {
		return nil
	}
	start := lines[line-1]
	end := len(src)
	if line < len(lines) {
		end = lines[line] - 1
	}
	return src[start:end]
}

func hashLine(b []byte) uint32 {
	h := fnv.New32a()
	h.Write(bytes.TrimSpace(b))
	return h.Sum32()
}

func (s *kotlinScan) add(e Entry, off int) {
	e.Line = s.lineOf(off)
	e.Owner = -1
	e.LineHash = s.lineHash(e.Line)
	s.fi.Entries = append(s.fi.Entries, e)
}

// skipSpace returns the first offset at or after i that is not white space.
func (s *kotlinScan) skipSpace(i int) int {
	c := s.m.Code
	for i < len(c) && (c[i] == ' ' || c[i] == '\t' || c[i] == '\n' || c[i] == '\r') {
		i++
	}
	return i
}

func (s *kotlinScan) ident(i int) (string, int) {
	c := s.m.Code
	j := i
	for j < len(c) && isIdentPart(c[j]) {
		j++
	}
	return string(c[i:j]), j
}

// prevNonSpace returns the offset of the last non-space byte before i, or -1.
func (s *kotlinScan) prevNonSpace(i int) int {
	c := s.m.Code
	i--
	for i >= 0 && (c[i] == ' ' || c[i] == '\t' || c[i] == '\n' || c[i] == '\r') {
		i--
	}
	return i
}

// identEndingAt returns the identifier whose last byte is at last (empty when that
// byte is no part of one) and the offset it starts at.
func (s *kotlinScan) identEndingAt(last int) (string, int) {
	c := s.m.Code
	start := last + 1
	for start > 0 && isIdentPart(c[start-1]) {
		start--
	}
	return string(c[start : last+1]), start
}

// identBefore is the identifier that ends before offset i, past spaces and tabs on
// the same line, and the offset it starts at.
func (s *kotlinScan) identBefore(i int) (string, int) {
	c := s.m.Code
	q := i - 1
	for q >= 0 && (c[q] == ' ' || c[q] == '\t') {
		q--
	}
	return s.identEndingAt(q)
}

func (s *kotlinScan) scan() {
	c := s.m.Code
	var annotations []string
	for i := 0; i < len(c); {
		ch := c[i]
		switch {
		case ch == '@' && i+1 < len(c) && isIdentStart(c[i+1]):
			name, j := s.ident(i + 1)
			annotations = append(annotations, name)
			i = j
			continue
		case ch == '{' || ch == '}' || ch == ';':
			annotations = annotations[:0]
			i++
			continue
		case ch >= '0' && ch <= '9':
			for i < len(c) && isIdentPart(c[i]) {
				i++
			}
			continue
		case !isIdentStart(ch):
			i++
			continue
		}
		name, j := s.ident(i)
		switch name {
		case "fun":
			s.fun(j, annotations)
			annotations = annotations[:0]
		case "class", "object":
			s.class(j)
			annotations = annotations[:0]
		case "val", "var":
			s.constant(j)
			annotations = annotations[:0]
		case "testTag":
			s.argument(j, kindTag)
		case "Role":
			if j < len(c) && c[j] == '.' {
				role, _ := s.ident(j + 1)
				if role != "" {
					s.add(Entry{Kind: kindRole, Value: role}, i)
				}
			}
		case "string", "plurals", "array":
			// `import …R.string` then `string.x`.
			if j+1 < len(c) && c[j] == '.' && isIdentStart(c[j+1]) && (i == 0 || c[i-1] != '.' && !isIdentPart(c[i-1])) {
				key, _ := s.ident(j + 1)
				s.stringRef(i, key)
			}
		default:
			if resourceClass(name) {
				s.resource(i, j)
			}
			if kind, ok := textParams[name]; ok {
				s.namedArg(j, kind)
			} else if textCalls[name] {
				s.argument(j, kindText)
			}
			if ch >= 'A' && ch <= 'Z' {
				s.call(i, j, name)
				s.ref(j, name)
			}
			if strings.HasSuffix(name, "inding") {
				s.binding(j, name)
			}
			if s.java {
				s.javaMethod(i, j, name)
			}
		}
		i = j
	}
}

// argument handles `name(` followed by a literal or identifier first argument.
func (s *kotlinScan) argument(j int, kind uint8) {
	c := s.m.Code
	k := s.skipSpace(j)
	if k >= len(c) || c[k] != '(' {
		return
	}
	k = s.skipSpace(k + 1)
	// `Text(text = "…")` is handled by the named-argument rule.
	s.value(k, kind)
}

// namedArg handles `name = value` (but not `name ==`).
func (s *kotlinScan) namedArg(j int, kind uint8) {
	c := s.m.Code
	k := s.skipSpace(j)
	if k >= len(c) || c[k] != '=' || (k+1 < len(c) && c[k+1] == '=') {
		return
	}
	s.value(s.skipSpace(k+1), kind)
}

// value records the literal or plain identifier at k as evidence of kind.
func (s *kotlinScan) value(k int, kind uint8) {
	c := s.m.Code
	if k >= len(c) {
		return
	}
	if c[k] == '"' {
		if lit, ok := s.m.literalAt(k); ok {
			s.consumed[k] = true
			s.add(Entry{Kind: kind, Value: lit.Value, Templated: lit.Templated}, k)
		}
		return
	}
	if !isIdentStart(c[k]) {
		return
	}
	name, e := s.ident(k)
	// A constant reference, possibly qualified (Tags.CARD): keep the last
	// segment; calls and other expressions are not references.
	for e+1 < len(c) && c[e] == '.' && isIdentStart(c[e+1]) {
		name, e = s.ident(e + 1)
	}
	n := s.skipSpace(e)
	if n < len(c) && (c[n] == '(' || c[n] == '.' || c[n] == '{') || name == "stringResource" {
		return
	}
	s.add(Entry{Kind: kindRef, Ctx: kind, Key: name}, k)
}

// resource handles R.string.x (also Res.string.x, aliases and a qualified
// com.app.R.string.x, but not the framework's android.R) and layout-like
// references.
func (s *kotlinScan) resource(i, j int) {
	c := s.m.Code
	if i > 0 && isIdentPart(c[i-1]) {
		return
	}
	if i > 0 && c[i-1] == '.' {
		if qualifier, _ := s.identEndingAt(i - 2); qualifier == "android" {
			return
		}
	}
	rest := c[j:]
	var key string
	switch {
	case bytes.HasPrefix(rest, []byte(".string.")):
		key, _ = s.ident(j + len(".string."))
	case bytes.HasPrefix(rest, []byte(".plurals.")):
		key, _ = s.ident(j + len(".plurals."))
	case bytes.HasPrefix(rest, []byte(".array.")):
		key, _ = s.ident(j + len(".array."))
	case bytes.HasPrefix(rest, []byte(".layout.")), bytes.HasPrefix(rest, []byte(".menu.")),
		bytes.HasPrefix(rest, []byte(".xml.")), bytes.HasPrefix(rest, []byte(".navigation.")):
		kind, _ := s.ident(j + 1)
		s.layoutRef(kind, j+len(kind)+2, i)
		return
	case bytes.HasPrefix(rest, []byte(".id.")):
		if id, _ := s.ident(j + len(".id.")); id != "" {
			s.add(Entry{Kind: kindIDRef, Key: idKey(id)}, i)
		}
		return
	default:
		return
	}
	s.stringRef(i, key)
}

// resourceClass reports whether name is a generated resource class: R, the
// Compose Multiplatform Res, or an import alias of either (searchR, UiRes).
func resourceClass(name string) bool {
	return name == "R" || name == "Res" || len(name) > 1 && (strings.HasSuffix(name, "R") || strings.HasSuffix(name, "Res")) &&
		name[len(name)-2] >= 'a' && name[len(name)-2] <= 'z'
}

// stringRef records a string resource reference starting at i and decides
// whether it feeds a contentDescription (looking back past
// `stringResource(id =` to `name =`).
func (s *kotlinScan) stringRef(i int, key string) {
	c := s.m.Code
	if key == "" {
		return
	}
	ctx := kindText
	p := s.prevNonSpace(i)
	if p >= 0 && c[p] == '=' {
		// `id = R.string.x`: step back over the parameter name.
		if name, start := s.identBefore(p); name == "id" {
			p = s.prevNonSpace(start)
		}
	}
	if p >= 0 && c[p] == '(' {
		// stringResource(…), getString(…), getText(…), getQuantityString(…):
		// what matters is what the resolved text is passed to.
		if name, start := s.identBefore(p); strings.HasSuffix(name, "tringResource") || strings.HasPrefix(name, "get") &&
			(strings.HasSuffix(name, "String") || strings.HasSuffix(name, "Text")) {
			p = s.prevNonSpace(start)
		}
	}
	if p >= 0 && (c[p] == '=' || c[p] == '(') {
		name, _ := s.identEndingAt(s.prevNonSpace(p))
		if k, ok := textParams[name]; ok && c[p] == '=' {
			ctx = k
		}
		if c[p] == '(' && name == "setContentDescription" {
			ctx = kindCD // Java's view.setContentDescription(getString(R.string.x))
		}
	}
	s.add(Entry{Kind: kindStringRes, Ctx: ctx, Key: key}, i)
}

// call records `Name(` or `Name {` as a potential composable call site.
func (s *kotlinScan) call(i, j int, name string) {
	c := s.m.Code
	k := j
	for k < len(c) && (c[k] == ' ' || c[k] == '\t') {
		k++
	}
	if k >= len(c) || (c[k] != '(' && c[k] != '{') {
		return
	}
	if p := s.prevNonSpace(i); p >= 0 {
		if c[p] == ':' || c[p] == '<' {
			return // a type, not a call
		}
		switch keyword, _ := s.identEndingAt(p); keyword {
		case "fun", "class", "object", "interface":
			return // a declaration, not a call
		}
	}
	s.fi.Calls = append(s.fi.Calls, Call{Name: name, Line: s.lineOf(i), Owner: -1})
}
