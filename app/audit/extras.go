package audit

import (
	"bytes"
	"fmt"
	"html"
	"strings"

	"fixthis/app/errcode"
	"fixthis/capture"
)

// DumpExtras reads, for each <node> of a uiautomator dump in document order (the
// order capture.ParseDump returns), the attributes ATF's rules need that
// capture.Node does not keep: long-clickable, focusable, visible-to-user, hint, and
// whether there was text (the text itself stays with the parser, which redacts it).
// It scans tags as capture's parser does rather than through encoding/xml, which
// refuses control characters real dumps carry in their texts.
func DumpExtras(data []byte) ([]Extra, error) {
	var out []Extra
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("<node"))
		if j < 0 {
			return out, nil
		}
		i += j + len("<node")
		if i < len(data) && !isTagSpace(data[i]) && data[i] != '>' && data[i] != '/' {
			continue // a longer tag name
		}
		var e Extra
		for {
			for i < len(data) && isTagSpace(data[i]) {
				i++
			}
			if i >= len(data) {
				return nil, fmt.Errorf("%w: node %d: the dump ends inside its tag", ErrBadInput, len(out))
			}
			if data[i] == '>' || data[i] == '/' {
				break
			}
			eq := bytes.IndexByte(data[i:], '=')
			if eq < 0 || i+eq+1 >= len(data) || (data[i+eq+1] != '"' && data[i+eq+1] != '\'') {
				return nil, fmt.Errorf("%w: node %d: an attribute without a quoted value", ErrBadInput, len(out))
			}
			name := string(bytes.TrimSpace(data[i : i+eq]))
			quote := data[i+eq+1]
			start := i + eq + 2
			end := bytes.IndexByte(data[start:], quote)
			if end < 0 {
				return nil, fmt.Errorf("%w: node %d: attribute %s is not closed", ErrBadInput, len(out), errcode.Quote(name))
			}
			e.set(name, data[start:start+end])
			i = start + end + 1
		}
		out = append(out, e)
	}
}

func isTagSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// set records one attribute; values are XML-escaped as uiautomator writes them.
func (e *Extra) set(name string, raw []byte) {
	switch name {
	case "long-clickable":
		e.LongClickable = string(raw) == "true"
	case "focusable":
		e.Focusable = string(raw) == "true"
	case "visible-to-user":
		e.Hidden = string(raw) == "false"
	case "text":
		e.HasText = strings.TrimSpace(html.UnescapeString(string(raw))) != ""
	case "hint":
		e.Hint = html.UnescapeString(string(raw))
	}
}

// ReadDump parses a uiautomator dump into an Input with its extras, ready for Run
// once the density (and optionally pixels) are set.
func ReadDump(data []byte) (Input, error) {
	nodes, err := capture.ParseDump(data)
	if err != nil {
		return Input{}, err
	}
	extras, err := DumpExtras(data)
	if err != nil {
		return Input{}, err
	}
	if len(extras) != len(nodes) {
		return Input{}, fmt.Errorf("%w: the dump has %d nodes but %d could be read for their flags", ErrBadInput, len(nodes), len(extras))
	}
	return Input{Nodes: nodes, Extras: extras}, nil
}
