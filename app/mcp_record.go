package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/mcp"
	"fixthis/app/store"
)

// mcpRecorder serves fixthis_record_screen from the device service: it watches the
// phone for the seconds asked (through the video when the phone streams it), cuts
// the clip, keeps it outside any session (so it is collected like an agent's
// captures once unused) and records the recording in the activity list.
type mcpRecorder struct{ a *App }

func (m mcpRecorder) RecordScreen(ctx context.Context, serial string, seconds int) (*mcp.RecordedClip, error) {
	a := m.a
	dev, err := a.device.Registry.Selected()
	if err != nil {
		return nil, err
	}
	if serial != "" && serial != dev.Serial {
		// The live screen is the selected device's; recording another would take the
		// console's video away from the phone the user looks at.
		return nil, errcode.New(errcode.ClipUnavailable, "only the selected device can be recorded; %s is not selected (%s is)",
			errcode.Quote(serial), dev.Serial)
	}
	c, source, err := a.device.Record(ctx, dev, time.Duration(seconds)*time.Second)
	outcome, detail := "ok", fmt.Sprintf("recorded the screen for %d s", seconds)
	if err != nil {
		outcome, detail = "failed", "recording the screen failed: "+firstLineOf(err.Error())
	}
	if rerr := a.store.RecordDeviceAction(context.WithoutCancel(ctx), store.DeviceAction{Serial: dev.Serial,
		Action: "record", Detail: detail, Outcome: outcome}); rerr != nil {
		a.log.Warn("record device action", "serial", dev.Serial, "err", rerr)
	}
	if err != nil {
		return nil, err
	}
	timeline, err := json.Marshal(c.Timeline)
	if err != nil {
		return nil, err
	}
	saved, err := a.store.SaveClip(ctx, store.ClipInput{Serial: dev.Serial, Source: source, MP4: c.MP4, Strip: c.Strip,
		DurationMs: c.DurationMs, Frames: c.Frames, Width: c.Width, Height: c.Height, Timeline: timeline})
	if err != nil {
		return nil, err
	}
	out := &mcp.RecordedClip{ClipID: saved.ClipID, Serial: dev.Serial, Source: source, DurationMs: c.DurationMs,
		Frames: c.Frames, Width: c.Width, Height: c.Height, Stalls: c.Timeline.Stalls, LongestStallMs: c.Timeline.LongestMs,
		Timeline: c.Timeline.Summary(), Strip: c.Strip}
	out.Path, _ = a.store.ArtifactPath(saved.VideoArtifact)
	if saved.StripArtifact != "" {
		out.FrameStripPath, _ = a.store.ArtifactPath(saved.StripArtifact)
	}
	return out, nil
}

func firstLineOf(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
