package feedback

import (
	"context"

	"fixthis/app/errcode"
	"fixthis/app/store"
	"fixthis/app/voice"
)

// The unit tools after record_unit: update, withdraw, answer, and the handoff a
// mode or checkpoint asks for.

// unitItemOf finds a unit's item; a unit whose item the user deleted is withdrawn.
func (u *VoiceUnits) unitItemOf(ctx context.Context, ref voice.UnitRef) (*store.Item, error) {
	it, err := u.s.store.VoiceItem(ctx, ref.SessionID, ref.VoiceSessionID, ref.UnitID)
	if errcode.Of(err) == errcode.ItemNotFound {
		return nil, voice.Refuse("withdrawn", "%s has no item any more: it was withdrawn or deleted", ref.UnitID)
	}
	return it, err
}

// Update is update_unit: a new statement, anchors added, while the item is a draft
// not yet handed off; after that already_picked_up.
func (u *VoiceUnits) Update(ctx context.Context, c voice.UnitChange) (voice.UnitItem, error) {
	it, err := u.unitItemOf(ctx, c.UnitRef)
	if err != nil {
		return voice.UnitItem{}, err
	}
	if it.Delivery != store.DeliveryDraft || it.Status != store.StatusOpen || it.LastHandedOffAt != nil {
		return unitItem(it), voice.Refuse("already_picked_up", "item %d was already handed off (it is %s); record the refinement as a new unit", it.SequenceNumber, it.Phase)
	}
	ids := make([]string, 0, len(c.Anchors))
	for _, an := range c.Anchors {
		ids = append(ids, an.ID)
	}
	up, err := u.s.store.UpdateVoiceItem(ctx, c.SessionID, it.ItemID, c.Statement, ids)
	if errcode.Of(err) == errcode.ItemNotEditable {
		return unitItem(it), voice.Refuse("already_picked_up", "%v", err)
	}
	if err != nil {
		return unitItem(it), unitRefusal(err)
	}
	return unitItem(up), nil
}

// Withdraw is withdraw_unit: the draft is deleted; an item the agent has goes
// through the same deletion, which queues its withdrawal for the agent's wait. A
// finished item stays: the user's and the agent's decisions are final.
func (u *VoiceUnits) Withdraw(ctx context.Context, ref voice.UnitRef) (voice.UnitItem, error) {
	it, err := u.unitItemOf(ctx, ref)
	if err != nil {
		return voice.UnitItem{}, err
	}
	if !it.IsOpen() {
		return unitItem(it), voice.Refuse("finished", "item %d is already %s", it.SequenceNumber, it.Phase)
	}
	if err := u.s.store.DeleteItem(ctx, ref.SessionID, it.ItemID); err != nil {
		return unitItem(it), unitRefusal(err)
	}
	return unitItem(it), nil
}

// Answer is relay_answer: the riffer's answer goes through AnswerQuestion, the path
// of a typed answer, so the agent's wait returns it. Whichever answer comes first
// wins; the second is refused.
func (u *VoiceUnits) Answer(ctx context.Context, ref voice.UnitRef, answer string) (voice.UnitItem, error) {
	it, err := u.unitItemOf(ctx, ref)
	if err != nil {
		return voice.UnitItem{}, err
	}
	if it.Status != store.StatusNeedsClarification {
		return unitItem(it), noQuestion(it)
	}
	up, err := u.s.store.AnswerQuestion(ctx, ref.SessionID, it.ItemID, answer)
	if errcode.Of(err) == errcode.ItemNotEditable {
		// A typed answer won the race.
		if now, rerr := u.s.store.VoiceItem(ctx, ref.SessionID, ref.VoiceSessionID, ref.UnitID); rerr == nil {
			return unitItem(now), noQuestion(now)
		}
	}
	if err != nil {
		return unitItem(it), unitRefusal(err)
	}
	return unitItem(up), nil
}

func noQuestion(it *store.Item) error {
	if it.UserAnswer != "" {
		return voice.Refuse("already_answered", "the question on item %d was already answered", it.SequenceNumber)
	}
	return voice.Refuse("no_question", "the agent asked nothing about item %d", it.SequenceNumber)
}

// HandOff releases the named items, or every draft of the voice session, the way
// Save to MCP does (runtime evidence under the Auto policy included).
func (u *VoiceUnits) HandOff(ctx context.Context, ref voice.UnitRef, itemIDs []string) error {
	if len(itemIDs) == 0 {
		drafts, err := u.s.store.VoiceDrafts(ctx, ref.SessionID, ref.VoiceSessionID)
		if err != nil {
			return err
		}
		for _, it := range drafts {
			itemIDs = append(itemIDs, it.ItemID)
		}
	}
	if len(itemIDs) == 0 {
		return nil
	}
	_, _, err := u.s.handOff(ctx, ref.SessionID, itemIDs)
	u.s.forgetHandedOff(ctx)
	if c := errcode.Of(err); c == errcode.NoDraftFeedback || c == errcode.ItemNotFound {
		return nil // the user released or deleted them meanwhile
	}
	return err
}
