package realtimefake

import (
	"encoding/base64"
	"time"
)

// startResponse runs one scripted response in the background: response.created, the
// tool calls, the reply (audio or text), then response.done and rate_limits.updated.
func (c *conn) startResponse(r Response) {
	c.mu.Lock()
	if c.active != nil {
		c.mu.Unlock()
		return
	}
	a := &activeResponse{id: c.newID("resp"), cancel: make(chan struct{}), done: make(chan struct{})}
	c.active = a
	mods, _ := c.session["output_modalities"].([]any)
	voice := dig(c.session, "audio", "output", "voice")
	c.mu.Unlock()
	textOnly := len(mods) == 1 && mods[0] == "text"
	go c.respond(a, r, textOnly, voice)
}

func (c *conn) respond(a *activeResponse, r Response, textOnly bool, voice any) {
	defer close(a.done)
	began := time.Now()
	modalities := []any{"audio"}
	if textOnly {
		modalities = []any{"text"}
	}
	resp := map[string]any{
		"object": "realtime.response", "id": a.id, "status": "in_progress", "status_details": nil,
		"output": []any{}, "conversation_id": "conv_fake", "output_modalities": modalities,
		"max_output_tokens": "inf", "usage": nil, "metadata": nil,
		"audio": map[string]any{"output": map[string]any{
			"format": map[string]any{"type": "audio/pcm", "rate": SampleRate}, "voice": voice}},
	}
	c.send("response.created", map[string]any{"response": resp})
	var output []any
	cancelled := func() bool {
		select {
		case <-a.cancel:
			return true
		default:
			return false
		}
	}
	for _, call := range r.ToolCalls {
		if cancelled() {
			break
		}
		output = append(output, c.toolCall(a.id, len(output), call))
	}
	if (r.Text != "" || r.AudioMs > 0) && !cancelled() {
		output = append(output, c.reply(a, len(output), r, textOnly))
	}
	if hold := time.Duration(r.HoldMs)*time.Millisecond - time.Since(began); hold > 0 {
		select {
		case <-a.cancel:
		case <-time.After(hold):
		}
	}
	resp["output"] = output
	if output == nil {
		resp["output"] = []any{}
	}
	if cancelled() {
		resp["status"] = "cancelled"
		resp["status_details"] = map[string]any{"type": "cancelled", "reason": "client_cancelled"}
	} else {
		resp["status"] = "completed"
	}
	resp["usage"] = map[string]any{"total_tokens": 0, "input_tokens": 0, "output_tokens": 0,
		"input_token_details":  map[string]any{"text_tokens": 0, "audio_tokens": 0, "cached_tokens": 0},
		"output_token_details": map[string]any{"text_tokens": 0, "audio_tokens": 0}}
	c.mu.Lock()
	c.active = nil
	c.mu.Unlock()
	c.send("response.done", map[string]any{"response": resp})
	c.send("rate_limits.updated", map[string]any{"rate_limits": []any{
		map[string]any{"name": "requests", "limit": 5000, "remaining": 4999, "reset_seconds": 0.01},
		map[string]any{"name": "tokens", "limit": 400000, "remaining": 399000, "reset_seconds": 0.15},
	}})
}

