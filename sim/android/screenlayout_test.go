package android

import "testing"

// The size bucket and aspect follow Configuration.reduceScreenLayout, boundaries
// included: a screen under 470 dp long is small and never long.
func TestScreenLayout(t *testing.T) {
	for _, c := range []struct {
		shortDp, longDp int
		want            string
	}{
		{200, 469, "smll notlong"}, // long by its aspect, but small screens never are
		{320, 470, "nrml notlong"},
		{411, 914, "nrml long"}, // a Pixel 7a: 914*3/5 = 548 >= 410
		{480, 639, "nrml notlong"},
		{480, 640, "lrg notlong"},
		{479, 900, "nrml long"},
		{673, 841, "lrg notlong"},   // the foldable preset
		{800, 1280, "xlrg notlong"}, // the tablet preset: 768 < 799
		{720, 960, "xlrg notlong"},
		{719, 1200, "lrg long"}, // 720 short is the xlarge floor
	} {
		if got := screenLayout(c.shortDp, c.longDp); got != c.want {
			t.Errorf("%d×%d dp: %q, want %q", c.shortDp, c.longDp, got, c.want)
		}
	}
}
