package feedbackapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"fixthis/app/httpapi"
)

// TestSaveAnswersAFractionalPixelInASentence: an area whose bounds are not in
// whole device pixels is a 400 whose message names the field, quotes the number
// briefly and says what it must be, never the decoder's text.
func TestSaveAnswersAFractionalPixelInASentence(t *testing.T) {
	body := `{"sessionId":"s","frozenId":"f","items":[{"draftItemId":"d","comment":"c",` +
		`"target":{"type":"area","bounds":{"left":516,"top":260.47412353923204,"right":612,"bottom":308}}}]}`
	rec := httptest.NewRecorder()
	Routes{}.PostItemsBatch(rec, httptest.NewRequest("POST", "/api/items/batch", strings.NewReader(body)))
	var got httpapi.ErrorBody
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := `INVALID_INPUT: items.target.bounds.top must be a whole number, not "260.47412353923204"`
	if rec.Code != http.StatusBadRequest || got.Message != want {
		t.Fatalf("%d %q, want 400 %q", rec.Code, got.Message, want)
	}
}
