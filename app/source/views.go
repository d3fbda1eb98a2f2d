package source

import "strings"

// Kotlin side of classic View screens: the code that inflates a layout
// (setContentView(R.layout.x), inflater.inflate(R.layout.x, …),
// XBinding.inflate/bind, menuInflater.inflate(R.menu.x, …)) and the code that
// reaches its views (findViewById(R.id.x), binding.x). Each reference records
// the enclosing class and member function, which become the owner of the
// layout's candidates.

// span is a declaration's line range.
type span struct {
	name      string
	line, end int32
}

// layoutRef records R.layout.x / R.menu.x whose name starts at k; i is the
// offset of `R`.
func (s *kotlinScan) layoutRef(kind string, k, i int) {
	if name, e := s.ident(k); name != "" {
		s.add(Entry{Kind: kindLayoutRef, Key: layoutKey(kind, name), Ctx: s.selfInflation(e)}, i)
	}
}

// selfRoot marks a layout reference whose inflation attaches to `this`: a
// custom view inflating its own content (inflate(R.layout.card, this, true)).
// Every instance of the view shares those ids; the instance's attributes in
// the including layout say what it shows.
const selfRoot uint8 = 1

// selfInflation looks at the rest of the call after offset k for a `this`
// argument.
func (s *kotlinScan) selfInflation(k int) uint8 {
	c := s.m.Code
	depth := 0
	for i := k; i < len(c) && i < k+160; i++ {
		switch c[i] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return 0
			}
			depth--
		case ';', '{', '}':
			return 0
		case 't':
			if depth == 0 && (i == 0 || !isIdentPart(c[i-1])) && i+4 <= len(c) && string(c[i:i+4]) == "this" && (i+4 == len(c) || !isIdentPart(c[i+4])) {
				return selfRoot
			}
		}
	}
	return 0
}

// ref records a capitalised name used as a call, `Name.x` or `Name::x`, once
// per file: the classes and composables this file reaches.
func (s *kotlinScan) ref(j int, name string) {
	c := s.m.Code
	k := j
	for k < len(c) && (c[k] == ' ' || c[k] == '\t') {
		k++
	}
	if k >= len(c) || c[k] != '(' && c[k] != '{' && c[k] != '.' && c[k] != ':' {
		return
	}
	if s.refs == nil {
		s.refs = map[string]bool{}
	}
	if !s.refs[name] {
		s.refs[name] = true
		s.fi.Refs = append(s.fi.Refs, name)
	}
}

// binding handles the two shapes of generated view binding: the class
// (`ActivitySettingsBinding.inflate(…)`, `::bind`), which names the layout,
// and a binding instance (`binding.unitsTitle`, `_binding!!.title`), whose
// properties are the layout's view ids. j is the offset after name.
func (s *kotlinScan) binding(j int, name string) {
	c := s.m.Code
	if base, ok := strings.CutSuffix(name, "Binding"); ok && base != "" && base[0] >= 'A' && base[0] <= 'Z' {
		rest := c[j:]
		for _, call := range []string{".inflate", ".bind", "::inflate", "::bind"} {
			if len(rest) > len(call) && string(rest[:len(call)]) == call && !isIdentPart(rest[len(call)]) {
				self := uint8(0)
				if n := s.skipSpace(j + len(call)); n < len(c) && c[n] == '(' {
					self = s.selfInflation(n + 1)
				}
				s.add(Entry{Kind: kindLayoutRef, Key: layoutKey("layout", base), Ctx: self}, j-len(name))
				return
			}
		}
		return
	}
	if !strings.HasSuffix(name, "binding") && !strings.HasSuffix(name, "Binding") {
		return
	}
	k := j
	for k < len(c) && (c[k] == '?' || c[k] == '!') {
		k++
	}
	if k+1 >= len(c) || c[k] != '.' || !isIdentStart(c[k+1]) {
		return
	}
	id, e := s.ident(k + 1)
	if n := s.skipSpace(e); id == "root" || n < len(c) && c[n] == '(' {
		return // the root view or a method of the binding, not a view id
	}
	s.add(Entry{Kind: kindIDRef, Key: idKey(id)}, k+1)
}

// linkOwners names the owner of every layout and view-id reference: the
// innermost class and, inside it, the member function (the outermost function
// within that class, so a local helper reports the member that declares it).
func (s *kotlinScan) linkOwners() {
	for i := range s.fi.Entries {
		e := &s.fi.Entries[i]
		if e.Kind != kindLayoutRef && e.Kind != kindIDRef {
			continue
		}
		var class *span
		for k := range s.classes {
			c := &s.classes[k]
			if e.Line >= c.line && e.Line <= c.end && (class == nil || c.line >= class.line) {
				class = c
			}
		}
		fun := ""
		best := int32(-1)
		consider := func(name string, line, end int32) {
			if e.Line < line || e.Line > end || class != nil && line < class.line {
				return
			}
			if best < 0 || line < best {
				fun, best = name, line
			}
		}
		for _, f := range s.funs {
			consider(f.name, f.line, f.end)
		}
		for _, d := range s.fi.Defs {
			consider(d.Name, d.Line, d.EndLine)
		}
		switch {
		case class != nil && fun != "":
			e.Value = class.name + "." + fun
		case class != nil:
			e.Value = class.name
		default:
			e.Value = fun
		}
	}
}
