package voice

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/voice/realtime"

	"github.com/gorilla/websocket"
)

// Options configure a Manager.
type Options struct {
	Config Config
	Keys   Keys
	Sink   Sink
	Screen Screen
	// Units turns the unit tools into items (nil: every unit call is refused
	// with reason "no_store").
	Units Units
	// Silence is smart mode's silence checkpoint (0: 4 s).
	Silence time.Duration
	Log     *slog.Logger
	DataDir string // the project's .fixthis, where voice-brief.md lives
	// Dialer dials the Realtime WebSocket (nil: the default, through the proxy
	// the environment names).
	Dialer *websocket.Dialer
}

// Manager holds the project's one voice session.
type Manager struct {
	opts Options

	mu       sync.Mutex
	active   *Interviewer
	starting string // the holder of a start in progress
}

// NewManager returns a manager with no session.
func NewManager(opts Options) *Manager {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Dialer == nil {
		d := *websocket.DefaultDialer
		d.HandshakeTimeout = realtime.HandshakeTimeout
		opts.Dialer = &d
	}
	return &Manager{opts: opts}
}

// Status is GET /api/voice: whether a key is set and where from, never the key.
func (m *Manager) Status() Status {
	key, src, _ := m.opts.Keys.Lookup()
	st := Status{
		KeySet: key != "", KeySource: src, KeychainAvailable: m.opts.Keys.Available(),
		Model: m.opts.Config.Model, Voice: m.opts.Config.Voice,
	}
	if iv := m.Active(); iv != nil {
		doc := iv.Doc()
		st.Active = &doc
	}
	return st
}

// Active is the running session, nil when there is none.
func (m *Manager) Active() *Interviewer {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.active
}

// StartRequest is what POST /api/voice/sessions asks for.
type StartRequest struct {
	SessionID     string
	Serial        string
	SpokenReplies bool
	Holder        string
	Mode          Mode // "" is smart
}

// maxHolder is the most characters of a holder's name.
const maxHolder = 80

// Start connects a new session. Nothing half-starts: without a key, with a refused
// brief, with another console holding a session, or when upstream refuses, no
// session is left behind. The session is active (Status shows it, Get finds it,
// Stop cancels it) from the moment it starts connecting; Start answers once it is
// live, or after startWait with it still connecting.
func (m *Manager) Start(req StartRequest) (*Interviewer, error) {
	if err := checkText("holder", req.Holder, maxHolder, false); err != nil {
		return nil, err
	}
	m.mu.Lock()
	if m.active != nil || m.starting != "" {
		holder := m.starting
		if m.active != nil {
			holder = m.active.Doc().Holder
		}
		m.mu.Unlock()
		return nil, errcode.New(errcode.VoiceBusy, "%s is already talking with the interviewer in this project; stop Talk there first", holder)
	}
	m.starting = req.Holder
	m.mu.Unlock()
	iv, err := m.prepare(req)
	m.mu.Lock()
	m.starting = ""
	if err == nil {
		m.active = iv
	}
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := iv.start(startWait); err != nil {
		m.ended(iv)
		return nil, err
	}
	return iv, nil
}

// prepare checks what a start needs and makes the session, not yet connecting.
func (m *Manager) prepare(req StartRequest) (*Interviewer, error) {
	key, _, kerr := m.opts.Keys.Lookup()
	if key == "" {
		msg := "no OpenAI API key: set OPENAI_API_KEY before starting FixThis, or add a key in the voice settings (it is kept in the OS keychain)"
		if kerr != nil {
			msg += "; the keychain could not be read: " + kerr.Error()
		}
		return nil, errcode.New(errcode.VoiceNoKey, "%s", msg)
	}
	brief, err := LoadBrief(m.opts.DataDir)
	if err != nil {
		if errors.Is(err, ErrBriefRefused) {
			return nil, errcode.Wrap(errcode.VoiceBriefRefused, err, "%s", err.Error()[len(ErrBriefRefused.Error())+2:])
		}
		return nil, errcode.Wrap(errcode.Internal, err, "%v", err)
	}
	mode := req.Mode
	if mode == "" {
		mode = ModeSmart
	}
	if !slices.Contains(Modes, mode) {
		return nil, errcode.New(errcode.InvalidInput, "mode must be instant, smart or collect, not %s", errcode.Quote(string(mode)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	iv := &Interviewer{
		sink: m.opts.Sink, screen: m.opts.Screen, log: m.opts.Log, ended: m.ended, units: m.opts.Units,
		ctx: ctx, cancel: cancel,
		unitq: make(chan realtime.Event, 64), silence: m.opts.Silence, started: make(chan struct{}),
		doc: Session{VoiceSessionID: newID(), SessionID: req.SessionID, Serial: req.Serial,
			SpokenReplies: req.SpokenReplies, Mode: mode, StartedAt: time.Now().UTC(), Holder: req.Holder},
	}
	iv.unitSt.init()
	iv.touched = time.Now()
	if err := iv.newConn(m.opts.Config, key, brief, m.opts.Dialer); err != nil {
		cancel()
		return nil, err
	}
	return iv, nil
}

func (m *Manager) ended(iv *Interviewer) {
	m.mu.Lock()
	if m.active == iv {
		m.active = nil
	}
	m.mu.Unlock()
}

// Get finds the running session by id.
func (m *Manager) Get(id string) (*Interviewer, error) {
	if iv := m.Active(); iv != nil && iv.ID() == id {
		return iv, nil
	}
	return nil, errcode.New(errcode.VoiceNotFound, "no running voice session %s", errcode.Quote(id))
}

// StopAll ends the running session (the app is shutting down).
func (m *Manager) StopAll() {
	if iv := m.Active(); iv != nil {
		iv.Stop()
	}
}

// SetKey stores a key in the keychain.
func (m *Manager) SetKey(key string) error {
	if m.opts.Keys.Keychain == nil {
		return errcode.New(errcode.VoiceKeychain, "this system has no keychain FixThis can use; set OPENAI_API_KEY instead")
	}
	if err := ValidKeyShape(key); err != nil {
		return errcode.New(errcode.InvalidInput, "%v", err)
	}
	if err := m.opts.Keys.Keychain.Set(key); err != nil {
		return errcode.New(errcode.VoiceKeychain, "the keychain refused to store the key (%v); set OPENAI_API_KEY instead", err)
	}
	return nil
}

// DeleteKey removes the stored key.
func (m *Manager) DeleteKey() error {
	if m.opts.Keys.Keychain == nil {
		return errcode.New(errcode.VoiceKeychain, "this system has no keychain FixThis can use")
	}
	if err := m.opts.Keys.Keychain.Delete(); err != nil {
		return errcode.New(errcode.VoiceKeychain, "the keychain refused to remove the key: %v", err)
	}
	return nil
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "v" + hex.EncodeToString(b[:])
}
