package capture

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// ErrMalformedDump is wrapped by every error ParseDump returns.
var ErrMalformedDump = errors.New("malformed uiautomator dump")

// DumpError says where a dump stopped making sense. Line is 1-based.
type DumpError struct {
	Line int
	Msg  string
}

func (e *DumpError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Unwrap lets callers test errors.Is(err, ErrMalformedDump).
func (e *DumpError) Unwrap() error { return ErrMalformedDump }

// Hierarchy is a parsed dump: the nodes in document order (parents before children)
// and the display rotation uiautomator recorded (0-3 quarter turns).
type Hierarchy struct {
	Rotation int
	Nodes    []Node
}

// ParseDump parses `uiautomator dump` XML into nodes in document order. See
// ParseHierarchy.
func ParseDump(data []byte) ([]Node, error) {
	h, err := ParseHierarchy(data)
	if err != nil {
		return nil, err
	}
	return h.Nodes, nil
}

// ParseHierarchy parses `uiautomator dump` XML (plain or pretty-printed, any line
// endings) with a hand-rolled scanner: encoding/xml is several times slower than the
// 5 ms budget for a 1,000-node dump allows, and the format is a tiny, fixed subset of
// XML. Every <node> becomes a Node; password and editable text is redacted here, so
// no caller ever holds it. The "UI hierchary dumped to: …" line devices append is
// ignored. Malformed or truncated input gives a *DumpError naming the line.
func ParseHierarchy(data []byte) (*Hierarchy, error) {
	p := dumpParser{data: data, interned: make(map[string]string, 32)}
	if err := p.run(); err != nil {
		return nil, err
	}
	return &Hierarchy{Rotation: p.rotation, Nodes: p.nodes}, nil
}

// frame is one open <node> (or the <hierarchy> root, uid "").
type frame struct {
	uid      string
	path     string
	children int
	compose  bool
	openedAt int
	isNode   bool
}

type dumpParser struct {
	data     []byte
	pos      int
	rotation int
	nodes    []Node
	stack    []frame
	roots    int  // top-level nodes seen outside any <hierarchy>
	rootSeen bool // a <hierarchy> was opened
	closed   bool // the <hierarchy> was closed: only trailing text may follow
	interned map[string]string
	attrs    []attr
}

type attr struct{ name, value []byte }

func (p *dumpParser) errAt(pos int, format string, args ...any) error {
	line := 1 + bytes.Count(p.data[:min(pos, len(p.data))], []byte{'\n'})
	return &DumpError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

func (p *dumpParser) run() error {
	if bytes.HasPrefix(p.data, []byte("\xef\xbb\xbf")) {
		p.pos = 3
	}
	for {
		start := p.pos
		lt := bytes.IndexByte(p.data[p.pos:], '<')
		var text []byte
		if lt < 0 {
			text = p.data[p.pos:]
			p.pos = len(p.data)
		} else {
			text = p.data[p.pos : p.pos+lt]
			p.pos += lt
		}
		if err := p.checkText(start, text); err != nil {
			return err
		}
		if lt < 0 {
			break
		}
		if err := p.markup(); err != nil {
			return err
		}
	}
	if n := len(p.stack); n > 0 {
		f := p.stack[n-1]
		what := "<hierarchy>"
		if f.isNode {
			what = "<node> " + f.uid
		}
		return p.errAt(len(p.data), "unexpected end of dump: %s opened on line %d is not closed (truncated?)",
			what, p.lineOf(f.openedAt))
	}
	if len(p.nodes) == 0 && !p.rootSeen {
		return p.errAt(len(p.data), "no <hierarchy> or <node> element found")
	}
	return nil
}

func (p *dumpParser) lineOf(pos int) int { return 1 + bytes.Count(p.data[:pos], []byte{'\n'}) }

// checkText accepts whitespace between tags, and after the root closes, the
// "UI hierchary dumped to: /dev/tty" trailer (misspelt by uiautomator itself).
func (p *dumpParser) checkText(start int, text []byte) error {
	t := bytes.TrimSpace(text)
	if len(t) == 0 {
		return nil
	}
	if p.closed && (bytes.HasPrefix(t, []byte("UI hierchary dumped to")) || bytes.HasPrefix(t, []byte("UI hierarchy dumped to"))) {
		return nil
	}
	off := bytes.Index(text, t[:1])
	return p.errAt(start+off, "unexpected text %q outside elements", truncate(t, 40))
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "…"
}

// markup handles one tag starting at p.pos ('<').
func (p *dumpParser) markup() error {
	start := p.pos
	rest := p.data[p.pos:]
	switch {
	case bytes.HasPrefix(rest, []byte("<?")):
		end := bytes.Index(rest, []byte("?>"))
		if end < 0 {
			return p.errAt(start, "unterminated <?…?> declaration")
		}
		p.pos += end + 2
		return nil
	case bytes.HasPrefix(rest, []byte("<!--")):
		end := bytes.Index(rest[4:], []byte("-->"))
		if end < 0 {
			return p.errAt(start, "unterminated comment")
		}
		p.pos += 4 + end + 3
		return nil
	case bytes.HasPrefix(rest, []byte("</")):
		return p.closeTag(start)
	}
	p.pos++
	name := p.name()
	if len(name) == 0 {
		return p.errAt(start, "expected an element name after '<'")
	}
	selfClosing, err := p.readAttrs(start)
	if err != nil {
		return err
	}
	if p.closed {
		return p.errAt(start, "element <%s> after the closing </hierarchy>", name)
	}
	switch string(name) {
	case "hierarchy":
		if len(p.stack) > 0 || p.rootSeen {
			return p.errAt(start, "nested or repeated <hierarchy>")
		}
		p.rootSeen = true
		for _, a := range p.attrs {
			if string(a.name) == "rotation" {
				r, err := strconv.Atoi(string(a.value))
				if err != nil || r < 0 || r > 3 {
					return p.errAt(start, "bad rotation %q", a.value)
				}
				p.rotation = r
			}
		}
		if selfClosing {
			p.closed = true
			return nil
		}
		p.stack = append(p.stack, frame{openedAt: start})
		return nil
	case "node":
		return p.openNode(start, selfClosing)
	}
	return p.errAt(start, "unexpected element <%s>", name)
}

func (p *dumpParser) closeTag(start int) error {
	p.pos += 2
	name := p.name()
	p.skipSpace()
	if p.pos >= len(p.data) || p.data[p.pos] != '>' {
		return p.errAt(start, "unterminated closing tag </%s", name)
	}
	p.pos++
	n := len(p.stack)
	if n == 0 {
		return p.errAt(start, "closing </%s> without an open element", name)
	}
	top := p.stack[n-1]
	want := "hierarchy"
	if top.isNode {
		want = "node"
	}
	if string(name) != want {
		return p.errAt(start, "closing </%s> but <%s> opened on line %d is still open", name, want, p.lineOf(top.openedAt))
	}
	p.stack = p.stack[:n-1]
	if !top.isNode {
		p.closed = true
	}
	return nil
}

func (p *dumpParser) name() []byte {
	s := p.pos
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '>' || c == '/' || c == '=' || c == '<' {
			break
		}
		p.pos++
	}
	return p.data[s:p.pos]
}

func (p *dumpParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\r', '\n':
			p.pos++
		default:
			return
		}
	}
}

