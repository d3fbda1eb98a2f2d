// Package voice is the interviewer the user talks to while pointing at the phone:
// one OpenAI Realtime WebSocket per voice session, held by the Go process so the
// key never reaches a page. It sends the persona and the five interviewer tools,
// forwards the console's microphone audio, announces what the user clicks as
// [PAGE] notes with anchor ids, answers look_at_screen with the phone's screen, and
// reports transcripts, speech edges, reply audio and errors through a Sink.
package voice

import (
	"fmt"
	"net/url"
	"strings"
)

// Defaults for the upstream endpoint, overridden by the environment.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	DefaultModel   = "gpt-realtime"
	DefaultVoice   = "marin"
	// TranscriptionModel transcribes the user's speech for the transcript.
	TranscriptionModel = "gpt-4o-mini-transcribe"
)

// Config is where and how to reach the interviewer.
type Config struct {
	BaseURL string // OPENAI_BASE_URL
	Model   string // OPENAI_REALTIME_MODEL
	Voice   string // OPENAI_REALTIME_VOICE
}

// ConfigFromEnv reads OPENAI_BASE_URL, OPENAI_REALTIME_MODEL and OPENAI_REALTIME_VOICE.
func ConfigFromEnv(getenv func(string) string) Config {
	c := Config{BaseURL: getenv("OPENAI_BASE_URL"), Model: getenv("OPENAI_REALTIME_MODEL"), Voice: getenv("OPENAI_REALTIME_VOICE")}
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
	if c.Model == "" {
		c.Model = DefaultModel
	}
	if c.Voice == "" {
		c.Voice = DefaultVoice
	}
	return c
}

// RealtimeURL is the WebSocket URL: {base}/realtime?model=…, http(s) turned into ws(s).
func (c Config) RealtimeURL() (string, error) {
	u, err := url.Parse(strings.TrimRight(c.BaseURL, "/") + "/realtime")
	if err != nil {
		return "", fmt.Errorf("OPENAI_BASE_URL %q: %w", c.BaseURL, err)
	}
	switch u.Scheme {
	case "https", "wss":
		u.Scheme = "wss"
	case "http", "ws":
		u.Scheme = "ws"
	default:
		return "", fmt.Errorf("OPENAI_BASE_URL %q: the scheme must be http or https", c.BaseURL)
	}
	if u.User != nil {
		return "", fmt.Errorf("OPENAI_BASE_URL must not carry credentials")
	}
	u.RawQuery = url.Values{"model": {c.Model}}.Encode()
	return u.String(), nil
}

// Host is the upstream's host, for messages (never the key, never the query).
func (c Config) Host() string {
	if u, err := url.Parse(c.BaseURL); err == nil && u.Host != "" {
		return u.Host
	}
	return "the interviewer's server"
}
