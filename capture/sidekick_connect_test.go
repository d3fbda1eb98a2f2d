package capture

import (
	"context"
	"encoding/json"
	"fixthis/internal/sidekick"
	"net"
	"strings"
	"testing"
)

// Connect checks the protocol status reports and remembers the socket it is bound
// to, which later dials try first.
func TestSidekickConnect(t *testing.T) {
	for _, tc := range []struct {
		name, version, bound string
		wantErr              string
		wantFirst            string
	}{
		{"bound -1", "1.3", "fixthis_com.example.notes-1", "", "fixthis_com.example.notes-1"},
		{"another app's name ignored", "1.3", "fixthis_com.other", "", "fixthis_com.example.notes"},
		{"protocol 1.4", "1.4", "fixthis_com.example.notes", `speaks bridge protocol "1.4"; FixThis supports exactly 1.3`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &SidekickClient{Session: goldenSession(t), Dial: func(ctx context.Context, socket string) (net.Conn, error) {
				cl, s := net.Pipe()
				go func() {
					defer s.Close()
					for {
						msg, err := sidekick.ReadFrame(s)
						if err != nil {
							return
						}
						var req sidekick.Request
						_ = json.Unmarshal(msg, &req)
						result := any(sidekick.HeartbeatResult{Connected: true})
						if req.Method == sidekick.MethodStatus {
							result = sidekick.Status{BridgeProtocolVersion: tc.version, SocketName: &tc.bound}
						}
						raw, _ := json.Marshal(result)
						body, _ := json.Marshal(sidekick.Response{ID: &req.ID, OK: true, Result: raw})
						if sidekick.WriteFrame(s, body) != nil {
							return
						}
					}
				}()
				return cl, nil
			}}
			defer c.Close()
			_, err := c.Connect(context.Background())
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if names := c.socketNames(); names[0] != tc.wantFirst || len(names) < 3 {
				t.Errorf("dial order %v, want %s first", names, tc.wantFirst)
			}
		})
	}
}
