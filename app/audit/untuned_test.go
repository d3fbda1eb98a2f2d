package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"fixthis/capture"
)

// handList is testdata/untuned/handlist.json: what a reading of ATF's rules finds on
// each dump, written before the audit ran on it.
type handList struct {
	Dumps []struct {
		File          string   `json:"file"`
		DensityDPI    int      `json:"densityDpi"`
		TouchTarget   [][4]int `json:"touch_target"`
		SpeakableText [][4]int `json:"speakable_text"`
	} `json:"dumps"`
}

// minAgreement is the share of findings the audit and the hand reading must share,
// per check, over all the untuned dumps.
const minAgreement = 0.9

// The audit against the hand reading on dumps it was not tuned on: for touch_target
// and speakable_text, the findings both found over those either found (1 when
// neither found any), at least 90 % each; and never a touch_target on a node that is
// not clickable or long-clickable.
func TestUntunedDumpsAgreeWithAHandReading(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "untuned", "handlist.json"))
	if err != nil {
		t.Fatal(err)
	}
	var hl handList
	if err := json.Unmarshal(raw, &hl); err != nil {
		t.Fatal(err)
	}
	if len(hl.Dumps) == 0 {
		t.Fatal("no dumps in the hand list")
	}
	both := map[string]int{}
	either := map[string]int{}
	for _, d := range hl.Dumps {
		in := readDumpFile(t, filepath.Join("testdata", "untuned", d.File))
		in.DensityDPI = d.DensityDPI
		found, err := Run(in)
		if err != nil {
			t.Fatalf("%s: %v", d.File, err)
		}
		clickable := map[string]bool{}
		for i, n := range in.Nodes {
			clickable[n.UID] = n.Clickable || in.Extras[i].LongClickable
		}
		for check, hand := range map[string][][4]int{CheckTouchTarget: d.TouchTarget, CheckSpeakableText: d.SpeakableText} {
			byHand := map[capture.Bounds]bool{}
			for _, b := range hand {
				byHand[capture.Bounds{Left: b[0], Top: b[1], Right: b[2], Bottom: b[3]}] = true
			}
			byAudit := map[capture.Bounds]bool{}
			for _, f := range found {
				if f.Check != check {
					continue
				}
				byAudit[f.Bounds] = true
				if check == CheckTouchTarget && !clickable[f.NodeUID] {
					t.Errorf("%s: touch_target on %s, which is not clickable: %+v", d.File, f.NodeUID, f)
				}
			}
			for b := range byHand {
				either[check]++
				if byAudit[b] {
					both[check]++
				} else {
					t.Logf("%s: %s by hand at %v, not by the audit", d.File, check, b)
				}
			}
			for b := range byAudit {
				if !byHand[b] {
					either[check]++
					t.Logf("%s: %s by the audit at %v, not by hand", d.File, check, b)
				}
			}
		}
	}
	for _, check := range []string{CheckTouchTarget, CheckSpeakableText} {
		agree := 1.0
		if either[check] > 0 {
			agree = float64(both[check]) / float64(either[check])
		}
		t.Logf("%s: %d of %d findings agree (%.0f %%)", check, both[check], either[check], agree*100)
		if agree < minAgreement {
			t.Errorf("%s agrees on %.0f %% of findings, want at least %.0f %%", check, agree*100, minAgreement*100)
		}
	}
}
