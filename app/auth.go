package app

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"

	"fixthis/app/errcode"
	"fixthis/app/httpapi"
	"fixthis/internal/loopback"
)

// ConsoleTokenHeader carries the per-launch console token in serve mode.
const ConsoleTokenHeader = "X-FixThis-Console-Token"

// newToken returns 32 random bytes as hex: unguessable, URL-safe, printable.
func newToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}

// tokensEqual compares in constant time so the token cannot be guessed byte by byte.
func tokensEqual(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

func isMutating(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// consoleGuard protects the console API in serve mode: a loopback Host (against DNS
// rebinding), the console's own Origin on mutations (against cross-site requests), the
// console token on everything, and never the MCP token (each surface has its own).
//
// The console token travels only in X-FixThis-Console-Token, or as ?consoleToken= on
// the event stream's GET (EventSource cannot send headers). It is never accepted as
// Authorization: Bearer, so it cannot be confused with the MCP token's scheme.
type consoleGuard struct {
	token    string
	mcpToken string
	// ownOrigins lists the origins the console page itself is served from.
	ownOrigins func() []string
}

func (g consoleGuard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopback.Host(r.Host) {
			httpapi.WriteError(w, errcode.New(errcode.ForbiddenHost, "the console API answers only on a loopback host name"))
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && isMutating(r.Method) && !g.originAllowed(origin) {
			httpapi.WriteError(w, errcode.New(errcode.ForbiddenOrigin, "requests from %s may not change FixThis state", origin))
			return
		}
		got := r.Header.Get(ConsoleTokenHeader)
		if got == "" && r.Method == http.MethodGet && r.URL.Path == "/api/events" {
			got = r.URL.Query().Get("consoleToken")
		}
		bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if tokensEqual(got, g.mcpToken) || tokensEqual(bearer, g.mcpToken) {
			httpapi.WriteError(w, errcode.New(errcode.WrongToken, "the MCP token is not valid on the console API"))
			return
		}
		if !tokensEqual(got, g.token) {
			httpapi.WriteError(w, errcode.New(errcode.Unauthorized, "missing or wrong console token; open the URL that fixthis printed"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (g consoleGuard) originAllowed(origin string) bool {
	for _, own := range g.ownOrigins() {
		if strings.EqualFold(origin, own) {
			return true
		}
	}
	return false
}