// toolCall emits one function call item and returns it completed.
func (c *conn) toolCall(respID string, index int, call ToolCall) map[string]any {
	c.mu.Lock()
	itemID, callID := c.newID("item"), c.newID("call")
	if call.CallID != "" {
		callID = call.CallID
	}
	c.calls[callID] = true
	prev := c.lastItem()
	c.items = append(c.items, itemID)
	c.mu.Unlock()
	args := string(call.Arguments)
	item := map[string]any{"id": itemID, "object": "realtime.item", "type": "function_call",
		"status": "in_progress", "name": call.Name, "call_id": callID, "arguments": ""}
	c.send("response.output_item.added", map[string]any{"response_id": respID, "output_index": index, "item": item})
	c.send("conversation.item.added", map[string]any{"previous_item_id": prev, "item": item})
	c.send("response.function_call_arguments.delta", map[string]any{"response_id": respID, "item_id": itemID,
		"output_index": index, "call_id": callID, "delta": args})
	c.send("response.function_call_arguments.done", map[string]any{"response_id": respID, "item_id": itemID,
		"output_index": index, "call_id": callID, "name": call.Name, "arguments": args})
	done := map[string]any{"id": itemID, "object": "realtime.item", "type": "function_call",
		"status": "completed", "name": call.Name, "call_id": callID, "arguments": args}
	c.send("conversation.item.done", map[string]any{"previous_item_id": prev, "item": done})
	c.send("response.output_item.done", map[string]any{"response_id": respID, "output_index": index, "item": done})
	return done
}

// reply emits an assistant message: audio deltas with their transcript, or text.
func (c *conn) reply(a *activeResponse, index int, r Response, textOnly bool) map[string]any {
	c.mu.Lock()
	itemID := c.newID("item")
	prev := c.lastItem()
	c.items = append(c.items, itemID)
	c.mu.Unlock()
	item := map[string]any{"id": itemID, "object": "realtime.item", "type": "message",
		"status": "in_progress", "role": "assistant", "content": []any{}}
	at := func(m map[string]any) map[string]any {
		m["response_id"], m["item_id"], m["output_index"], m["content_index"] = a.id, itemID, index, 0
		return m
	}
	c.send("response.output_item.added", map[string]any{"response_id": a.id, "output_index": index, "item": item})
	c.send("conversation.item.added", map[string]any{"previous_item_id": prev, "item": item})
	var part map[string]any
	if textOnly {
		part = map[string]any{"type": "text", "text": r.Text}
		c.send("response.content_part.added", at(map[string]any{"part": map[string]any{"type": "text", "text": ""}}))
		c.send("response.output_text.delta", at(map[string]any{"delta": r.Text}))
		c.send("response.output_text.done", at(map[string]any{"text": r.Text}))
	} else {
		part = map[string]any{"type": "audio", "transcript": r.Text}
		c.send("response.content_part.added", at(map[string]any{"part": map[string]any{"type": "audio", "transcript": ""}}))
		c.send("response.output_audio_transcript.delta", at(map[string]any{"delta": r.Text}))
		for _, chunk := range toneChunks(r.AudioMs) {
			select {
			case <-a.cancel:
			default:
				c.send("response.output_audio.delta", at(map[string]any{"delta": base64.StdEncoding.EncodeToString(chunk)}))
			}
		}
		c.send("response.output_audio.done", at(map[string]any{}))
		c.send("response.output_audio_transcript.done", at(map[string]any{"transcript": r.Text}))
	}
	c.send("response.content_part.done", at(map[string]any{"part": part}))
	content := map[string]any{"type": "output_audio", "transcript": r.Text}
	if textOnly {
		content = map[string]any{"type": "output_text", "text": r.Text}
	}
	done := map[string]any{"id": itemID, "object": "realtime.item", "type": "message",
		"status": "completed", "role": "assistant", "content": []any{content}}
	c.send("conversation.item.done", map[string]any{"previous_item_id": prev, "item": done})
	c.send("response.output_item.done", map[string]any{"response_id": a.id, "output_index": index, "item": done})
	return done
}

// cancelResponse stops the active response (it ends with status cancelled).
func (c *conn) cancelResponse() bool {
	c.mu.Lock()
	a := c.active
	c.mu.Unlock()
	if a == nil {
		return false
	}
	select {
	case <-a.cancel:
	default:
		close(a.cancel)
	}
	return true
}

// stopResponse cancels and waits for the active response when the connection ends.
func (c *conn) stopResponse() {
	c.mu.Lock()
	a := c.active
	c.mu.Unlock()
	if a != nil {
		c.cancelResponse()
		<-a.done
	}
}
