package evidence

import "testing"

func TestAttemptAttachment(t *testing.T) {
	logcat := Attachment{Kind: KindLogcat, Status: StatusComplete, Summary: "no crash"}
	frames := Attachment{Kind: KindFrames, Status: StatusFailed, Reason: ReasonTimeout}
	a := Attempt{Attachments: []Attachment{logcat, frames}}
	for _, tt := range []struct {
		name string
		a    Attempt
		kind Kind
		want Attachment
	}{
		{"first", a, KindLogcat, logcat},
		{"failed one", a, KindFrames, frames},
		{"collector that did not run", a, KindNetwork, Attachment{}},
		{"no attachments", Attempt{}, KindMemory, Attachment{}},
		{"no kind", a, "", Attachment{}},
	} {
		if got := tt.a.Attachment(tt.kind); got != tt.want {
			t.Errorf("%s: Attachment(%q) = %+v, want %+v", tt.name, tt.kind, got, tt.want)
		}
	}
}
