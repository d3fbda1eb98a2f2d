package feedback

import (
	"context"
	"testing"
)

// A package name from the phone's window list that is no package name never reaches
// a command line: the WebView watch refuses it before it touches the phone.
func TestWebViewRefusesAPackageThatIsNoPackage(t *testing.T) {
	s := &Service{} // no device: a refusal must come before any use of one
	for _, pkg := range []string{"com.demo; reboot", "$(reboot)", "com.demo\nreboot", ""} {
		if w, _, err := s.startWebView(context.Background(), "emulator-5554", pkg); err == nil || w != nil {
			t.Errorf("%q: watcher %v, err %v", pkg, w, err)
		}
	}
}
