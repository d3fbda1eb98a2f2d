package network

import (
	"os"
	"strings"
	"testing"
)

// Asked for, a call's logged bodies ride with it, each on its own thread
// although the calls interleave; a binary body's omission line is no text.
// Without asking, none is kept.
func TestParseWithBodies(t *testing.T) {
	raw, err := os.ReadFile("testdata/okhttp_body_interleaved.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	res := ParseWithBodies(lines)
	byURL := map[string]Request{}
	for _, r := range res.Requests {
		byURL[strings.SplitN(r.URL, "?", 2)[0]] = r
	}
	fav := byURL["https://api.demo.test/v1/favourites"]
	if fav.RequestBody != `{"itemId":812,"password":"hunter2","note":"fav"}` || fav.ResponseBody != `{"error":"db locked","token":"tok_5ecr3t"}` {
		t.Errorf("favourites bodies: %q / %q", fav.RequestBody, fav.ResponseBody)
	}
	if cover := byURL["https://cdn.demo.test/covers/812.jpg"]; cover.RequestBody != "" || cover.ResponseBody != "" || cover.Status != 200 {
		t.Errorf("cover: %+v", cover)
	}
	for _, r := range ParseLines(lines).Requests {
		if r.RequestBody != "" || r.ResponseBody != "" {
			t.Errorf("bodies kept without asking: %+v", r)
		}
	}
}

// A body is bounded: a megabyte line, or thousands of lines, keep MaxBody
// bytes ending in "…"; NUL and other control bytes become spaces.
func TestParseWithBodiesBounds(t *testing.T) {
	head := "12-01 09:41:10.113  4120  4181 D OkHttp  : "
	for _, tc := range []struct {
		name string
		body []string
	}{
		{"a megabyte line", []string{strings.Repeat("x", 1<<20)}},
		{"ten thousand lines", strings.Split(strings.Repeat("line of a long body\n", 10_000), "\n")},
	} {
		lines := []string{head + "--> POST https://a.test/upload", head + "Content-Type: text/plain", head}
		for _, b := range tc.body {
			lines = append(lines, head+b)
		}
		lines = append(lines, head+"--> END POST", head+"<-- 200 OK https://a.test/upload (5ms)")
		res := ParseWithBodies(lines)
		if len(res.Requests) != 1 {
			t.Fatalf("%s: %+v", tc.name, res)
		}
		r := res.Requests[0]
		if len(r.RequestBody) > MaxBody || !strings.HasSuffix(r.RequestBody, "…") || r.Status != 200 {
			t.Errorf("%s: body of %d bytes (%q…), status %d", tc.name, len(r.RequestBody), r.RequestBody[:min(20, len(r.RequestBody))], r.Status)
		}
	}
	res := ParseWithBodies([]string{head + "--> POST https://a.test/x", head, head + "a\x00b\x07c", head + "--> END POST"})
	if got := res.Requests[0].RequestBody; got != "a b c" {
		t.Errorf("control bytes: %q", got)
	}
}
