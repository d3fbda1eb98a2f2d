// Package chromiumtest runs a real headless Chromium for tests that speak the
// DevTools protocol to it, so the protocol side is Chromium's own. Only tests
// import it; where no Chromium is installed they are skipped.
package chromiumtest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Binary is the Chromium the tests run.
const Binary = "/usr/bin/chromium"

// Start runs Chromium headless on url with DevTools on a free loopback port
// and returns that port's address; the browser is killed when the test ends.
func Start(t testing.TB, url string) string {
	t.Helper()
	if _, err := os.Stat(Binary); err != nil {
		t.Skipf("no %s: %v", Binary, err)
	}
	// Not t.TempDir: Chromium's helper processes outlive the browser process by a
	// moment and still write into the profile, which fails TempDir's own removal.
	dir, err := os.MkdirTemp("", "chromiumtest-")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(Binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--remote-debugging-port=0", "--user-data-dir="+dir, url)
	if err := cmd.Start(); err != nil {
		_ = os.RemoveAll(dir)
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		for i := 0; i < 50; i++ { // the helpers follow the browser within a second or so
			if err := os.RemoveAll(dir); err == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Logf("could not remove Chromium's profile %s", dir)
	})
	// Chromium writes the port it took to DevToolsActivePort once it listens.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if b, err := os.ReadFile(filepath.Join(dir, "DevToolsActivePort")); err == nil {
			if port, _, ok := strings.Cut(string(b), "\n"); ok && port != "" {
				return "127.0.0.1:" + port
			}
		}
	}
	t.Fatal("Chromium never opened its DevTools port")
	return ""
}

// page fetches three things over and over: an answer, a 404 and a port
// nobody listens on, as a WebView's page would while the user looks at it.
const page = `<!doctype html><title>covers</title><script>
setInterval(() => {
  fetch('/api/ok').catch(() => {});
  fetch('/api/missing').catch(() => {});
  fetch('http://127.0.0.1:1/refused').catch(() => {});
}, 250);
</script>`

// RefusedURL is the address the page fetches that nobody listens on.
const RefusedURL = "http://127.0.0.1:1/refused"

// PageServer serves that page at / , a JSON answer at /api/ok and 404 for
// anything else; it closes when the test ends.
func PageServer(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, page)
		case "/api/ok":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"ok":true}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
