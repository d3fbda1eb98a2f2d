package audit

import (
	"errors"
	"os"
	"testing"
)

// FuzzAudit feeds the audit arbitrary dumps and densities: it must give findings or
// an error, never panic, and every finding must name a known check and a node.
func FuzzAudit(f *testing.F) {
	for _, g := range goldenDumps {
		data, err := os.ReadFile(g.path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, g.dpi)
	}
	f.Add([]byte(`<hierarchy><node bounds="[0,0][0,0]"/></hierarchy>`), 420)
	f.Add([]byte(`<hierarchy><node bounds="[5,5][1,1]" clickable="true"/></hierarchy>`), 420)
	f.Add([]byte(`<hierarchy><node bounds="[0,0][100,100]"><node bounds="[900,900][990,990]" clickable="true"/></node></hierarchy>`), 0)
	f.Add([]byte("<hierarchy><node text=\"\x00\" bounds=\"[0,0][10,10]\"/></hierarchy>"), -1)
	known := map[string]bool{}
	for _, c := range []string{CheckTouchTarget, CheckSpeakableText, CheckDuplicateSpeakable, CheckDuplicateClickable,
		CheckRedundantDescription, CheckEditableContentDesc, CheckClassName, CheckTextContrast, CheckImageContrast,
		CheckBounds, CheckOverlap, CheckButtonWidth, CheckTextFieldWidth} {
		known[c] = true
	}
	f.Fuzz(func(t *testing.T, data []byte, dpi int) {
		in, err := ReadDump(data)
		if err != nil {
			return
		}
		in.DensityDPI = dpi
		findings, err := Run(in)
		if err != nil {
			if !errors.Is(err, ErrBadInput) {
				t.Fatalf("error not marked as bad input: %v", err)
			}
			return
		}
		for _, x := range findings {
			if !known[x.Check] || x.NodeUID == "" || x.Key == "" || x.Severity == "" {
				t.Fatalf("malformed finding %+v", x)
			}
			if x.Check == CheckTouchTarget {
				clickable := false
				for i, n := range in.Nodes {
					if n.UID == x.NodeUID {
						clickable = n.Clickable || in.Extras[i].LongClickable
					}
				}
				if !clickable {
					t.Fatalf("touch_target on a node that is not clickable: %+v", x)
				}
			}
		}
	})
}
