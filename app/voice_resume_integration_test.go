package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fixthis/app/store"
	"fixthis/internal/eventually"
	"fixthis/internal/realtimefake"
)

// TestInstantUnitsLeftWaitingAreHandedOffOnStart: units an instant-mode voice
// session recorded but a killed FixThis never handed off (they queue behind one
// another's runtime evidence) are handed off when FixThis starts again.
func TestInstantUnitsLeftWaitingAreHandedOffOnStart(t *testing.T) {
	script := realtimefake.Script{Turns: []realtimefake.Turn{
		turn("make this card blue", call("record_unit", `{"statement":"Make the card blue","anchors":["this"],"transcript_excerpt":"make this card blue"}`)),
	}}
	dir := t.TempDir()
	first := newVoiceEnvIn(t, dir, script)
	// Collect mode hands nothing off: the draft stands for a unit whose handoff the
	// kill cut off.
	sid, vid, _ := first.startVoice("collect")
	first.speak(vid)
	out := first.waitOutputs(1)[0]
	if p := fmt.Sprint(first.phases(sid)); p != "[draft]" {
		t.Fatalf("before the restart: %s", p)
	}
	// What the killed instant-mode run left in .fixthis: the unit, noted before its
	// item was saved (feedback.VoiceUnits.Record).
	pending := filepath.Join(dir, store.DataDirName, "voice-handoffs.json")
	data, _ := json.Marshal([]map[string]string{{"sessionId": sid, "voiceSessionId": vid, "unitId": out.UnitID},
		{"sessionId": sid, "voiceSessionId": vid, "unitId": "unit_9999"}}) // never saved: skipped
	if err := os.WriteFile(pending, data, 0o600); err != nil {
		t.Fatal(err)
	}
	second := newVoiceEnvIn(t, dir, script)
	eventually.True(t, 10*time.Second, "the waiting unit handed off on start", func() bool { return fmt.Sprint(second.phases(sid)) == "[sent]" })
	eventually.True(t, 5*time.Second, "the list of waiting units removed", func() bool {
		_, err := os.Stat(pending)
		return os.IsNotExist(err)
	})
}
