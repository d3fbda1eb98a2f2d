package mcp

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"fixthis/app/evidence"
)

// requestOut is one HTTP call as an agent sees it: what the app's own HTTP
// logging said, redacted (a URL's query is gone; bodies only from a capture the
// user asked to keep them).
type requestOut struct {
	Method     string `json:"method"` // "" when only the answer was in the log
	URL        string `json:"url"`
	Status     int    `json:"status,omitempty"`
	DurationMs *int64 `json:"durationMs,omitempty"`
	Failed     bool   `json:"failed,omitempty"` // no response: it threw, or none was logged
	Error      string `json:"error,omitempty"`  // the exception, or "no response in the log"
	Slow       bool   `json:"slow,omitempty"`   // took more than a second
	Source     string `json:"source"`           // okhttp | ktor | webview
	// OtherProcess marks a call logged under OkHttp's tag by a process that
	// is not the app's (a shell's `log` command); Pid is that process.
	OtherProcess bool `json:"otherProcess,omitempty"`
	Pid          int  `json:"pid,omitempty"`
	// RequestBody and ResponseBody are there only when the user asked that
	// capture to keep bodies: redacted, at most 4 KB each.
	RequestBody  string `json:"requestBody,omitempty"`
	ResponseBody string `json:"responseBody,omitempty"`
}

// networkOut is the HTTP calls of an item's newest capture that read them.
type networkOut struct {
	SessionID  string       `json:"sessionId"`
	ItemID     string       `json:"itemId"`
	CaptureID  string       `json:"captureId,omitempty"`
	CapturedAt string       `json:"capturedAt,omitempty"`
	Summary    string       `json:"summary"`
	Total      int          `json:"total"`    // calls read; requests holds at most 100
	Requests   []requestOut `json:"requests"` // failed and slow first, then the newest
	Artifact   string       `json:"artifact,omitempty"`
	Notes      []string     `json:"notes,omitempty"` // what the log could not tell
}

func (t *toolset) readNetwork() server.ServerTool {
	tool := mcp.NewTool("fixthis_read_network",
		append([]mcp.ToolOption{
			mcp.WithDescription("HTTP calls the app made around a feedback item: from a minute before its screen was frozen to the save, " +
				"as the app's own OkHttp or Ktor logging wrote them to logcat (a debug build with HttpLoggingInterceptor or Ktor's Logging plugin). " +
				"Each call has method, URL (query redacted), status, duration, and whether it failed (no response) or was slow (> 1 s); " +
				"failed and slow calls come first. From the item's newest runtime evidence capture; secrets are never included, and bodies " +
				"(redacted, at most 4 KB each) only when the user captured that item with bodies kept: the log is read once, so they cannot be asked for later."),
			mcp.WithTitleAnnotation("Read network calls"),
			itemIDArg(true),
			sessionIDArg(false, "Session of the item (optional: item ids are unique)."),
			mcp.WithOutputSchema[networkOut](),
		}, readOnly()...)...)
	return server.ServerTool{Tool: tool, Handler: func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		it, recs, err := t.itemEvidence(ctx, req)
		if err != nil {
			return toolResult(err)
		}
		out := networkOut{SessionID: it.SessionID, ItemID: it.ItemID, Requests: []requestOut{},
			Summary: "no network capture for this item yet: fixthis_capture_runtime_evidence takes one"}
		for _, r := range recs { // newest first
			at, ok := networkAttachment(r.Attachments)
			if !ok {
				continue
			}
			// Stored evidence was redacted when it was taken; it is redacted again on the
			// way out, as the console's route does, so evidence kept before a rule was
			// added answers under today's rules.
			out.CaptureID, out.CapturedAt, out.Summary, out.Artifact = r.ID, r.CreatedAt.Format(time.RFC3339), evidence.RedactLine(at.Summary), at.Artifact
			if n := at.Network; n != nil {
				out.Total = n.Total
				for _, note := range n.Notes {
					out.Notes = append(out.Notes, evidence.RedactLine(note))
				}
				for _, c := range n.Requests {
					ro := requestOut{Method: evidence.RedactLine(c.Method), URL: evidence.RedactLine(c.URL), Status: c.Status, DurationMs: c.DurationMs,
						Failed: c.Failed, Error: evidence.RedactLine(c.Error), Slow: c.Slow(), Source: string(c.Source), OtherProcess: c.OtherProcess,
						RequestBody: evidence.RedactBody(c.RequestBody), ResponseBody: evidence.RedactBody(c.ResponseBody)}
					if c.OtherProcess {
						ro.Pid = c.Pid
					}
					out.Requests = append(out.Requests, ro)
				}
			}
			break
		}
		return structured(out)
	}}
}

// networkAttachment finds a capture's network attachment, if it has one.
func networkAttachment(ats []evidence.Attachment) (evidence.Attachment, bool) {
	for _, at := range ats {
		if at.Kind == evidence.KindNetwork {
			return at, true
		}
	}
	return evidence.Attachment{}, false
}
