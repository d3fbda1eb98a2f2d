package device

import (
	"testing"

	"fixthis/capture/video"
)

func TestShareOfLinkSplitsTheBudgetOnlyWhenItBinds(t *testing.T) {
	phoneW, phoneH := video.Fit(1080, 2400, 0) // 864×1920: 6.6 Mbit/s alone
	tabletW, tabletH := video.Fit(2560, 1600, 0)
	for _, tc := range []struct {
		name          string
		w, h, streams int
		want          int
	}{
		{"a stage-sized phone alone keeps the encoder floor", 320, 720, 1, 4_000_000},
		{"a stage-sized phone among four keeps the floor", 320, 720, 4, 4_000_000},
		{"a full-height phone alone keeps its sharp rate", phoneW, phoneH, 1, video.BitRate(phoneW, phoneH)},
		{"three full-height phones still fit", phoneW, phoneH, 3, video.BitRate(phoneW, phoneH)},
		{"four full-height phones take a quarter each", phoneW, phoneH, 4, 6_000_000},
		{"a tablet alone keeps its sharp rate", tabletW, tabletH, 1, video.BitRate(tabletW, tabletH)},
		{"a tablet among three takes a third", tabletW, tabletH, 3, 8_000_000},
		{"no stream counted is one stream", phoneW, phoneH, 0, video.BitRate(phoneW, phoneH)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := shareOfLink(tc.w, tc.h, tc.streams)
			if got != tc.want {
				t.Errorf("shareOfLink(%d, %d, %d) = %d, want %d", tc.w, tc.h, tc.streams, got, tc.want)
			}
			if got > video.BitRate(tc.w, tc.h) {
				t.Errorf("%d bit/s is more than the stream needs", got)
			}
		})
	}
}
