package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fixthis/adb"
	"fixthis/capture/video"
)

// videoCheck starts screenrecord on an online device and waits for its first picture:
// whether the live preview can be H.264 video there, and if not, why. A device that
// cannot stream is not a failure: the preview then shows raw frames.
func videoCheck(ctx context.Context, client *adb.Client, serial string) check {
	name := "live video " + serial
	ctx, cancel := context.WithTimeout(ctx, 8*time.Second)
	defer cancel()
	start := time.Now()
	// A small picture: the check is whether the encoder streams, not how well.
	s, err := video.Open(ctx, client.Device(serial), video.Options{Width: 320, Height: 704, TimeLimit: 2 * time.Second})
	var ue *video.UnsupportedError
	switch {
	case errors.As(err, &ue):
		return check{Name: name, OK: true, Detail: "unavailable, the preview shows JPEG frames: " + ue.Reason}
	case err != nil:
		return check{Name: name, OK: true, Detail: "not checked: " + err.Error()}
	}
	took := time.Since(start)
	cancel()
	<-s.Done()
	return check{Name: name, OK: true, Detail: fmt.Sprintf("H.264 via screenrecord (first picture after %d ms); force JPEG with --preview jpeg", took.Milliseconds())}
}
