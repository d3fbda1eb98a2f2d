package feedback

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/mcp"
	"fixthis/app/store"
	"fixthis/app/verify"
	"fixthis/capture"
	"fixthis/capture/clip"
)

// Agent is the feedback core as the MCP tools reach it: runtime evidence for an
// item, whether an item's node is still on screen, and recordings of the screen.
type Agent struct{ s *Service }

// Agent returns the MCP tools' side of s.
func (s *Service) Agent() Agent { return Agent{s: s} }

// CollectEvidence serves fixthis_capture_runtime_evidence.
func (a Agent) CollectEvidence(ctx context.Context, itemID string, trigger store.EvidenceTrigger) (*store.EvidenceRecord, error) {
	return a.s.CaptureDiagnostics(ctx, "", itemID, trigger, false)
}

// NodeOnScreen answers read_feedback's "is this node still on screen?" from a fresh
// capture of the selected phone.
func (a Agent) NodeOnScreen(ctx context.Context, target store.Target) (present, known bool) {
	dev, err := a.s.device.Registry.Selected()
	if err != nil {
		return false, false
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	shot, err := a.s.device.Capturer.Capture(ctx, dev.Serial)
	if err != nil || shot.TreeErr != nil {
		return false, false
	}
	return nodeOnScreen(shot.Nodes, target)
}

// CutClip cuts the last d of serial's live screen, or with recordingID all that
// recording kept, into a clip of the session. The session is looked at before the
// cut, and a recording ends only once its clip is saved: a cut refused for an
// unknown or closed session (which only the save sees) leaves it to be cut again.
func (s *Service) CutClip(ctx context.Context, sessionID, serial, recordingID string, d time.Duration) (*store.Clip, error) {
	if recordingID != "" {
		ran, err := s.device.RecordingRan(recordingID, serial)
		if err != nil {
			return nil, err
		}
		d = min(max(ran, clip.MinSeconds*time.Second), clip.MaxSeconds*time.Second)
	}
	if _, err := s.store.GetSessionSummary(ctx, sessionID); err != nil {
		return nil, err
	}
	c, source, err := s.device.Cut(serial, d)
	if err != nil {
		return nil, err
	}
	saved, err := s.SaveClip(ctx, sessionID, serial, source, c)
	if err != nil {
		return nil, err
	}
	if recordingID != "" {
		s.device.StopRecording(recordingID)
	}
	s.log.Info("clip cut", "serial", serial, "source", source, "durationMs", c.DurationMs, "frames", c.Frames, "bytes", len(c.MP4))
	return saved, nil
}

// SaveClip keeps a clip cut from serial's screen: with the session it belongs to,
// or with none (an agent's recording, collected like its captures once unused).
func (s *Service) SaveClip(ctx context.Context, sessionID, serial, source string, c *clip.Clip) (*store.Clip, error) {
	timeline, err := json.Marshal(c.Timeline)
	if err != nil {
		return nil, err
	}
	return s.store.SaveClip(ctx, store.ClipInput{SessionID: sessionID, Serial: serial, Source: source, MP4: c.MP4,
		Strip: c.Strip, DurationMs: c.DurationMs, Frames: c.Frames, Width: c.Width, Height: c.Height, Timeline: timeline})
}

// nodeOnScreen finds the target's node among nodes the way verification does
// (capture.FindNode), so an item read_feedback calls orphaned is one a verification
// would not find either. known is false when the snapshot names the node by nothing.
func nodeOnScreen(nodes []capture.Node, target store.Target) (present, known bool) {
	loc := verify.Locator(target)
	if !loc.HasKey() {
		return false, false
	}
	_, present = capture.FindNode(nodes, loc, capture.MatchOptions{})
	return present, true
}

// RecordScreen serves fixthis_record_screen: it watches the selected phone for the
// seconds asked (through the video when the phone streams it), cuts the clip, keeps
// it outside any session (so it is collected like an agent's captures once unused)
// and records the recording in the activity list.
func (a Agent) RecordScreen(ctx context.Context, serial string, seconds int) (*mcp.RecordedClip, error) {
	s := a.s
	dev, err := s.device.Registry.Selected()
	if err != nil {
		return nil, err
	}
	if serial != "" && serial != dev.Serial {
		// The live screen is the selected phone's; recording another would take the
		// console's video away from the phone the user looks at.
		return nil, errcode.New(errcode.ClipUnavailable, "only the selected device can be recorded; %s is not selected (%s is)",
			errcode.Quote(serial), dev.Serial)
	}
	c, source, err := s.device.Record(ctx, dev, time.Duration(seconds)*time.Second)
	outcome, detail := "ok", fmt.Sprintf("recorded the screen for %d s", seconds)
	if err != nil {
		first, _, _ := strings.Cut(err.Error(), "\n")
		outcome, detail = "failed", "recording the screen failed: "+first
	}
	if rerr := s.store.RecordDeviceAction(context.WithoutCancel(ctx), store.DeviceAction{Serial: dev.Serial,
		Action: "record", Detail: detail, Outcome: outcome}); rerr != nil {
		s.log.Warn("record device action", "serial", dev.Serial, "err", rerr)
	}
	if err != nil {
		return nil, err
	}
	saved, err := s.SaveClip(ctx, "", dev.Serial, source, c)
	if err != nil {
		return nil, err
	}
	out := &mcp.RecordedClip{ClipID: saved.ClipID, Serial: dev.Serial, Source: source, DurationMs: c.DurationMs,
		Frames: c.Frames, Width: c.Width, Height: c.Height, Stalls: c.Timeline.Stalls, LongestStallMs: c.Timeline.LongestMs,
		Timeline: c.Timeline.Summary(), Strip: c.Strip}
	out.Path, _ = s.store.ArtifactPath(saved.VideoArtifact)
	if saved.StripArtifact != "" {
		out.FrameStripPath, _ = s.store.ArtifactPath(saved.StripArtifact)
	}
	return out, nil
}
