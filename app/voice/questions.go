package voice

import "strings"

// maxQuestion bounds the agent's question as read to the interviewer.
const maxQuestion = 1000

// QuestionNote is the note that tells the interviewer about an agent's question.
func QuestionNote(unitID, question string) string {
	return `[ENDPOINT QUESTION] The coding agent asks about unit ` + unitID + `: "` +
		clip(oneLine(strings.ReplaceAll(question, `"`, `'`)), maxQuestion) + `"`
}

// AskQuestion queues the coding agent's question about a unit's item for the
// interviewer: the note goes at the next pause (the riffer not speaking, no
// response active) with a response.create, so the interviewer reads it out. The
// same question about the same item again queues nothing; false then.
func (iv *Interviewer) AskQuestion(unitID, itemID, question string) bool {
	question = strings.TrimSpace(question)
	if question == "" || iv.ctx.Err() != nil {
		return false
	}
	msg := systemItem(QuestionNote(unitID, question))
	iv.mu.Lock()
	if iv.unitSt.asked[itemID] == question {
		iv.mu.Unlock()
		return false
	}
	iv.unitSt.asked[itemID] = question
	speaking := iv.unitSt.speaking
	if speaking {
		iv.unitSt.pending = append(iv.unitSt.pending, msg)
	}
	id := iv.doc.VoiceSessionID
	iv.mu.Unlock()
	if !speaking {
		iv.sendQuestion(msg)
	}
	iv.sink.Question(Question{VoiceSessionID: id, UnitID: unitID, ItemID: itemID, Question: question})
	return true
}

// sendQuestion sends a question note (held while a response is active) and asks
// for a response once the conversation is free. Between connections the note waits
// for the replacement (flushQuestions).
func (iv *Interviewer) sendQuestion(msg []byte) {
	if !iv.conn.SendItem(msg) {
		iv.mu.Lock()
		iv.unitSt.pending = append(iv.unitSt.pending, msg)
		iv.mu.Unlock()
		return
	}
	iv.conn.RequestResponse()
}

// flushQuestions sends the question notes that waited for a connection, unless
// the riffer is speaking.
func (iv *Interviewer) flushQuestions() {
	iv.mu.Lock()
	if iv.unitSt.speaking {
		iv.mu.Unlock()
		return // speech_stopped sends them
	}
	pending := iv.unitSt.pending
	iv.unitSt.pending = nil
	iv.mu.Unlock()
	for _, msg := range pending {
		iv.sendQuestion(msg)
	}
}
