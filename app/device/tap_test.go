package device

import "testing"

func TestOnScreenInEitherRotation(t *testing.T) {
	cases := []struct {
		x, y int
		want bool
	}{
		{540, 2000, true},   // portrait
		{2000, 540, true},   // landscape: the panel turned
		{2300, 1000, true},  // near the landscape corner
		{2000, 2000, false}, // on neither
		{1080, 2400, false}, // the edge is outside
		{2400, 1079, false},
	}
	for _, c := range cases {
		if got := onScreen(c.x, c.y, 1080, 2400); got != c.want {
			t.Errorf("onScreen(%d, %d) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
