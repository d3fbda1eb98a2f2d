package evidence

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Leak lines as apps really logged them. Where a report had masked its secret
// (`$PW`, `xxxx`, dots), a value of the same shape stands in; lines written
// after a format say so. Each case names what must go and what must stay.
var leakLines = []struct {
	name, in   string
	gone, kept []string
}{
	// github.com/yvesf/andiodine/issues/6: a config row logged with its password.
	{"andiodine config row",
		"08-05 17:05:37.900 D/ConfigDatabase( 9515): Selected: last_used=null id=1 nameserver= raw_mode=1 nameserver_mode=LEAVE_DEFAULT top_domain=t.example.net request_type=AUTODETECT lazy_mode=1 default_route=0 name=home DNS password=Tr0ub4dor&3 tunnel_nameserver=",
		[]string{"Tr0ub4dor", "&3"}, []string{"08-05 17:05:37.900 D/ConfigDatabase( 9515): Selected: last_used=null id=1", "DNS password=[REDACTED] tunnel_nameserver="}},
	// github.com/bilde2910/Hauk/issues/83: a preference and a session object.
	{"hauk preference",
		"I info.varden.hauk: .utils.PreferenceManager.set(PreferenceManager.java:42): Setting preference Preference<String+Encrypted>{key=cryptPassword,default=}, value=c0rrect-h0rse-battery",
		[]string{"c0rrect-h0rse-battery"}, []string{"{key=cryptPassword,default=}, value=[REDACTED]", "PreferenceManager.set(PreferenceManager.java:42)"}},
	{"hauk session",
		"I info.varden.hauk: .caching.ResumableSessions.setSessionResumable(ResumableSessions.java:80): Setting session Session{serverURL=https://domain.tld/,backendVersion=1.5,sessionID=k2x9q7w1m4e8r6t3y5u0i2o7p,expiry=1575907412345,interval=5,e2eParams=KeyDerivable{password=Ul7ra$ecretShare,salt=0x5d3c}} resumable",
		[]string{"k2x9q7w1m4e8r6t3y5u0i2o7p", "Ul7ra$ecretShare"}, []string{"sessionID=[REDACTED],expiry=1575907412345", "password=[REDACTED],salt=0x5d3c}}", "backendVersion=1.5"}},
	// github.com/LemmyNet/jerboa/issues/783: OkHttp's body log, Android Studio's format.
	{"jerboa login body",
		`2023-06-21 02:23:14.612 29893-30269 okhttp.OkHttpClient     com.jerboa.debug                     I  {"password":"somerandompassword","username_or_email":"importantemail@example.com"}`,
		[]string{"somerandompassword", "importantemail@example.com"}, []string{`com.jerboa.debug                     I  {"password":"[REDACTED]","username_or_email":"[REDACTED]"}`}},
	// github.com/square/okhttp/issues/2774 (mirrored as lysine-dev/okhttp): a cookie jar's log.
	{"cookie jar JSESSIONID",
		"debugmacros D/PersistentCookieJar: Valid JSESSIONID=9C16F24AEA848C9841F247F7EB8F9BAE; path=/biz-war/; httponly",
		[]string{"9C16F24AEA848C9841F247F7EB8F9BAE"}, []string{"Valid JSESSIONID=[REDACTED]; path=/biz-war/; httponly"}},
	{"cookie jar webid",
		"debugmacros D/PersistentCookieJar: Valid webid=SVBNQkNGNzNKSjhJMTc1OTkyOTk5MjJYX0RF; domain=host.xx; path=/",
		[]string{"SVBNQkNGNzNKSjhJMTc1OTkyOTk5MjJYX0RF"}, []string{"; domain=host.xx; path=/"}},
	// github.com/gotev/android-upload-service/issues/94: an ASP.NET auth cookie.
	{"aspnet cookie",
		"cookieString has the value: .AspNet.ApplicationCookie=pxhoCVIWJ5eEcEr2fdB5B3DUIzp8cl48VRGE4UlB-kW46sma",
		[]string{"pxhoCVIWJ5eEcEr2fdB5B3DUIzp8cl48VRGE4UlB"}, []string{".AspNet.ApplicationCookie=[REDACTED]"}},
	// github.com/square/okhttp/issues/2448: a WordPress login cookie.
	{"wordpress set-cookie",
		"Set-Cookie: wordpress_sec_3e7170c5936214cbd49b760d815d6568=admin%7C1459354542%7Cb3e0c1; path=/wp-admin; HttpOnly",
		[]string{"3e7170c5936214cbd49b760d815d6568", "admin%7C1459354542"}, []string{"Set-Cookie: [REDACTED]"}},
	// github.com/raster-foundry/raster-foundry/issues/289 and brefphp/laravel-bridge/issues/67: S3 errors naming the key.
	{"s3 error ASIA key",
		"<Error><Code>InvalidAccessKeyId</Code><Message>The AWS Access Key Id you provided does not exist in our records.</Message><AWSAccessKeyId>ASIAJCIMYNXQI3TLOWZA</AWSAccessKeyId>",
		[]string{"ASIAJCIMYNXQI3TLOWZA"}, []string{"<Code>InvalidAccessKeyId</Code>", "<AWSAccessKeyId>[REDACTED]</AWSAccessKeyId>"}},
	{"s3 error second ASIA key",
		"E/Uploader: S3Exception: <AWSAccessKeyId>ASIAZ7N74ORBT6RJ5AAA</AWSAccessKeyId><RequestId>KFZADDG3V6QX8AAA</RequestId>",
		[]string{"ASIAZ7N74ORBT6RJ5AAA"}, []string{"<RequestId>KFZADDG3V6QX8AAA</RequestId>"}},
	// Written after AWS's documented key pair shapes, as the SDK's credentials toString prints them.
	{"aws credentials",
		"W/AwsClient: using BasicAWSCredentials(accessKey=AKIA2OGYBAH6STMMNXNN, secretKey=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)",
		[]string{"AKIA2OGYBAH6STMMNXNN", "LIEsRLC4FsKJxCl/xmDvu2YBz3d9pLpKF7TEuZYm"}, []string{"BasicAWSCredentials(accessKey=[REDACTED], secretKey=[REDACTED])"}},
	{"aws env",
		"aws_secret_access_key = q8Zx/3nB+2kLmP0vR7sT9uW1yA4cE6gH5jK8lN2o",
		[]string{"q8Zx/3nB+2kLmP0vR7sT9uW1yA4cE6gH5jK8lN2o"}, []string{"aws_secret_access_key = [REDACTED]"}},
	// github.com/labnex/LabNex/issues/51: OkHttp logging the Authorization header.
	{"gitlab bearer",
		"okhttp.OkHttpClient: Authorization: Bearer glpat-xR3vQ9mZ2kLp7sTn4wYb",
		[]string{"glpat-xR3vQ9mZ2kLp7sTn4wYb"}, []string{"okhttp.OkHttpClient: Authorization: Bearer [REDACTED]"}},
	// Written after RFC 7519's example token, as an interceptor logs it.
	{"jwt in header",
		"12-01 09:41:12.004  4120  4188 D OkHttp  : Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
		[]string{"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"}, []string{"12-01 09:41:12.004  4120  4188 D OkHttp  : Authorization: Bearer [REDACTED]"}},
	{"jwt in a token response",
		`D/AuthRepo: <-- 200 {"access_token":"eyJraWQiOiJ4In0.eyJleHAiOjE3MDB9.c2lnbmF0dXJl","token_type":"Bearer","expires_in":3600,"refresh_token":"8xLOxBtZp8"}`,
		[]string{"eyJraWQiOiJ4In0", "8xLOxBtZp8"}, []string{`"token_type":"Bearer","expires_in":3600`}},
	{"basic auth header",
		"D/OkHttp: Proxy-Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l",
		[]string{"YWxhZGRpbjpvcGVuc2VzYW1l"}, []string{"Proxy-Authorization: Basic [REDACTED]"}},
	{"basic auth in a curl line",
		"I/ApiDebug: curl -H 'Authorization: Basic dXNlcjpoNHJkZXJwYXNz' https://api.example.org/v1/me",
		[]string{"dXNlcjpoNHJkZXJwYXNz"}, []string{"https://api.example.org/v1/me"}},
	// Vendor keys, written after each issuer's documented format.
	{"github classic PAT",
		"E/GitSync: push failed for token ghp_R8cK2vN5xQ1mZ7bT4wY9pL3sD6fH0jA2gE5u",
		[]string{"ghp_R8cK2vN5xQ1mZ7bT4wY9pL3sD6fH0jA2gE5u"}, []string{"E/GitSync: push failed for"}},
	{"github fine-grained PAT",
		"W/Updater: GITHUB_TOKEN github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV in use",
		[]string{"github_pat_11ABCDEFG"}, []string{"W/Updater: GITHUB_TOKEN", "in use"}},
	{"github app token",
		"D/Ci: installation token ghs_16C7e42F292c6912E7710c838347Ae178B4a expires",
		[]string{"ghs_16C7e42F292c6912E7710c838347Ae178B4a"}, []string{"installation token", "expires"}},
	{"stripe keys",
		"E/Payments: stripe init sk_live_51H8xQ2L3kF9mZ0pR7vT4wY1n and rk_live_9aB3cD5eF7gH1jK2lM4nP6q, publishable pk_live_7TgH2kL9xQ3mZ8vB1nW4",
		[]string{"sk_live_51H8xQ2L3kF9mZ0pR7vT4wY1n", "rk_live_9aB3cD5eF7gH1jK2lM4nP6q", "pk_live_7TgH2kL9xQ3mZ8vB1nW4"}, []string{"E/Payments: stripe init", "and", "publishable"}},
	{"slack tokens",
		"W/Notifier: posting with xoxb-2837465019-9182736450-AbCdEfGhIjKlMnOpQrStUvWx then xoxp-1111111111-22222222-zZ9",
		[]string{"xoxb-2837465019", "xoxp-1111111111"}, []string{"W/Notifier: posting with", "then"}},
	{"slack webhook",
		"D/Alerts: POST https://hooks.slack.com/services/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",
		[]string{"T024BE7LD", "x7Jk2LmN9pQ4rS6tU8vW0yZ1"}, []string{"D/Alerts: POST https://hooks.slack.com/services/[REDACTED]"}},
	{"google api key",
		"E/MapsApi: Map load failed for key AIzaSyB3kT7-xQ9mZ2vR5wY8pL1nD4fH6jA0gC3 (REQUEST_DENIED)",
		[]string{"AIzaSyB3kT7-xQ9mZ2vR5wY8pL1nD4fH6jA0gC3"}, []string{"E/MapsApi: Map load failed for key", "(REQUEST_DENIED)"}},
	{"google oauth token",
		"D/Drive: token ya29.a0AfH6SMBx3kT7Q9mZ2vR5wY8pL1nD4fH6jA0gC3 refreshed",
		[]string{"ya29.a0AfH6SMBx3kT7Q9mZ2vR5wY8pL1nD4fH6jA0gC3"}, []string{"refreshed"}},
	{"openai keys",
		"E/Assistant: 401 for sk-proj-Xq3mZ8vB1nW4tY7uI0oP2aS5dF9gH6jK and sk-4kT9xQ2mZ7vR1wY5pL8nD3fH6jA0gC2bE9uI4oP1aS",
		[]string{"sk-proj-Xq3mZ8vB1nW4tY7uI0oP2aS5dF9gH6jK", "sk-4kT9xQ2mZ7vR1wY5pL8nD3fH6jA0gC2bE9uI4oP1aS"}, []string{"E/Assistant: 401 for", "and"}},
	{"api_key pair",
		"D/WeatherApi: --> GET api_key=3f9a1c7e2b&units=metric",
		[]string{"3f9a1c7e2b"}, []string{"api_key=[REDACTED]&units=metric"}},
	{"x-api-key header",
		"12-01 09:41:12.118  4120  4188 D OkHttp  : X-Api-Key: 7d1e5c9a0b3f",
		[]string{"7d1e5c9a0b3f"}, []string{"D OkHttp  : X-Api-Key: [REDACTED]"}},
	{"client secret",
		`I/OAuth: config {"client_id": "trailhead-android", "client_secret" : "s3cr3t-Value_42"}`,
		[]string{"s3cr3t-Value_42"}, []string{`"client_id": "trailhead-android", "client_secret" : "[REDACTED]"`}},
	{"escaped json password",
		`E/Sync: body="{\"user\":\"ana\",\"passwd\":\"p@ss,w0rd\"}"`,
		[]string{"p@ss,w0rd", "w0rd"}, []string{`\"user\":\"ana\",\"passwd\":\"[REDACTED]\"`}},
	{"kotlin data class",
		"D/Login: LoginRequest(username=ana, pwd=hunter2, rememberMe=true)",
		[]string{"hunter2"}, []string{"LoginRequest(username=ana, pwd=[REDACTED], rememberMe=true)"}},
	{"form body",
		"D/OkHttp: grant_type=password&username=ana&password=Zx%21v9%40q&client_id=app",
		[]string{"Zx%21v9%40q"}, []string{"grant_type=password&username=ana&password=[REDACTED]&client_id=app"}},
	{"cookie header",
		"D/OkHttp: Cookie: _ga=GA1.2.1234; sessionid=q8w7e6r5t4y3; csrftoken=Ab12Cd34",
		[]string{"q8w7e6r5t4y3", "Ab12Cd34"}, []string{"D/OkHttp: Cookie: [REDACTED]"}},
	{"xml password",
		"D/Prefs: <string name=\"pin\">1234</string><password>h0rse!</password>",
		[]string{"h0rse!"}, []string{"<password>[REDACTED]</password>"}},
	{"url user info",
		"E/Backup: git clone https://ana:Sup3rS3cret@git.example.com/team/app.git failed",
		[]string{"Sup3rS3cret", "ana:"}, []string{"https://[REDACTED]@git.example.com/team/app.git failed"}},
	{"oauth fragment",
		"D/WebView: redirect myapp://cb#access_token=Gh7kL2mN9pQ&state=xyz",
		[]string{"Gh7kL2mN9pQ"}, []string{"myapp://cb#access_token=[REDACTED]&state=xyz"}},
	{"crash message with a password",
		"12-01 09:41:13.250  4120  4120 E AndroidRuntime: java.lang.IllegalStateException: login failed for user=ana password=hunter2",
		[]string{"hunter2"}, []string{"E AndroidRuntime: java.lang.IllegalStateException: login failed for user=ana password=[REDACTED]"}},
	{"private key inline",
		`D/Keys: {"private_key": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq9\n-----END RSA PRIVATE KEY-----\n", "type": "service_account"}`,
		[]string{"MIIEpAIBAAKCAQEA7bq9"}, []string{`"type": "service_account"`}},
	// github.com/schaal/ocreader/issues/87: ACRA's report, already masked: left as it is.
	{"already redacted", `    "password": "[REDACTED]",`, nil, []string{`    "password": "[REDACTED]",`}},
}

