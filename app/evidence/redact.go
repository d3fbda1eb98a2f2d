package evidence

import (
	"net/netip"
	"regexp"
	"strings"
)

// Redacted replaces anything that looks private in collected output.
const Redacted = "[redacted]"

// The patterns run in this order: credentials first (so a token is not half
// eaten by the long-string rule and left with its prefix), then URL query
// strings, e-mail addresses, long secret-looking strings, and addresses.
var (
	// `Authorization: Bearer x`, `authorization=x`, `"Authorization":"x"`: the
	// value (one word, or a scheme and its credentials) goes.
	authValue = regexp.MustCompile(`(?i)(\bauthorization["']?[ \t]*[:=][ \t]*["']?)((?:bearer|basic|digest|token)[ \t]+[^\s"',;}]+|[^\s"',;}]+)`)
	// A bearer token anywhere else, e.g. in a curl line or an exception message.
	bearer = regexp.MustCompile(`(?i)(\bbearer[ \t]+)[A-Za-z0-9._~+/=-]{4,}`)
	// Everything after the `?` of a URL, up to whitespace, a quote or a fragment.
	urlQuery = regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.-]*://[^\s?#"'<>]*\?)[^\s#"'<>]+`)
	// Plain and URL-encoded (%40) addresses.
	email = regexp.MustCompile(`(?i)[a-z0-9._+-]+(?:@|%40)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b`)
	// 32 or more base64/base64url/hex characters in a row.
	longSecret = regexp.MustCompile(`[A-Za-z0-9+/_-]{32,}={0,2}`)
	// IPv6 candidates are checked with netip: a full eight groups, or a
	// compressed form with "::". Logcat's own times (08:00:00) have neither.
	ipv6 = regexp.MustCompile(`(?i)(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:%[a-z0-9]+)?`)
	ipv4 = regexp.MustCompile(`\b(?:\d{1,3}\.){3}\d{1,3}\b`)
)

// Redact returns text with private-looking values replaced by [redacted]. It
// works line by line and never adds or removes a line, so redacted logcat
// stays parseable.
func Redact(text string) string {
	text = authValue.ReplaceAllString(text, "${1}"+Redacted)
	text = bearer.ReplaceAllString(text, "${1}"+Redacted)
	text = urlQuery.ReplaceAllString(text, "${1}"+Redacted)
	text = email.ReplaceAllString(text, Redacted)
	text = longSecret.ReplaceAllStringFunc(text, func(s string) string {
		if looksSecret(s) {
			return Redacted
		}
		return s
	})
	text = replaceIPv6(text)
	return ipv4.ReplaceAllStringFunc(text, func(s string) string {
		if a, err := netip.ParseAddr(s); err == nil && a.Is4() {
			return Redacted
		}
		return s
	})
}

// looksSecret keeps long words that are plainly not secrets: identifiers made
// of letters only (CamelCase class names) and the redaction marker's
// neighbours. A secret mixes digits and letters.
func looksSecret(s string) bool {
	var digit, letter bool
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			letter = true
		}
	}
	return digit && letter || digit && len(strings.Trim(s, "0123456789")) == 0
}

// replaceIPv6 redacts IPv6 addresses that stand alone: a candidate glued to a
// word (Trail::distance, android::add) is code, not an address.
func replaceIPv6(text string) string {
	var b strings.Builder
	last := 0
	for _, m := range ipv6.FindAllStringIndex(text, -1) {
		i, j := m[0], m[1]
		if i > 0 && isWordByte(text[i-1]) || j < len(text) && isWordByte(text[j]) || !isIPv6(text[i:j]) {
			continue
		}
		b.WriteString(text[last:i])
		b.WriteString(Redacted)
		last = j
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

func isWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIPv6(s string) bool {
	if strings.Count(s, ":") < 7 && !strings.Contains(s, "::") {
		return false
	}
	host, _, _ := strings.Cut(s, "%")
	if strings.Trim(host, ":") == "" {
		return false // "::" alone is how Kotlin and C++ write member references
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Is6()
}
