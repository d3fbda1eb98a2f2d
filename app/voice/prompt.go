package voice

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Persona is the interviewer's instructions: the live-stream contract's default
// persona, changed only where it described a web page. Its [SCREEN CONTEXT] section
// comes last.
//
//go:embed prompt/persona.txt
var Persona string

// toolsJSON is the five interviewer tools, each parameter schema closed with
// additionalProperties: false.
//
//go:embed prompt/tools.json
var toolsJSON []byte

// Tools returns the interviewer tools as sent in session.update.
func Tools() []json.RawMessage {
	var tools []json.RawMessage
	if err := json.Unmarshal(toolsJSON, &tools); err != nil {
		panic("voice: prompt/tools.json: " + err.Error())
	}
	return tools
}

// SampleRate is the only audio rate on both sides: PCM16 mono 24 kHz.
const SampleRate = 24000

// sessionUpdate is the client's session.update event.
type sessionUpdate struct {
	Type    string        `json:"type"`
	Session sessionConfig `json:"session"`
}

type sessionConfig struct {
	Type             string            `json:"type"`
	OutputModalities []string          `json:"output_modalities"`
	Instructions     string            `json:"instructions,omitempty"`
	Tools            []json.RawMessage `json:"tools,omitempty"`
	ToolChoice       string            `json:"tool_choice,omitempty"`
	Audio            *audioConfig      `json:"audio,omitempty"`
}

type audioConfig struct {
	Input  audioInput  `json:"input"`
	Output audioOutput `json:"output"`
}

type audioFormat struct {
	Type string `json:"type"`
	Rate int    `json:"rate"`
}

type audioInput struct {
	Format        audioFormat   `json:"format"`
	Transcription transcription `json:"transcription"`
	TurnDetection turnDetection `json:"turn_detection"`
}

type transcription struct {
	Model string `json:"model"`
}

type turnDetection struct {
	Type              string `json:"type"`
	CreateResponse    bool   `json:"create_response"`
	InterruptResponse bool   `json:"interrupt_response"`
}

type audioOutput struct {
	Format audioFormat `json:"format"`
	Voice  string      `json:"voice"`
}

// Instructions is the persona with the project's brief appended as [SESSION BRIEF].
func Instructions(brief string) string {
	if brief == "" {
		return Persona
	}
	return Persona + "\n\n[SESSION BRIEF]\n" + brief
}

// SessionUpdate builds the session.update sent on every new connection.
func SessionUpdate(voiceName, brief string, spokenReplies bool) ([]byte, error) {
	pcm := audioFormat{Type: "audio/pcm", Rate: SampleRate}
	return json.Marshal(sessionUpdate{Type: "session.update", Session: sessionConfig{
		Type:             "realtime",
		OutputModalities: modalities(spokenReplies),
		Instructions:     Instructions(brief),
		Tools:            Tools(),
		ToolChoice:       "auto",
		Audio: &audioConfig{
			Input: audioInput{
				Format:        pcm,
				Transcription: transcription{Model: TranscriptionModel},
				TurnDetection: turnDetection{Type: "server_vad", CreateResponse: true, InterruptResponse: true},
			},
			Output: audioOutput{Format: pcm, Voice: voiceName},
		},
	}})
}

// ModalitiesUpdate switches spoken replies on or off mid-session.
func ModalitiesUpdate(spokenReplies bool) ([]byte, error) {
	return json.Marshal(sessionUpdate{Type: "session.update", Session: sessionConfig{
		Type: "realtime", OutputModalities: modalities(spokenReplies)}})
}

func modalities(spoken bool) []string {
	if spoken {
		return []string{"audio"}
	}
	return []string{"text"}
}

// MaxBriefChars is the longest brief the interviewer is given.
const MaxBriefChars = 3000

// BriefFile is the project's brief for the interviewer, under .fixthis/.
const BriefFile = "voice-brief.md"

// ErrBriefRefused wraps every reason a brief is not sent.
var ErrBriefRefused = errors.New("voice brief refused")

// secretShapes are what a brief must not contain: known key prefixes, KEY=/TOKEN=
// style assignments, private keys, bearer and signed tokens, URLs with credentials in
// them.
var secretShapes = []struct {
	what string
	re   *regexp.Regexp
}{
	{"an API key", regexp.MustCompile(`\b(sk-[A-Za-z0-9_-]{16,}|sk-proj-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})`)},
	{"a private key", regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`)},
	// An Authorization header's value, or a bearer token pasted on its own.
	{"a bearer token", regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/-]{12,}=*`)},
	{"a signed token (JWT)", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+`)},
	{"a secret assignment", regexp.MustCompile(`(?i)\b[a-z0-9_]*(api[_-]?key|token|secret|passw(or)?d)\s*[=:]\s*["']?[^\s"']{6,}`)},
	{"a URL with credentials", regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@`)},
	{"a URL with a credential parameter", regexp.MustCompile(`(?i)[?&](access_token|api_key|apikey|key|token|secret|password|sig|signature|x-amz-signature)=[^&\s]{6,}`)},
}

// CheckBrief refuses a brief that is too long or shaped like it carries a secret.
// The message names the line and the kind of secret, never the secret.
func CheckBrief(brief string) error {
	if n := len([]rune(brief)); n > MaxBriefChars {
		return fmt.Errorf("%w: .fixthis/%s has %d characters; the interviewer takes at most %d", ErrBriefRefused, BriefFile, n, MaxBriefChars)
	}
	for i, line := range strings.Split(brief, "\n") {
		for _, s := range secretShapes {
			if s.re.MatchString(line) {
				return fmt.Errorf("%w: line %d of .fixthis/%s looks like %s; remove it, the brief is sent to OpenAI", ErrBriefRefused, i+1, BriefFile, s.what)
			}
		}
	}
	return nil
}

// LoadBrief reads .fixthis/voice-brief.md under dataDir ("" and no error when there
// is none) and checks it.
func LoadBrief(dataDir string) (string, error) {
	raw, err := os.ReadFile(filepath.Join(dataDir, BriefFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read .fixthis/%s: %w", BriefFile, err)
	}
	brief := strings.TrimSpace(string(raw))
	if err := CheckBrief(brief); err != nil {
		return "", err
	}
	return brief, nil
}