func TestRedactLeakLines(t *testing.T) {
	for _, tc := range leakLines {
		t.Run(tc.name, func(t *testing.T) {
			out := Redact(tc.in)
			checkRedacted(t, out, tc.gone, tc.kept)
			if again := Redact(out); again != out {
				t.Errorf("not idempotent:\n%s\n%s", out, again)
			}
		})
	}
}

// A private key logged one line at a time: every body line goes, the lines
// around it stay, and the line count is kept.
func TestRedactPEMAcrossLogLines(t *testing.T) {
	in := strings.Join([]string{
		"12-01 09:41:11.900  4120  4120 D KeyStore: loading key",
		"12-01 09:41:11.901  4120  4120 D KeyStore: -----BEGIN OPENSSH PRIVATE KEY-----",
		"12-01 09:41:11.901  4120  4120 D KeyStore: b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
		"12-01 09:41:11.901  4120  4120 D KeyStore: QyNTUxOQAAACDk3h9Qm",
		"12-01 09:41:11.901  4120  4120 D KeyStore: -----END OPENSSH PRIVATE KEY-----",
		"12-01 09:41:11.902  4120  4120 I KeyStore: key loaded in 12 ms",
		"-----BEGIN ENCRYPTED PRIVATE KEY-----",
		"MIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkqhkiG9w0BBQwwHAQI",
		"-----END ENCRYPTED PRIVATE KEY-----",
	}, "\n")
	out := Redact(in)
	checkRedacted(t, out, []string{"b3BlbnNzaC1rZXkt", "QyNTUxOQAAACDk3h9Qm", "MIIFHDBOBgkqhkiG9w0BBQ0w"},
		[]string{"D KeyStore: loading key", "D KeyStore: -----BEGIN OPENSSH PRIVATE KEY-----", "D KeyStore: [REDACTED]\n", "D KeyStore: -----END OPENSSH PRIVATE KEY-----", "I KeyStore: key loaded in 12 ms"})
	if strings.Count(out, "\n") != strings.Count(in, "\n") || Redact(out) != out {
		t.Errorf("line count or idempotence:\n%s", out)
	}
}

