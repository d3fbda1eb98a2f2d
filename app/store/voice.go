package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"fixthis/app/errcode"
)

// Items made from speech. They are ordinary items saved through SaveBatch with the
// draft key (voice session id, unit id) and a VoiceOrigin; these helpers are what
// the interviewer's unit tools need beyond the console's routes.

// voiceJSON encodes a voice origin for the voice_json column ("" for none),
// clipping the excerpt to MaxExcerpt characters.
func voiceJSON(v *VoiceOrigin) (string, error) {
	if v == nil {
		return "", nil
	}
	o := *v
	o.Excerpt = clipRunes(strings.TrimSpace(o.Excerpt), MaxExcerpt)
	if !utf8.ValidString(o.Excerpt) {
		return "", invalid("the transcript excerpt is not valid UTF-8 text")
	}
	if o.Anchors == nil {
		o.Anchors = []string{}
	}
	b, err := json.Marshal(o)
	if err != nil {
		return "", fmt.Errorf("encode voice origin: %w", err)
	}
	return string(b), nil
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// VoiceItem returns the item a unit of a voice session became, or ITEM_NOT_FOUND.
func (s *Store) VoiceItem(ctx context.Context, sessionID, voiceSessionID, unitID string) (*Item, error) {
	items, err := queryItems(ctx, s.rdb, `WHERE session_id = ? AND client_workspace_id = ? AND client_draft_item_id = ?`,
		sessionID, voiceSessionID, unitID)
	if err != nil {
		return nil, storageErr("reading items", err)
	}
	if len(items) == 0 || items[0].Voice == nil {
		return nil, errorf(errcode.ItemNotFound, "no item for unit %s", echo(unitID))
	}
	return &items[0], nil
}

// VoiceDrafts lists the drafts a voice session's units became, in sequence order:
// what a checkpoint hands off.
func (s *Store) VoiceDrafts(ctx context.Context, sessionID, voiceSessionID string) ([]Item, error) {
	items, err := queryItems(ctx, s.rdb, `WHERE session_id = ? AND client_workspace_id = ? AND delivery = 'draft'
		AND status = 'open' AND voice_json <> '' ORDER BY sequence_number`, sessionID, voiceSessionID)
	return items, storageErr("reading items", err)
}

// UpdateVoiceItem is update_unit: a new statement (the comment) and anchors added
// to the origin, only while the item is a draft the agent has not been given.
func (s *Store) UpdateVoiceItem(ctx context.Context, sessionID, itemID string, statement *string, addAnchors []string) (*Item, error) {
	if statement != nil {
		c, err := cleanComment(*statement)
		if err != nil {
			return nil, err
		}
		statement = &c
	}
	return s.userUpdate(ctx, "updating item", "edit feedback", sessionID, itemID, true, func(t *tx, it Item) (string, any, error) {
		if it.Voice == nil {
			return "", nil, invalid("item %d was not made from speech", it.SequenceNumber)
		}
		if it.Delivery != DeliveryDraft || it.Status != StatusOpen || it.LastHandedOffAt != nil {
			return "", nil, errorf(errcode.ItemNotEditable, "item %d was already handed off (it is %s)", it.SequenceNumber, it.Phase)
		}
		origin := *it.Voice
		for _, a := range addAnchors {
			if a = strings.TrimSpace(a); a != "" && !contains(origin.Anchors, a) {
				origin.Anchors = append(origin.Anchors, a)
			}
		}
		v, err := voiceJSON(&origin)
		if err != nil {
			return "", nil, err
		}
		comment := it.Comment
		if statement != nil {
			comment = *statement
		}
		if _, err := t.ExecContext(ctx, `UPDATE items SET comment = ?, voice_json = ?, updated_at = ? WHERE id = ?`,
			comment, v, millis(t.now), itemID); err != nil {
			return "", nil, fmt.Errorf("update item: %w", err)
		}
		return "item-updated", map[string]any{"comment": comment, "anchors": origin.Anchors}, nil
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
