package evidence

import (
	"encoding/base64"
	"net/netip"
	"regexp"
	"strings"
	"unicode/utf8"
)

// keyShapes are credentials recognisable by their own shape, wherever they
// appear: the formats their issuers document.
var keyShapes = regexp.MustCompile(`\b(?:` +
	// AWS access key ids: long-term (AKIA), temporary (ASIA) and the other
	// IAM unique-id prefixes, 4 letters and 16 upper-case letters or digits.
	`(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|A3T[A-Z0-9])[A-Z0-9]{16}` +
	// GitHub: classic and OAuth/app/refresh tokens, fine-grained PATs.
	`|gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255}` +
	// GitLab personal, deploy and runner tokens.
	`|gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}` +
	// Stripe secret, restricted and publishable keys; webhook secrets.
	`|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{20,}` +
	// Slack tokens (bot, user, app, refresh, config).
	`|xox[abposr]-[A-Za-z0-9-]{10,}|xapp-[A-Za-z0-9-]{10,}` +
	// Google API keys and OAuth access tokens.
	`|AIza[A-Za-z0-9_-]{35}|ya29\.[A-Za-z0-9_-]{20,}` +
	// OpenAI and Anthropic keys (project, service account, admin, legacy).
	`|sk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{20,}` +
	// SendGrid, npm, PyPI, Twilio API key SIDs, Mailgun.
	`|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}|npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|SK[0-9a-f]{32}|key-[0-9a-zA-Z]{32}` +
	// JWTs (and JWS/JWE): base64url JSON headers start "eyJ"; three segments.
	`|eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*` +
	`)`)

// Webhook URLs whose path is the credential.
var secretURL = regexp.MustCompile(`(?i)(\bhttps://(?:hooks\.slack\.com/services|discord(?:app)?\.com/api/webhooks)/)[^\s"'<>]+`)

// secretKey is a key whose value is a secret: the key ends with one of these
// words (case-insensitive), so `db_password`, `X-Auth-Token`, `accessToken`,
// `JSESSIONID` and `aws_secret_access_key` count and `tokenizer`,
// `passwordField` and `authority` do not.
const secretWords = `pass(?:word|wd|phrase)?|pwd|pw|secret|secrets|token|api[_-]?key|access[_-]?key(?:[_-]?id)?|secret[_-]?key|private[_-]?key|` +
	`auth|authorization|credentials?|session|session[_-]?id|sess(?:ion)?[_-]?token|sid|cookie|signature|otp|pin[_-]?code|client[_-]?secret|` +
	`passcode|pin|cvv2?|cvc2?|card[_-]?(?:number|num|no)`

// secretStems are what every one of secretWords contains; a text with none
// of them has no secret key.
var secretStems = []string{"pass", "pw", "secret", "token", "key", "auth", "credential", "session", "sid", "cookie", "signature", "otp", "pin", "cvv", "cvc", "card"}