// What must stay exactly as it is: logcat's own fields, versions, class
// names, Kotlin member references and dumpsys figures; words that contain a
// secret word, view ids, frames, URLs without credentials, logcat headers
// with such tags.
func TestRedactKeepsLookalikes(t *testing.T) {
	for _, s := range []string{
		"12-01 09:41:11.909 12017 12017 E AndroidRuntime: FATAL EXCEPTION: main",
		"\tat com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run(RuntimeInit.java:552)",
		"Version 1.2.3 build 4.5.6.789",
		"val f = Trail::distance; Foo::class",
		"Stats since: 26391827273400ns",
		"android.view.ViewRootImpl@2f6c1a3 (visibility=0)",
		"ThisIsAVeryLongCamelCaseClassNameWithoutDigits.run",
		"        TOTAL    62219    45912     8888        0   162964    42178    30141     9825",
		"Access-Control-Allow-Headers: Authorization",
		"D/Tokenizer: tokenizer=wordpiece vocab=30522",
		"I/ViewRootImpl: focus moved to com.fixthis.demo:id/passwordField (visible=true)",
		"W/AutofillManager: passwordField: autofill hints [password] not set",
		"D/Provider: authority=com.fixthis.demo.files grantUri=true",
		"12-01 09:41:11.909 12017 12017 D Auth    : signed in after 2 attempts",
		"12-01 09:41:11.909 12017 12017 D SessionManager: Session started",
		"\tat com.fixthis.demo.auth.TokenStore.refresh(TokenStore.kt:42)",
		"\tat com.fixthis.demo.session.SessionRepository$login$2.invokeSuspend(SessionRepository.kt:88)",
		"Caused by: com.fixthis.demo.auth.InvalidCredentialsException",
		// github.com/volkszaehler/app-android/issues/22
		"01-29 09:34:05.249 18405 18840 D Preferences: url: http://odroid.lan/vz/middleware.php/entity.json",
		"01-29 09:34:05.450 18405 18840 W System.err: java.net.UnknownHostException: Unable to resolve host \"odroid.lan\": No address associated with hostname",
		// github.com/tmplat-extension/tmplat/issues/218
		"08-21 11:38:56.437: W/System.err(4113):     at org.apache.http.impl.client.DefaultRequestDirector.execute(DefaultRequestDirector.java:360)",
		"12-01 09:41:11.923 12017 12017 I Process : Sending signal. PID: 12017 SIG: 9",
		"02-10 16:26:51.248  1000  1328  1561 I ActivityManager: Showing crash dialog for package com.bintianqi.owndroid u0",
		"I/Choreographer: Skipped 31 frames!  The application may be doing too much work on its main thread.",
		"D/Billing: basic plan selected, basic features on",
		"I/Help: the bearer of this message",
		"Authorization: [REDACTED]",
	} {
		if got := Redact(s); got != s {
			t.Errorf("Redact(%q)\n = %q", s, got)
		}
	}
}

