package httpapi

import (
	"testing"

	"fixthis/app/errcode"
)

// Every code has an HTTP status: a new code without one would answer 500.
func TestEveryCodeHasAStatus(t *testing.T) {
	for _, c := range errcode.Codes() {
		if _, ok := statusOf[c]; !ok {
			t.Errorf("code %s has no HTTP status in statusOf", c)
		}
	}
}
