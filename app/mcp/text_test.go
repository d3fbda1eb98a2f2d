package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"fixthis/internal/jsontext"
)

type rpcAnswer struct {
	ID     any `json:"id"`
	Result *struct {
		IsError bool `json:"isError"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		Structured map[string]any `json:"structuredContent"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (a rpcAnswer) text() string {
	if a.Error != nil {
		return a.Error.Message
	}
	if a.Result != nil && len(a.Result.Content) > 0 {
		return a.Result.Content[0].Text
	}
	return ""
}

func callLine(id int, tool string, args string) string {
	return `{"jsonrpc":"2.0","id":` + itoa(id) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestBadTextNeverReachesATool drives `fixthis mcp` over stdio with raw lines,
// as a careless agent would: a lone surrogate or a byte that is not UTF-8 in a
// resolve summary or in text to type is a tool error, nothing is stored or
// typed, and the server keeps serving.
func TestBadTextNeverReachesATool(t *testing.T) {
	s, sess, items := seededStore(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	agentToServer, serverIn := io.Pipe()
	serverOut, serverToAgent := io.Pipe()
	go func() {
		_ = ServeStdio(ctx, Deps{Store: s}, agentToServer, serverToAgent, io.Discard)
		serverToAgent.Close()
	}()
	defer serverIn.Close()
	out := bufio.NewReader(serverOut)
	send := func(line string) {
		t.Helper()
		if _, err := serverIn.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	recv := func() rpcAnswer {
		t.Helper()
		got := make(chan []byte, 1)
		go func() { b, _ := out.ReadBytes('\n'); got <- b }()
		select {
		case b := <-got:
			var a rpcAnswer
			if err := json.Unmarshal(b, &a); err != nil {
				t.Fatalf("answer %q: %v", b, err)
			}
			return a
		case <-time.After(10 * time.Second):
			t.Fatal("no answer")
		}
		return rpcAnswer{}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	sid, iid := sess.SessionID, items[0].ItemID
	send(callLine(2, "fixthis_claim_feedback", `{"sessionId":"`+sid+`","itemId":"`+iid+`"}`))
	if a := recv(); a.Result == nil || a.Result.IsError {
		t.Fatalf("claim: %+v", a)
	}
	for i, c := range []struct{ line, want string }{
		{callLine(3, "fixthis_resolve_feedback", `{"sessionId":"`+sid+`","itemId":"`+iid+`","status":"resolved","summary":"fixed \ud800 it"}`),
			`INVALID_INPUT: the JSON text of the call to "fixthis_resolve_feedback" escapes half a UTF-16 surrogate pair`},
		{callLine(4, "fixthis_resolve_feedback", "{\"sessionId\":\""+sid+"\",\"itemId\":\""+iid+"\",\"status\":\"resolved\",\"summary\":\"fixed \xff it\"}"),
			`INVALID_INPUT: the JSON text of the call to "fixthis_resolve_feedback" is not valid UTF-8`},
		{callLine(5, "fixthis_type_text", `{"text":"hi \udc00"}`),
			`INVALID_INPUT: the JSON text of the call to "fixthis_type_text" escapes half a UTF-16 surrogate pair`},
		{callLine(6, "fixthis_claim_feedback", `{"sessionId":"`+sid+`","itemId":"\ud83d"}`),
			`the call to "fixthis_claim_feedback" escapes half`},
	} {
		send(c.line)
		a := recv()
		if a.Result == nil || !a.Result.IsError || !strings.Contains(a.text(), c.want) || a.ID != float64(i+3) {
			t.Fatalf("call %d: %+v %q; want a tool error with %q", i+3, a, a.text(), c.want)
		}
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"\ud800"}}`) // no answer
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"\ud800"}}`)
	if a := recv(); a.Error == nil || a.Error.Code != invalidParams || a.ID != float64(7) {
		t.Fatalf("tools/list with a lone surrogate: %+v", a)
	}
	send(callLine(8, "fixthis_resolve_feedback", `{"sessionId":"`+sid+`","itemId":"`+iid+`","status":"resolved","summary":"fixed \ud83d\ude00 it"}`))
	if a := recv(); a.Result == nil || a.Result.IsError || a.ID != float64(8) {
		t.Fatalf("a valid resolve after the refusals: %+v %q", a, a.text())
	}
	d, err := s.ReadItem(context.Background(), sid, iid)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(d); strings.Contains(string(b), "\ufffd") || !strings.Contains(string(b), "fixed 😀 it") {
		t.Fatalf("stored: %s", b)
	}
}

func TestBadTextOverHTTP(t *testing.T) {
	ts := httptest.NewServer(HTTPHandler(NewServer(Deps{Store: openStore(t, t.TempDir())}), "secret-token", nil))
	defer ts.Close()
	post := func(body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer secret-token")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	res := post(callLine(9, "fixthis_type_text", `{"text":"\ud800"}`))
	var a rpcAnswer
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil || res.StatusCode != 200 || a.Result == nil || !a.Result.IsError ||
		!strings.Contains(a.text(), "escapes half a UTF-16 surrogate pair") {
		t.Fatalf("type_text over HTTP: %d %+v %v", res.StatusCode, a, err)
	}
	if res := post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"\udfff"}}`); res.StatusCode != http.StatusAccepted {
		t.Fatalf("a notification with bad text: %d", res.StatusCode)
	}
}

// FuzzTextRefusal: whatever an agent sends, a message is passed on only when its
// text is clean, and an answer is one short line of valid JSON in valid UTF-8.
func FuzzTextRefusal(f *testing.F) {
	f.Add(callLine(1, "fixthis_type_text", `{"text":"\ud800"}`))
	f.Add(callLine(2, "fixthis_type_text", `{"text":"ok"}`))
	f.Add("{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"tools/call\",\"params\":{\"name\":\"\xfe\"}}")
	f.Add(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"\udfff"}}`)
	f.Add(`[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}]`)
	f.Fuzz(func(t *testing.T, msg string) {
		answer, bad := textRefusal([]byte(msg))
		if !bad {
			if answer != nil || jsontext.Check([]byte(msg)) != nil {
				t.Fatalf("%q passed with bad text", msg)
			}
			return
		}
		if answer == nil {
			return // a notification
		}
		if !utf8.Valid(answer) || jsontext.Check(answer) != nil || !json.Valid(answer) || bytes.ContainsRune(answer, '\n') || len(answer) > 1024+len(msg) { // the id is echoed as sent
			t.Fatalf("answer %q", answer)
		}
	})
}