// Each key shape with many values: generated keys of the documented alphabet
// and length, inside different lines, all go.
func TestRedactGeneratedKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	const upperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const b64url = alnum + "-_"
	pick := func(alpha string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[r.IntN(len(alpha))]
		}
		return string(b)
	}
	shapes := map[string]func() string{
		"aws":    func() string { return []string{"AKIA", "ASIA", "AROA", "AIDA"}[r.IntN(4)] + pick(upperDigits, 16) },
		"github": func() string { return "gh" + string("pousr"[r.IntN(5)]) + "_" + pick(alnum, 36) },
		"stripe": func() string {
			return []string{"sk", "rk", "pk"}[r.IntN(3)] + "_" + []string{"live", "test"}[r.IntN(2)] + "_" + pick(alnum, 24+r.IntN(80))
		},
		"slack": func() string {
			return "xox" + string("abposr"[r.IntN(6)]) + "-" + pick("0123456789", 11) + "-" + pick(alnum, 24)
		},
		"google": func() string { return "AIza" + pick(b64url, 35) },
		"openai": func() string { return "sk-" + pick(alnum, 48) },
		"jwt": func() string {
			return "eyJ" + pick(b64url, 10+r.IntN(40)) + ".eyJ" + pick(b64url, 10+r.IntN(200)) + "." + pick(b64url, 43)
		},
	}
	lines := []string{
		"12-01 09:41:12.004  4120  4188 E Api     : request failed with %s",
		"D/OkHttp: x-credential: %s",
		"W/Config: key '%s' rejected",
		`I/Net: {"key":"%s"}`,
		"%s",
	}
	for name, gen := range shapes {
		for i := 0; i < 40; i++ {
			key := gen()
			in := strings.Replace(lines[i%len(lines)], "%s", key, 1)
			if out := Redact(in); strings.Contains(out, key) || strings.Contains(out, key[len(key)-12:]) {
				t.Errorf("%s: %q survived in %q", name, key, out)
			}
		}
	}
}
