package store

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"fixthis/app/errcode"
)

// FuzzNormalizeBatch feeds one item's strings and bounds, and the screen's
// serial, through a batch save's validation: it never panics, and what it
// accepts is valid text without control characters (a comment may hold line
// breaks), a serial within adb's bound and bounds on the 1080×2400 screen. Every refusal names a code and stays short.
func FuzzNormalizeBatch(f *testing.F) {
	f.Add("ws", "d1", "high", "make it bigger", "node", "n1", "Sign in", 10, 10, 100, 60, "emulator-5554")
	f.Add("ws", "d\x00", "low", "a\x00b", "area", "", "", 0, 0, 1080, 2400, "nul\x00serial")
	f.Add("ws", "d", "med", "ok", "area", "", "", 0, 0, 1<<62, 1<<62, "127.0.0.1:5555")
	f.Add("ws", "d", "med", "ok", "area", "", "", 0, 0, 1081, 10, "emu\xfflator")
	f.Add("w\xffs", "d", "med", "bad \xff text", "node", "n\u2028", "\ufffd", 1, 1, 2, 2, "R58M 123\n")
	f.Add("ws", "d", "med", strings.Repeat("x", 20001), "screen", "", "", 0, 0, 0, 0, strings.Repeat("s", 256))
	f.Fuzz(func(t *testing.T, ws, draft, severity, comment, typ, nodeUID, text string, l, tp, r, b int, serial string) {
		in := SaveBatchInput{SessionID: "s", WorkspaceID: ws, FrozenID: "p",
			Screen: ScreenInput{Width: 1080, Height: 2400, Serial: serial},
			Items: []BatchItem{{DraftItemID: draft, Severity: Severity(severity), Comment: comment,
				Target: Target{Type: TargetType(typ), NodeUID: nodeUID, Bounds: &Bounds{Left: l, Top: tp, Right: r, Bottom: b},
					Snapshot: &NodeSnapshot{Text: text}}}}}
		err := normalizeBatch(&in)
		if err != nil {
			if _, ok := err.(*errcode.Error); !ok {
				t.Fatalf("refusal without a code: %v", err)
			}
			if len(err.Error()) > 400 {
				t.Fatalf("%d-byte refusal: %.100s", len(err.Error()), err)
			}
			return
		}
		it := in.Items[0]
		for name, v := range map[string]string{"workspaceId": in.WorkspaceID, "draftItemId": it.DraftItemID,
			"nodeUid": it.Target.NodeUID, "comment": it.Comment, "screen serial": in.Screen.Serial} {
			if !utf8.ValidString(v) {
				t.Fatalf("%s %q accepted as invalid UTF-8", name, v)
			}
			for _, c := range v {
				if unicode.IsControl(c) && !(name == "comment" && (c == '\n' || c == '\t' || c == '\r')) {
					t.Fatalf("%s %q accepted with a control character", name, v)
				}
			}
		}
		if n := utf8.RuneCountInString(in.Screen.Serial); n > maxSerialLen {
			t.Fatalf("a %d-character serial accepted", n)
		}
		if bb := it.Target.Bounds; bb != nil && (bb.Left < 0 || bb.Top < 0 || bb.Right > 1080 || bb.Bottom > 2400 || bb.Right <= bb.Left || bb.Bottom <= bb.Top) {
			t.Fatalf("bounds %+v accepted on a 1080×2400 screen", *bb)
		}
	})
}
