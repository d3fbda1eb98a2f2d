package realtimefake

import (
	"fmt"
	"strings"
)

// sessionKeys are the fields a GA session.update may carry.
var sessionKeys = map[string]bool{
	"type": true, "model": true, "output_modalities": true, "instructions": true, "tools": true,
	"tool_choice": true, "max_output_tokens": true, "tracing": true, "prompt": true, "audio": true,
	"include": true, "truncation": true,
}

// sessionUpdate checks and merges a session.update, answering session.updated with
// the whole session, or an error naming the offending parameter.
func (c *conn) sessionUpdate(ev map[string]any, clientID string) {
	upd, ok := ev["session"].(map[string]any)
	if !ok {
		c.sendError("invalid_request_error", "missing_required_parameter", "Missing required parameter: 'session'.", clientID)
		return
	}
	if upd["type"] != "realtime" {
		c.sendError("invalid_request_error", "missing_required_parameter", "Missing required parameter: 'session.type'.", clientID)
		return
	}
	for k := range upd {
		if !sessionKeys[k] {
			c.sendError("invalid_request_error", "unknown_parameter", fmt.Sprintf("Unknown parameter: 'session.%s'.", k), clientID)
			return
		}
	}
	if msg := checkTools(upd["tools"]); msg != "" {
		c.sendError("invalid_request_error", "invalid_value", msg, clientID)
		return
	}
	if td, ok := dig(upd, "audio", "input", "turn_detection").(map[string]any); ok {
		if t := td["type"]; t != "server_vad" && t != "semantic_vad" {
			c.sendError("invalid_request_error", "invalid_value",
				"Invalid value: 'session.audio.input.turn_detection.type'. Supported values are: 'server_vad' and 'semantic_vad'.", clientID)
			return
		}
		// The real server fills in the mode's defaults.
		for k, v := range map[string]any{"create_response": true, "interrupt_response": true,
			"prefix_padding_ms": float64(300), "silence_duration_ms": float64(500)} {
			if _, set := td[k]; !set {
				td[k] = v
			}
		}
	}
	c.mu.Lock()
	merge(c.session, upd)
	sess := c.session
	c.mu.Unlock()
	c.send("session.updated", map[string]any{"session": sess})
}

// checkTools validates function tools the way the API does: type, name, parameters.
func checkTools(v any) string {
	if v == nil {
		return ""
	}
	tools, ok := v.([]any)
	if !ok {
		return "Invalid type for 'session.tools': expected an array."
	}
	for i, t := range tools {
		tool, ok := t.(map[string]any)
		if !ok || tool["type"] != "function" {
			return fmt.Sprintf("Invalid value: 'session.tools[%d].type'. Supported values are: 'function' and 'mcp'.", i)
		}
		if name, _ := tool["name"].(string); name == "" {
			return fmt.Sprintf("Missing required parameter: 'session.tools[%d].name'.", i)
		}
		if p, ok := tool["parameters"].(map[string]any); !ok || p["type"] != "object" {
			return fmt.Sprintf("Invalid schema for function '%v': schema must be a JSON Schema of 'type: \"object\"'.", tool["name"])
		}
	}
	return ""
}

// merge copies src into dst, recursing into objects present in both.
func merge(dst, src map[string]any) {
	for k, v := range src {
		sub, okS := v.(map[string]any)
		cur, okD := dst[k].(map[string]any)
		if okS && okD {
			merge(cur, sub)
			continue
		}
		dst[k] = v
	}
}

// allowedParts lists the content part types each role may carry.
var allowedParts = map[string][]string{
	"system":    {"input_text"},
	"user":      {"input_text", "input_audio", "input_image"},
	"assistant": {"output_text", "output_audio"},
}

// itemCreate checks and adds a conversation item, answering conversation.item.added
// and conversation.item.done, or an error.
func (c *conn) itemCreate(ev map[string]any, clientID string) {
	item, ok := ev["item"].(map[string]any)
	if !ok {
		c.sendError("invalid_request_error", "missing_required_parameter", "Missing required parameter: 'item'.", clientID)
		return
	}
	if msg := c.checkItem(item); msg != "" {
		c.sendError("invalid_request_error", "invalid_value", msg, clientID)
		return
	}
	c.mu.Lock()
	if id, _ := item["id"].(string); id == "" {
		item["id"] = c.newID("item")
	}
	item["object"] = "realtime.item"
	if _, ok := item["status"]; !ok {
		item["status"] = "completed"
	}
	prev := c.lastItem()
	c.items = append(c.items, item["id"].(string))
	c.mu.Unlock()
	if text := systemText(item); text != "" {
		if n, ok := c.srv.noteFor(text); ok {
			c.mu.Lock()
			c.pending = append([]Response(nil), n.Responses...)
			c.mu.Unlock()
		}
	}
	c.send("conversation.item.added", map[string]any{"previous_item_id": prev, "item": item})
	c.send("conversation.item.done", map[string]any{"previous_item_id": prev, "item": item})
}

// systemText is the text of a system message item ("" for anything else).
func systemText(item map[string]any) string {
	if item["type"] != "message" || item["role"] != "system" {
		return ""
	}
	parts, _ := item["content"].([]any)
	for _, p := range parts {
		if part, _ := p.(map[string]any); part["type"] == "input_text" {
			text, _ := part["text"].(string)
			return text
		}
	}
	return ""
}

func (c *conn) checkItem(item map[string]any) string {
	switch item["type"] {
	case "message":
		role, _ := item["role"].(string)
		allowed, ok := allowedParts[role]
		if !ok {
			return "Invalid value: 'item.role'. Supported values are: 'system', 'user', and 'assistant'."
		}
		parts, _ := item["content"].([]any)
		if len(parts) == 0 {
			return "Missing required parameter: 'item.content'."
		}
		for i, p := range parts {
			part, _ := p.(map[string]any)
			typ, _ := part["type"].(string)
			if !contains(allowed, typ) {
				return fmt.Sprintf("Invalid value: 'item.content[%d].type' %q is not allowed on a %s message.", i, typ, role)
			}
			switch typ {
			case "input_text", "output_text":
				if _, ok := part["text"].(string); !ok {
					return fmt.Sprintf("Missing required parameter: 'item.content[%d].text'.", i)
				}
			case "input_image":
				url, _ := part["image_url"].(string)
				if !strings.HasPrefix(url, "data:image/") || !strings.Contains(url, ";base64,") {
					return fmt.Sprintf("Invalid 'item.content[%d].image_url': expected a base64 data URL of an image.", i)
				}
			}
		}
	case "function_call_output":
		callID, _ := item["call_id"].(string)
		if callID == "" {
			return "Missing required parameter: 'item.call_id'."
		}
		if _, ok := item["output"].(string); !ok {
			return "Missing required parameter: 'item.output'."
		}
		c.mu.Lock()
		known := c.calls[callID]
		c.mu.Unlock()
		if !known {
			return fmt.Sprintf("Invalid value: 'item.call_id'. No function call with call_id '%s' was found in the conversation.", callID)
		}
	case "function_call":
		// Clients may replay a call; accepted as is.
	default:
		return "Invalid value: 'item.type'. Supported values are: 'message', 'function_call', and 'function_call_output'."
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