// keyValue finds `key=value`, `key: value`, `"key": "value"` and `'key'='value'`
// where the key is secret-shaped. Group 1 is what precedes the key, 2 the key,
// 3 the separator (closing quote included); the value is read by valueEnd.
// An unquoted key takes ':' only right after it: "Tag : x" is how logcat
// pads a tag, not a pair.
var keyValue = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_.-])([A-Za-z0-9_.-]*?(?:` + secretWords + `))` + separator)

const separator = `((?:\\?["'][ \t]*[:=]|[ \t]*=|:)[ \t]*)`

// A preference or setting logged as a name and a value
// (`{key=cryptPassword,default=}, value=hunter2`): after a secret-shaped
// name, the value of a `value` key is a secret too.
var (
	namedSecret = regexp.MustCompile(`(?i)\b(?:key|name|pref(?:erence)?)["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9_.-]*?(?:` + secretWords + `)(?:[^A-Za-z0-9_.-]|$)`)
	valueKey    = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_.-])(value)` + separator)
)

// xmlSecret is an XML element named like a secret: `<password>x</password>`.
var xmlSecret = regexp.MustCompile(`(?i)(<[A-Za-z0-9_:.-]*?(?:` + secretWords + `)>)([^<]+)`)

// cookieHeader is a Cookie or Set-Cookie header (or a "cookie(s):" label):
// the rest of the line is cookies.
var cookieHeader = regexp.MustCompile(`(?i)(\b(?:set-)?cookies?2?[ \t]*:[ \t]*)(\S.*)$`)

// bearer is a Bearer credential anywhere; basic is a Basic one, checked by
// decoding it.
var (
	bearer = regexp.MustCompile(`(?i)(\bbearer[ \t]+)([A-Za-z0-9._~+/=-]{6,})`)
	basic  = regexp.MustCompile(`(?i)(\bbasic[ \t]+)([A-Za-z0-9+/]{6,}={0,2})`)
)

var (
	// `scheme://user:password@host`: the user info goes.
	urlUserinfo = regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.-]*://)([^\s/?#@"'<>]+)@`)
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

// redactMessage runs the rules on one message. Shaped credentials go first,
// so a key is not half eaten by a later rule and left with its prefix.
func redactMessage(s string) string {
	if s == "" {
		return s
	}
	if mayHoldKeyShape(s) {
		s = keyShapes.ReplaceAllString(s, Redacted)
	}
	// Each rule below needs a word a line seldom has; checking for it first
	// saves the regexps' time on the long logs a collector reads. Text with
	// any non-ASCII byte runs every rule, since case folding (K, ſ) is wider
	// than strings.ToLower.
	lower, exotic := strings.ToLower(s), !isASCII(s)
	has := func(words ...string) bool {
		if exotic {
			return true
		}
		for _, w := range words {
			if strings.Contains(lower, w) {
				return true
			}
		}
		return false
	}
	if has("://") {
		s = secretURL.ReplaceAllString(s, "${1}"+Redacted)
		s = urlUserinfo.ReplaceAllString(s, "${1}"+Redacted+"@")
		s = urlQuery.ReplaceAllString(s, "${1}"+Redacted)
	}
	if has("cookie") {
		s = cookieHeader.ReplaceAllString(s, "${1}"+Redacted)
	}
	if has(secretStems...) {
		s = xmlSecret.ReplaceAllString(s, "${1}"+Redacted)
		s = redactKeyValues(s, keyValue)
		if loc := namedSecret.FindStringIndex(s); loc != nil {
			s = s[:loc[1]] + redactKeyValues(s[loc[1]:], valueKey)
		}
	}
	if has("bearer") {
		s = bearer.ReplaceAllString(s, "${1}"+Redacted)
	}
	if has("basic") {
		s = basic.ReplaceAllStringFunc(s, func(m string) string {
			sub := basic.FindStringSubmatch(m)
			if isBasicCredential(sub[2]) {
				return sub[1] + Redacted
			}
			return m
		})
	}
	if digitRun(s) >= 13 {
		s = redactCardNumbers(s)
	}
	if strings.IndexByte(s, '@') >= 0 || strings.Contains(s, "%40") {
		s = email.ReplaceAllString(s, Redacted)
	}
	if longestRun(s) >= 32 {
		s = redactLongSecrets(s)
	}
	if strings.Contains(s, "::") || strings.Count(s, ":") >= 7 {
		s = replaceIPv6(s)
	}
	if strings.Count(s, ".") < 3 {
		return s
	}
	return ipv4.ReplaceAllStringFunc(s, func(m string) string {
		if a, err := netip.ParseAddr(m); err == nil && a.Is4() {
			return Redacted
		}
		return m
	})
}

// keyShapePrefixes are the literal starts of keyShapes' alternatives: a text
// without any of them cannot hold a shaped key, and most log lines have none,
// so the large alternation (most of redaction's time) is skipped for them.
var keyShapePrefixes = []string{"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "A3T",
	"gh", "github_pat_", "gl", "_live_", "_test_", "whsec_", "xox", "xapp-", "AIza", "ya29.", "sk-", "SG.", "npm_", "pypi-",
	"SK", "key-", "eyJ"}

func mayHoldKeyShape(s string) bool {
	for _, p := range keyShapePrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// longestRun is the longest run of longSecret's characters in s: under 32,
// no long secret can be there.
func longestRun(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-' {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// redactKeyValues replaces the value of every key re finds.
func redactKeyValues(s string, re *regexp.Regexp) string {
	out := splicer{s: s}
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		start := m[7] // just after the separator
		if start < out.last {
			continue
		}
		key := strings.ToLower(s[m[4]:m[5]])
		vs, ve := valueSpan(s, start, strings.HasSuffix(key, "auth") || strings.HasSuffix(key, "authorization"))
		if ve <= vs || s[vs:ve] == Redacted {
			continue
		}
		out.replace(vs, ve, Redacted)
	}
	return out.String()
}

// authSchemes are the HTTP authentication schemes whose name is kept in front
// of a redacted credential: `Authorization: Bearer [REDACTED]`.
var authSchemes = []string{"bearer", "basic", "digest", "token", "negotiate", "ntlm", "hmac", "aws4-hmac-sha256", "apikey", "key"}

// valueSpan finds the value that starts at i: a quoted string up to its
// closing quote (escaped quotes included), or one word. For an authorization
// key a leading scheme name is kept and the credential after it is the value.
func valueSpan(s string, i int, auth bool) (int, int) {
	if i >= len(s) {
		return i, i
	}
	quote := ""
	switch {
	case s[i] == '"' || s[i] == '\'':
		quote = s[i : i+1]
	case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\''):
		quote = s[i : i+2]
	}
	if quote != "" {
		vs := i + len(quote)
		if auth {
			vs = skipScheme(s, vs)
		}
		for j := vs; j < len(s); j++ {
			if s[j] == '\\' && quote == `"` || s[j] == '\\' && quote == `'` {
				j++
				continue
			}
			if strings.HasPrefix(s[j:], quote) {
				return vs, j
			}
		}
		return vs, len(s)
	}
	vs := i
	if auth {
		vs = skipScheme(s, vs)
	}
	if strings.HasPrefix(s[vs:], Redacted) {
		return vs, vs + len(Redacted)
	}
	j := vs
	for j < len(s) && !endsWord(s, j) {
		j++
	}
	return vs, j
}

// endsWord reports whether an unquoted value ends at s[i]. Blanks, quotes,
// angle brackets and backslashes always end it; a separator (`&`, `,`, `;`)
// or a closing bracket ends it only where the text goes on with the next
// pair, a blank, more punctuation or the end, so `Tr0ub4dor&3` stays whole
// while `a&b=c`, `(password=x)` and `{token=x, id=3}` split as they read.
func endsWord(s string, i int) bool {
	switch s[i] {
	case ' ', '\t', '\r', '\n', '"', '\'', '<', '>', '\\':
		return true
	case '&', ',', ';', ')', '}', ']':
		rest := s[i+1:]
		if rest == "" || strings.ContainsRune(" \t\r\n&,;)}]\"'", rune(rest[0])) {
			return true
		}
		return nextPair.MatchString(rest)
	}
	return false
}

// nextPair is the start of another `key=` or `key:` pair.
var nextPair = regexp.MustCompile(`^[A-Za-z0-9_.-]+[ \t]*[=:]`)

// skipScheme skips an authentication scheme and the blanks after it.
func skipScheme(s string, i int) int {
	for _, sc := range authSchemes {
		n := len(sc)
		if len(s) >= i+n+1 && strings.EqualFold(s[i:i+n], sc) && (s[i+n] == ' ' || s[i+n] == '\t') {
			j := i + n
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			return j
		}
	}
	return i
}

// isBasicCredential reports whether s is base64 of "user:password": "basic"
// is also an English word, and only a decodable credential after it goes.
func isBasicCredential(s string) bool {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return utf8.Valid(b) && strings.IndexByte(string(b), ':') > 0
		}
	}
	return false
}

