package clip

import (
	"testing"
	"time"
)

func TestHistoryKeepsWindowFromAKeyFrame(t *testing.T) {
	t0 := time.Unix(0, 0)
	h := NewHistory[int](10*time.Second, 0)
	h.Add(Entry[int]{At: t0, Bytes: 1, Value: -1}) // before any key frame: dropped
	if h.Len() != 0 {
		t.Fatal("a picture before the first key frame was kept")
	}
	// A picture every 100 ms, a key frame every 3 s, for 20 s.
	for i := 0; i < 200; i++ {
		at := t0.Add(time.Duration(i) * 100 * time.Millisecond)
		h.Add(Entry[int]{At: at, Key: i%30 == 0, Bytes: 10, Value: i})
	}
	kept, ok := h.Since(t0.Add(10*time.Second + 500*time.Millisecond))
	// Now is 19.9 s; the window reaches 9.9 s; the key frame before it is at 9 s.
	if !ok || kept[0].Value != 90 || !kept[0].Key {
		t.Fatalf("Since starts at %+v (ok %v), want the key frame at 9 s", kept[0], ok)
	}
	if h.Len() != 200-90 || h.Bytes() != 10*(200-90) {
		t.Errorf("kept %d pictures of %d bytes, want %d", h.Len(), h.Bytes(), 200-90)
	}
	if _, ok := h.Since(t0.Add(5 * time.Second)); ok {
		t.Error("Since reached back past the window")
	}
}

func TestHistoryBoundAndHold(t *testing.T) {
	t0 := time.Unix(0, 0)
	h := NewHistory[int](10*time.Second, 1000)
	for i := 0; i < 50; i++ {
		h.Add(Entry[int]{At: t0.Add(time.Duration(i) * time.Millisecond), Key: i%10 == 0, Bytes: 100, Value: i})
	}
	if h.Bytes() > 1000 || h.NeedKey() {
		t.Fatalf("bound broken: %d bytes, needKey %v", h.Bytes(), h.NeedKey())
	}
	kept, _ := h.Since(t0)
	if !kept[0].Key {
		t.Errorf("after trimming to the bound the history starts at a P picture: %+v", kept[0])
	}
	// One group of pictures larger than the bound: kept whole, a key frame asked for.
	for i := 50; i < 70; i++ {
		h.Add(Entry[int]{At: t0.Add(time.Duration(i) * time.Millisecond), Key: i == 50, Bytes: 100, Value: i})
	}
	if !h.NeedKey() || h.Len() != 20 {
		t.Errorf("needKey %v, %d kept", h.NeedKey(), h.Len())
	}

	hh := NewHistory[int](time.Second, 0)
	release := hh.Hold(t0, time.Minute)
	for i := 0; i < 50; i++ {
		hh.Add(Entry[int]{At: t0.Add(time.Duration(i) * 100 * time.Millisecond), Key: i%5 == 0, Bytes: 1, Value: i})
	}
	if hh.Len() != 50 {
		t.Errorf("a hold kept %d of 50 pictures", hh.Len())
	}
	release()
	hh.Add(Entry[int]{At: t0.Add(5 * time.Second), Key: true, Bytes: 1, Value: 50})
	if hh.Len() > 11 {
		t.Errorf("after release %d pictures kept", hh.Len())
	}
}

func TestHistoryBreakDropsUntilAKeyFrame(t *testing.T) {
	t0 := time.Unix(0, 0)
	h := NewHistory[int](10*time.Second, 0)
	for i := 0; i < 5; i++ {
		h.Add(Entry[int]{At: t0.Add(time.Duration(i) * time.Second), Key: i == 0, Bytes: 1, Value: i})
	}
	h.Break() // picture 4 was cut short
	h.Add(Entry[int]{At: t0.Add(5 * time.Second), Bytes: 1, Value: 5})
	if h.Len() != 4 {
		t.Fatalf("after a break %d pictures kept, want 0–3", h.Len())
	}
	h.Add(Entry[int]{At: t0.Add(6 * time.Second), Key: true, Bytes: 1, Value: 6})
	h.Add(Entry[int]{At: t0.Add(7 * time.Second), Bytes: 1, Value: 7})
	kept, _ := h.Since(t0)
	var got []int
	for _, e := range kept {
		got = append(got, e.Value)
	}
	if len(got) != 6 || got[3] != 3 || got[4] != 6 || got[5] != 7 {
		t.Errorf("kept %v, want [0 1 2 3 6 7]", got)
	}
}
