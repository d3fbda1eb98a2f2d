package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"fixthis/app/errcode"
	"fixthis/internal/jsontext"
)

// The console's text rule holds for agents too: a message that is not UTF-8 or
// escapes half a surrogate pair is answered here, before the MCP library decodes
// it (Go's decoder would turn the bad part into U+FFFD, and a claim, a resolve
// summary or fixthis_type_text's text would be stored or typed as something the
// agent never sent). A tool call gets a tool error an agent can act on; any other
// request a JSON-RPC error; a notification nothing.

// invalidParams is JSON-RPC's code for a request whose parameters are wrong.
const invalidParams = -32602

// textRefusal checks one JSON-RPC message. bad is false when its text is fine;
// otherwise answer is what to send back (nil for a notification).
func textRefusal(msg []byte) (answer []byte, bad bool) {
	terr := jsontext.Check(msg)
	if terr == nil {
		return nil, false
	}
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	_ = json.Unmarshal(msg, &head) // read past the bad text: only the id and names are needed
	id := json.RawMessage("null")
	if len(head.ID) > 0 && jsontext.Check(head.ID) == nil {
		id = head.ID
	} else if head.Method != "" && len(head.ID) == 0 {
		return nil, true // a notification: JSON-RPC answers none
	}
	what := "the request's JSON text"
	if head.Method == "tools/call" {
		what = "the JSON text of the call to " + errcode.Quote(head.Params.Name)
	}
	text := fmt.Sprintf("%s: %s %v; send text as UTF-8 (a character beyond U+FFFF as a surrogate pair). Nothing was done.",
		errcode.InvalidInput.Prefix(), what, terr)
	var resp map[string]any
	if head.Method == "tools/call" {
		resp = map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id, "result": mcp.NewToolResultError(text)}
	} else {
		resp = map[string]any{"jsonrpc": mcp.JSONRPC_VERSION, "id": id, "error": map[string]any{"code": invalidParams, "message": text}}
	}
	answer, err := json.Marshal(resp)
	if err != nil {
		return nil, true
	}
	return answer, true
}

// lockedWriter serialises whole writes: the stdio server and the text check
// answer on the same stdout, one message per Write.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// checkedLines copies the agent's newline-delimited messages from in to the
// returned reader, answering on out, instead of passing on, those whose text
// breaks the rule. The reader ends when in does.
func checkedLines(in io.Reader, out io.Writer) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReader(in)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				if answer, bad := textRefusal(bytes.TrimSpace(line)); bad {
					if answer != nil {
						_, _ = out.Write(append(answer, '\n'))
					}
				} else if _, werr := pw.Write(line); werr != nil {
					return // the server stopped reading
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				_ = pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}