// redactLongSecrets redacts long secret-looking runs. Inside a URL a run is
// judged a path segment at a time: `/` is a base64 character, but in
// `host/v4/audiobooks/83380/playlists` it separates words that are each
// plain, and the path is what tells a reader which call it was.
func redactLongSecrets(s string) string {
	locs := longSecret.FindAllStringIndex(s, -1)
	if locs == nil {
		return s
	}
	out := splicer{s: s}
	for _, loc := range locs {
		m := s[loc[0]:loc[1]]
		switch {
		case strings.Contains(m, "/") && inURL(s, loc[0]):
			segs := strings.Split(m, "/")
			for i, seg := range segs {
				if len(seg) >= 32 && looksSecret(seg) {
					segs[i] = Redacted
				}
			}
			out.replace(loc[0], loc[1], strings.Join(segs, "/"))
		case looksSecret(m):
			out.replace(loc[0], loc[1], Redacted)
		}
	}
	return out.String()
}

// inURL reports whether s[i] is part of a URL: the word it is in (back to a
// blank or quote) holds a scheme's "://".
func inURL(s string, i int) bool {
	start := strings.LastIndexAny(s[:i], " \t\"'<>(") + 1
	return strings.Contains(s[start:i], "://") || strings.HasPrefix(s[i:], "//")
}

// looksSecret keeps long words that are plainly not secrets: identifiers made
// of letters only (CamelCase class names). A secret mixes digits and letters.
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
	out := splicer{s: text}
	for _, m := range ipv6.FindAllStringIndex(text, -1) {
		i, j := m[0], m[1]
		if i > 0 && isWordByte(text[i-1]) || j < len(text) && isWordByte(text[j]) || !isIPv6(text[i:j]) {
			continue
		}
		out.replace(i, j, Redacted)
	}
	return out.String()
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

// cardNumber is a payment card number as it is written: 13 to 19 digits in one
// run, in groups of four split by a space or a dash (the last group 1 to 7
// digits), or American Express's 4-6-5. redactCardNumbers takes only those that
// pass the Luhn check every issuer's numbers pass (ISO/IEC 7812-1), so ids of that
// length mostly stay; a log line's time and pids, three numbers of other lengths,
// never match.
var cardNumber = regexp.MustCompile(`\b(?:\d{13,19}|(?:\d{4}[ -]){3}\d{1,7}|\d{4}[ -]\d{6}[ -]\d{5})\b`)

func redactCardNumbers(s string) string {
	return cardNumber.ReplaceAllStringFunc(s, func(m string) string {
		if luhn(m) {
			return Redacted
		}
		return m
	})
}

// luhn reports whether the digits of s pass the Luhn check.
func luhn(s string) bool {
	sum, double := 0, false
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		d := int(c - '0')
		if double {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum, double = sum+d, !double
	}
	return sum%10 == 0
}

// digitRun is the number of digits in s, a cheap bound before cardNumber runs.
func digitRun(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}
