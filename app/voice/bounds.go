package voice

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fixthis/app/errcode"
)

// What a faulty or hostile upstream can make the interviewer hold. The socket's
// own bound is realtime.MaxEventBytes; these bound what is kept and echoed.
const (
	// maxLiveLine is the most bytes of a partial transcript line kept and sent in
	// one voice-transcript event: a longer line keeps its newest part, so the live
	// line shows what is being said now and each event stays small however long
	// the turn.
	maxLiveLine = 4096
	// keptLive is how many items' partial lines are kept on a connection; the
	// oldest goes first.
	keptLive = 4
	// maxFinalLine is the most characters of a final transcript line.
	maxFinalLine = 4000
	// keptRecent is how many final lines the [RECONNECT] note repeats.
	keptRecent = 6
	// maxEcho is the most characters of an upstream text repeated to the console.
	maxEcho = 120
	// maxDetail is the most characters of a refusal's detail sent upstream: the
	// Units implementation's words may quote what the interviewer sent.
	maxDetail = 240
	// maxID is the most characters of an upstream id (item, response, error code).
	maxID = 64
	// maxAudioDelta is the most base64 of reply audio passed on in one event,
	// about 8 s at 24 kHz; the API sends a fraction of a second at a time.
	maxAudioDelta = 512 << 10
)

// transcriptLines is the transcript of one session as far as the interviewer
// needs it: the live lines of this connection and the last final lines.
type transcriptLines struct {
	live   []liveLine // newest last
	recent []string
}

type liveLine struct{ itemID, text string }

func (t *transcriptLines) newConnection() { t.live = nil }

// grow adds delta to the item's live line and returns the line to show, at most
// maxLiveLine bytes.
func (t *transcriptLines) grow(itemID, delta string) string {
	i := t.find(itemID)
	if i < 0 {
		t.live = append(t.live, liveLine{itemID: itemID})
		if len(t.live) > keptLive {
			t.live = append(t.live[:0:0], t.live[len(t.live)-keptLive:]...)
		}
		i = len(t.live) - 1
	}
	line := &t.live[i]
	if len(delta) >= maxLiveLine {
		line.text = tail(delta, maxLiveLine)
	} else {
		line.text = tail(line.text+delta, maxLiveLine)
	}
	return line.text
}

func (t *transcriptLines) find(itemID string) int {
	for i, l := range t.live {
		if l.itemID == itemID {
			return i
		}
	}
	return -1
}

// end forgets an item's live line: its final line came.
func (t *transcriptLines) end(itemID string) {
	if i := t.find(itemID); i >= 0 {
		t.live = append(t.live[:i], t.live[i+1:]...)
	}
}

// remember keeps a final line for the [RECONNECT] note.
func (t *transcriptLines) remember(line string) {
	t.recent = append(t.recent, line)
	if len(t.recent) > keptRecent {
		t.recent = append(t.recent[:0:0], t.recent[len(t.recent)-keptRecent:]...)
	}
}

// tail is the last at most n bytes of s, cut at a character boundary and marked
// with "…" when cut.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := len(s) - (n - len("…"))
	for cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut++
	}
	return "…" + s[cut:]
}

// echo is how an upstream text is repeated to the console: on one line, control
// characters gone, at most maxEcho characters and, when cut, its full length.
func echo(s string) string {
	s = oneLine(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s))
	if utf8.RuneCountInString(s) <= maxEcho {
		return s
	}
	return clip(s, maxEcho) + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// clipID bounds an id the upstream chose.
func clipID(s string) string {
	if len(s) <= maxID {
		return s
	}
	return echo(s[:maxID])
}

// checkText is the console's text rule for a field from outside: valid UTF-8, no
// control character (but new lines and tabs where multiline), at most max
// characters.
func checkText(field, s string, max int, multiline bool) error {
	if !utf8.ValidString(s) {
		return errcode.New(errcode.InvalidInput, "%s is not valid UTF-8 text", field)
	}
	for _, r := range s {
		if multiline && (r == '\n' || r == '\t' || r == '\r') {
			continue
		}
		if unicode.IsControl(r) {
			return errcode.New(errcode.InvalidInput, "%s contains the control character U+%04X; remove it", field, r)
		}
	}
	if n := utf8.RuneCountInString(s); n > max {
		return errcode.New(errcode.TooLarge, "%s is %d characters long; at most %d", field, n, max)
	}
	return nil
}

// Tool calls: what one may hold, how many are kept, how often they are handled.
const (
	// maxArguments is the most bytes of a tool call's arguments: a statement at
	// the store's 20,000-character limit and its excerpt fit.
	maxArguments = 64 << 10
	// maxCallID bounds a call id; a longer one cannot be answered (the answer
	// would echo it) and the call is dropped.
	maxCallID = 128
	// keptCalls is how many tool calls ToolCalls remembers.
	keptCalls = 32
	// callBurst and callEvery: at most callBurst calls at once, then one per
	// callEvery; more are refused with rate_limited.
	callBurst = 20
	callEvery = time.Second
)

// ToolCall is a function call the interviewer made.
type ToolCall struct {
	Conn   int
	CallID string
	Name   string
	// Arguments as sent; null when they were over maxArguments or not JSON.
	Arguments json.RawMessage
	At        time.Time
}

// callLog keeps the newest keptCalls tool calls.
type callLog struct{ list []ToolCall }

func (l *callLog) add(c ToolCall) {
	l.list = append(l.list, c)
	if len(l.list) > keptCalls {
		l.list = append(l.list[:0:0], l.list[len(l.list)-keptCalls:]...)
	}
}

// keptArguments is what the log keeps of a call's arguments.
func keptArguments(args string) json.RawMessage {
	if len(args) > maxArguments || !json.Valid([]byte(args)) {
		return json.RawMessage("null")
	}
	return json.RawMessage(args)
}

// callBudget is a token bucket over the session's tool calls.
type callBudget struct {
	tokens float64
	at     time.Time
}

// take spends one call; false when the budget is spent.
func (b *callBudget) take(now time.Time) bool {
	if b.at.IsZero() {
		b.tokens = callBurst
	} else {
		b.tokens = min(callBurst, b.tokens+float64(now.Sub(b.at))/float64(callEvery))
	}
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// ToolCalls returns the interviewer's newest tool calls (at most 32), oldest first.
func (iv *Interviewer) ToolCalls() []ToolCall {
	iv.mu.Lock()
	defer iv.mu.Unlock()
	return append([]ToolCall(nil), iv.calls.list...)
}