// readAttrs reads attributes up to '>' or '/>' into p.attrs (values entity-decoded).
func (p *dumpParser) readAttrs(tagStart int) (selfClosing bool, err error) {
	p.attrs = p.attrs[:0]
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return false, p.errAt(p.pos, "unexpected end of dump inside a tag opened on line %d (truncated?)", p.lineOf(tagStart))
		}
		switch c := p.data[p.pos]; c {
		case '>':
			p.pos++
			return false, nil
		case '/':
			if p.pos+1 < len(p.data) && p.data[p.pos+1] == '>' {
				p.pos += 2
				return true, nil
			}
			return false, p.errAt(p.pos, "stray '/' in tag")
		}
		at := p.pos
		name := p.name()
		if len(name) == 0 {
			return false, p.errAt(at, "unexpected %q in tag", p.data[at])
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '=' {
			return false, p.errAt(at, "attribute %s has no value", name)
		}
		p.pos++
		p.skipSpace()
		if p.pos >= len(p.data) || (p.data[p.pos] != '"' && p.data[p.pos] != '\'') {
			return false, p.errAt(at, "attribute %s value is not quoted", name)
		}
		q := p.data[p.pos]
		p.pos++
		end := bytes.IndexByte(p.data[p.pos:], q)
		if end < 0 {
			return false, p.errAt(at, "attribute %s value is not terminated (truncated?)", name)
		}
		raw := p.data[p.pos : p.pos+end]
		p.pos += end + 1
		if bytes.IndexByte(raw, '<') >= 0 {
			return false, p.errAt(at, "attribute %s value contains '<'", name)
		}
		val := raw
		if bytes.IndexByte(raw, '&') >= 0 {
			if val, err = decodeEntities(raw); err != nil {
				return false, p.errAt(at, "attribute %s: %v", name, err)
			}
		}
		p.attrs = append(p.attrs, attr{name: name, value: val})
	}
}

// decodeEntities expands the five XML entities and numeric character references.
func decodeEntities(raw []byte) ([]byte, error) {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '&' {
			out = append(out, c)
			i++
			continue
		}
		semi := bytes.IndexByte(raw[i:], ';')
		if semi < 0 {
			return nil, fmt.Errorf("unterminated entity %q", truncate(raw[i:], 12))
		}
		ent := raw[i+1 : i+semi]
		switch string(ent) {
		case "lt":
			out = append(out, '<')
		case "gt":
			out = append(out, '>')
		case "amp":
			out = append(out, '&')
		case "quot":
			out = append(out, '"')
		case "apos":
			out = append(out, '\'')
		default:
			if len(ent) < 2 || ent[0] != '#' {
				return nil, fmt.Errorf("unknown entity &%s;", truncate(ent, 12))
			}
			var v uint64
			var err error
			if ent[1] == 'x' || ent[1] == 'X' {
				v, err = strconv.ParseUint(string(ent[2:]), 16, 32)
			} else {
				v, err = strconv.ParseUint(string(ent[1:]), 10, 32)
			}
			if err != nil || !utf8.ValidRune(rune(v)) || v == 0 {
				return nil, fmt.Errorf("bad character reference &%s;", truncate(ent, 12))
			}
			out = utf8.AppendRune(out, rune(v))
		}
		i += semi + 1
	}
	return out, nil
}
