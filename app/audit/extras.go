package audit

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"fixthis/capture"
)

// DumpExtras reads, for each <node> of a uiautomator dump in document order (the
// order capture.ParseDump returns), the attributes ATF's rules need that
// capture.Node does not keep: long-clickable, focusable, visible-to-user, hint, and
// whether there was text (the text itself stays with the parser, which redacts it).
func DumpExtras(data []byte) ([]Extra, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = false // the scanner in capture accepts what devices write; so does this
	var out []Extra
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			// Devices append "UI hierchary dumped to: …" after the document; a parse
			// error after the last node closed is that trailer, not a broken dump.
			if len(out) > 0 && d.InputOffset() > int64(bytes.LastIndex(data, []byte("</node>"))) {
				return out, nil
			}
			return nil, fmt.Errorf("%w: node %d: %v", ErrBadInput, len(out), err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "node" {
			continue
		}
		var e Extra
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "long-clickable":
				e.LongClickable = a.Value == "true"
			case "focusable":
				e.Focusable = a.Value == "true"
			case "visible-to-user":
				e.Hidden = a.Value == "false"
			case "text":
				e.HasText = strings.TrimSpace(a.Value) != ""
			case "hint":
				e.Hint = a.Value
			}
		}
		out = append(out, e)
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
