package voice

import (
	"errors"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// KeySource says where the key came from.
type KeySource string

// Where a key can come from ("" when there is none).
const (
	KeyFromEnv      KeySource = "env"
	KeyFromKeychain KeySource = "keychain"
	KeyNone         KeySource = ""
)

// KeySources lists every source, for the generated console types.
var KeySources = []KeySource{KeyFromEnv, KeyFromKeychain, KeyNone}

// Keychain keeps the key the user entered in the OS keychain (Secret Service on
// Linux, Keychain on macOS, Credential Manager on Windows).
type Keychain interface {
	Get() (string, error) // ErrNoKey when none is stored
	Set(key string) error
	Delete() error
}

// ErrNoKey says the keychain holds no key.
var ErrNoKey = errors.New("no key stored")

// keychainService and keychainUser name the keychain entry.
const (
	keychainService = "FixThis"
	keychainUser    = "openai-api-key"
)

// SystemKeychain is the OS keychain through go-keyring.
type SystemKeychain struct{}

// keychainTimeout bounds a keychain call: a Secret Service that waits for an unlock
// prompt nobody answers must not hang the console API.
const keychainTimeout = 3 * time.Second

// withTimeout runs a keychain call with keychainTimeout.
func withTimeout[T any](f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-time.After(keychainTimeout):
		var zero T
		return zero, errors.New("the keychain did not answer within 3 s (is it locked?)")
	}
}

// Get reads the stored key.
func (SystemKeychain) Get() (string, error) {
	k, err := withTimeout(func() (string, error) { return keyring.Get(keychainService, keychainUser) })
	if errors.Is(err, keyring.ErrNotFound) {
		return "", ErrNoKey
	}
	return k, err
}

// Set stores the key.
func (SystemKeychain) Set(key string) error {
	_, err := withTimeout(func() (struct{}, error) { return struct{}{}, keyring.Set(keychainService, keychainUser, key) })
	return err
}

// Delete removes the key; removing none is not an error.
func (SystemKeychain) Delete() error {
	_, err := withTimeout(func() (struct{}, error) { return struct{}{}, keyring.Delete(keychainService, keychainUser) })
	if errors.Is(err, keyring.ErrNotFound) {
		return nil
	}
	return err
}

// Available says whether the keychain answers at all.
func (k Keys) Available() bool {
	if k.Keychain == nil {
		return false
	}
	_, err := k.Keychain.Get()
	return err == nil || errors.Is(err, ErrNoKey)
}

// Keys finds the key: OPENAI_API_KEY from the environment, else the keychain.
type Keys struct {
	Getenv   func(string) string
	Keychain Keychain // nil: no keychain on this system
}

// Lookup returns the key and where it came from. keychainErr is set when the
// keychain could not be asked (no Secret Service running, access refused).
func (k Keys) Lookup() (key string, src KeySource, keychainErr error) {
	if k.Getenv != nil {
		if v := strings.TrimSpace(k.Getenv("OPENAI_API_KEY")); v != "" {
			return v, KeyFromEnv, nil
		}
	}
	if k.Keychain == nil {
		return "", KeyNone, errors.New("no keychain on this system")
	}
	v, err := k.Keychain.Get()
	switch {
	case errors.Is(err, ErrNoKey):
		return "", KeyNone, nil
	case err != nil:
		return "", KeyNone, err
	}
	return strings.TrimSpace(v), KeyFromKeychain, nil
}

// ValidKeyShape checks what a user pasted before it is stored: one line of printable
// ASCII without spaces, of a plausible length. It says nothing of whether OpenAI
// accepts it.
func ValidKeyShape(key string) error {
	if len(key) < 20 || len(key) > 512 {
		return errors.New("the key must be 20 to 512 characters long")
	}
	for _, r := range key {
		if r <= ' ' || r > '~' {
			return errors.New("the key must be one line of printable characters without spaces")
		}
	}
	return nil
}
