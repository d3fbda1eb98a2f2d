package store

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"fixthis/internal/childtest"
)

const crashChildEnv = "FIXTHIS_STORE_CRASH_CHILD"

// crashChild saves batches forever, printing "ACK <workspace>" after each
// save returned, until it is killed.
func crashChild(dir string) {
	ctx := context.Background()
	s, err := Open(ctx, dir, Options{})
	if err != nil {
		fmt.Println("ERR", err)
		os.Exit(1)
	}
	sessions, err := s.ListSessions(ctx)
	if err != nil || len(sessions) != 1 {
		fmt.Println("ERR no session", err)
		os.Exit(1)
	}
	sid := sessions[0].SessionID
	for i := 0; ; i++ {
		ws := fmt.Sprintf("ws-%d", i)
		in := batchInput(nil, sid, ws, 2, false)
		in.FrozenID = ws // a new screen per save
		in.IfMatch = "*"
		in.Screen.ImagePNG = []byte(fmt.Sprintf("screen %d %s", i, strings.Repeat("x", 20000)))
		for j := range in.Items {
			in.Items[j].CropPNG = []byte(fmt.Sprintf("crop %d/%d", i, j))
		}
		res, err := s.SaveBatch(ctx, in)
		if err != nil {
			fmt.Println("ERR", err)
			os.Exit(1)
		}
		if i%3 == 0 {
			if _, err := s.ReleaseToAgent(ctx, sid, []string{res.Items[0].ItemID}); err != nil {
				fmt.Println("ERR", err)
				os.Exit(1)
			}
		}
		fmt.Println("ACK", ws)
	}
}

func TestCrashSafety(t *testing.T) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		return
	}
	dir := t.TempDir()
	s := openTest(t, dir)
	sess := mustSession(t, s)
	s.Close()

	// A failure before the planned kill must not leave the child saving: Start ends it.
	cmd, lines := childtest.Start(t, "TestCrashSafety", crashChildEnv, dir)
	acked := map[string]bool{}
	deadline := time.After(20 * time.Second)
	killed := false
	for line := range lines {
		if strings.HasPrefix(line, "ERR") {
			t.Fatalf("child: %s", line)
		}
		if ws, ok := strings.CutPrefix(line, "ACK "); ok {
			acked[ws] = true
		}
		if killed {
			continue // drain what was printed before the kill
		}
		select {
		case <-deadline:
			t.Fatalf("child acknowledged only %d saves in 20 s", len(acked))
		default:
		}
		if len(acked) == 25 {
			// Kill in the middle of the stream: the next save is under way.
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
		}
	}
	cmd.Wait()
	if !killed {
		t.Fatal("child exited by itself")
	}

	s = openTest(t, dir)
	integrityOK(t, s)
	got, err := s.GetSession(context.Background(), sess.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	perWS := map[string]int{}
	maxSeq := 0
	for _, it := range got.Items {
		perWS[it.ClientWorkspaceID]++
		maxSeq = max(maxSeq, it.SequenceNumber)
	}
	for ws := range acked {
		if perWS[ws] != 2 {
			t.Errorf("acknowledged save %s has %d items", ws, perWS[ws])
		}
	}
	for ws, n := range perWS {
		if n != 2 {
			t.Errorf("save %s is half-written: %d items", ws, n)
		}
	}
	if len(perWS) < len(acked) || len(perWS) > len(acked)+1 {
		t.Errorf("%d saves on disk for %d acknowledged", len(perWS), len(acked))
	}
	if len(got.Screens) != len(perWS) {
		t.Errorf("%d screens for %d saves", len(got.Screens), len(perWS))
	}
	var next int
	s.rdb.QueryRow(`SELECT next_sequence FROM sessions WHERE id = ?`, sess.SessionID).Scan(&next)
	if next != maxSeq+1 {
		t.Errorf("next_sequence %d after max %d", next, maxSeq)
	}
	refs := 0
	for _, sc := range got.Screens {
		for _, k := range []string{sc.ImageArtifact, sc.NodesArtifact} {
			refs++
			if _, err := s.ReadArtifact(context.Background(), k); err != nil {
				t.Errorf("screen %s: %v", sc.ScreenID, err)
			}
		}
	}
	for _, it := range got.Items {
		refs++
		if _, err := s.ReadArtifact(context.Background(), it.CropArtifact); err != nil {
			t.Errorf("item %d: %v", it.SequenceNumber, err)
		}
	}
	t.Logf("%d acknowledged saves, %d on disk, %d artifacts checked", len(acked), len(perWS), refs)
	// The store keeps working after the crash.
	in := batchInput(t, sess.SessionID, "after-crash", 1, true)
	in.IfMatch = "*"
	mustSave(t, s, in)
}
