package store

import (
	"context"
	"testing"

	"fixthis/app/errcode"
	"fixthis/app/evidence"
)

func attemptOf(id string, st evidence.Status) evidence.Attempt {
	return evidence.Attempt{ID: id, Package: "com.fixthis.demo", Status: st, Warnings: []string{"memory-timeout"},
		Attachments: []evidence.Attachment{{Kind: evidence.KindLogcat, Status: evidence.StatusComplete, Summary: "no crash or ANR; 0 errors, 0 warnings in 3 app lines",
			Artifact: ".fixthis/runtime-evidence/s/" + id + "/logcat.txt"}}}
}

func TestEvidenceIsStoredPerItemAndReadNewestFirst(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 2)
	sid := sess.SessionID
	a, b := items[0].ItemID, items[1].ItemID
	recs, err := s.AddEvidence(ctx, sid, []string{a, b}, EvidenceTriggerAuto, attemptOf("rc-1", evidence.StatusPartial))
	if err != nil || len(recs) != 2 {
		t.Fatalf("AddEvidence: %v %v", recs, err)
	}
	if _, err := s.AddEvidence(ctx, sid, []string{a}, EvidenceTriggerManual, attemptOf("rc-2", evidence.StatusComplete)); err != nil {
		t.Fatal(err)
	}
	got, err := s.ItemEvidence(ctx, "", a)
	if err != nil || len(got) != 2 || got[0].ID != "rc-2" || got[0].Trigger != EvidenceTriggerManual || got[1].ID != "rc-1" {
		t.Fatalf("ItemEvidence: %+v %v", got, err)
	}
	if got[1].Status != evidence.StatusPartial || got[1].Attachments[0].Artifact != ".fixthis/runtime-evidence/s/rc-1/logcat.txt" || got[1].Warnings[0] != "memory-timeout" {
		t.Errorf("round trip: %+v", got[1])
	}
	latest, err := s.SessionEvidence(ctx, sid)
	if err != nil || latest[a].ID != "rc-2" || latest[b].ID != "rc-1" {
		t.Errorf("SessionEvidence: %+v %v", latest, err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM events WHERE kind = 'runtime-evidence-collected'`); n != 3 {
		t.Errorf("%d events", n)
	}
	// Deleting the item removes its evidence rows.
	if err := s.DeleteItem(ctx, sid, b); err != nil {
		t.Fatal(err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM evidence_attempts WHERE item_id = ?`, b); n != 0 {
		t.Errorf("%d rows left for a deleted item", n)
	}
}

func TestEvidenceRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	s, sess, items := storeWithItems(t, 1)
	other, _ := sessionWithItems(t, s, 1)
	id := items[0].ItemID
	for name, call := range map[string]func() error{
		"trigger": func() error {
			_, err := s.AddEvidence(ctx, sess.SessionID, []string{id}, "cron", attemptOf("rc", evidence.StatusComplete))
			return err
		},
		"skipped": func() error {
			_, err := s.AddEvidence(ctx, sess.SessionID, []string{id}, EvidenceTriggerAuto, attemptOf("rc", evidence.StatusSkipped))
			return err
		},
		"no id": func() error {
			_, err := s.AddEvidence(ctx, sess.SessionID, []string{id}, EvidenceTriggerAuto, attemptOf("", evidence.StatusComplete))
			return err
		},
	} {
		if err := call(); errcode.Of(err) != errcode.InvalidInput {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := s.AddEvidence(ctx, other.SessionID, []string{id}, EvidenceTriggerAuto, attemptOf("rc", evidence.StatusComplete)); errcode.Of(err) != errcode.ItemNotFound {
		t.Errorf("item of another session: %v", err)
	}
	if _, err := s.ItemEvidence(ctx, other.SessionID, id); errcode.Of(err) != errcode.ItemNotFound {
		t.Errorf("read through another session: %v", err)
	}
	if n := countRows(t, s, `SELECT count(*) FROM evidence_attempts`); n != 0 {
		t.Errorf("%d rows after refusals", n)
	}
}

func TestReleaseCarriesTheEvidenceDecisionToTheAgent(t *testing.T) {
	ctx := context.Background()
	s, sess, _ := storeWithItems(t, 1)
	d := SkippedDecision(SkipOff)
	if _, err := s.ReleaseWithEvidence(ctx, sess.SessionID, nil, &d); err != nil {
		t.Fatal(err)
	}
	b, err := s.NextAgentBatch(ctx, sess.SessionID)
	if err != nil || b == nil || b.Evidence == nil {
		t.Fatalf("batch %+v %v", b, err)
	}
	if e := b.Evidence; e.Attempted || e.Status != "skipped" || e.Reason != "off" || e.Failure != "" || len(e.Warnings) != 0 {
		t.Errorf("decision %+v", *b.Evidence)
	}
	got := DecisionOf(attemptOf("rc", evidence.StatusPartial))
	if !got.Attempted || got.Status != "partial" || got.Warnings[0] != "memory-timeout" {
		t.Errorf("DecisionOf %+v", got)
	}
}
