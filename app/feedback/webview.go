package feedback

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"fixthis/adb"
	"fixthis/app/evidence/network"
	"fixthis/app/evidence/webview"
)

// The WebView half of the network evidence. DevTools reports only what happens
// after Network.enable, so a watcher starts when a screen is frozen and runs until
// the runtime evidence of a save is collected, which reads and closes it: resuming
// the live preview does not end it, since the usual Save to MCP comes after going
// back to the live phone, and the calls up to the save belong to the items. One runs
// per app, for at most webViewWatchFor; quitting closes them all.

const (
	// webViewSetup bounds finding the socket, forwarding it and enabling the pages.
	webViewSetup = 5 * time.Second
	// webViewWatchFor is the longest a watcher runs when no collection reads it.
	webViewWatchFor = 10 * time.Minute
	// WebViewWatchFailed is the evidence's note when the app's WebView has a
	// DevTools socket but watching it failed (the error itself stays in the log).
	WebViewWatchFailed = "the app's WebView could not be watched; its calls are not included"
)

type webViewWatches struct {
	mu    sync.Mutex
	byApp map[string]*webViewWatch // serial|package
}

// webViewWatch is one app's watcher, or why there is none (note), or neither while
// it is being set up.
type webViewWatch struct {
	w      *webview.Watcher
	stop   func() // removes the adb forward
	note   string
	cancel context.CancelFunc
	timer  *time.Timer
}

func (ww *webViewWatch) close() {
	ww.cancel()
	if ww.timer != nil {
		ww.timer.Stop()
	}
	if ww.w != nil {
		_ = ww.w.Close()
	}
	if ww.stop != nil {
		ww.stop()
	}
}

// watchWebView starts watching pkg's WebView on serial in the background, unless a
// watcher for the app runs already. An app without a debuggable WebView (no socket)
// gets none, and no note.
func (s *Service) watchWebView(serial, pkg string) {
	key := serial + "|" + pkg
	ctx, cancel := context.WithCancel(context.Background())
	ww := &webViewWatch{cancel: cancel}
	s.webViews.mu.Lock()
	if s.webViews.byApp == nil {
		s.webViews.byApp = map[string]*webViewWatch{}
	}
	if _, ok := s.webViews.byApp[key]; ok {
		s.webViews.mu.Unlock()
		cancel()
		return
	}
	s.webViews.byApp[key] = ww
	ww.timer = time.AfterFunc(webViewWatchFor, func() { s.dropWebView(key, ww) })
	s.webViews.mu.Unlock()
	go func() {
		w, stop, err := s.startWebView(ctx, serial, pkg)
		s.webViews.mu.Lock()
		defer s.webViews.mu.Unlock()
		if s.webViews.byApp[key] != ww || ctx.Err() != nil { // closed meanwhile
			if w != nil {
				_ = w.Close()
			}
			if stop != nil {
				stop()
			}
			return
		}
		switch {
		case err != nil:
			s.log.Warn("could not watch the app's WebView", "serial", serial, "package", pkg, "err", err)
			ww.note = WebViewWatchFailed
		case w == nil:
			delete(s.webViews.byApp, key) // no debuggable WebView: nothing to keep
			ww.close()
		default:
			ww.w, ww.stop = w, stop
		}
	}()
}

// startWebView finds pkg's DevTools socket and watches it; nil and no error when
// the app has none.
func (s *Service) startWebView(ctx context.Context, serial, pkg string) (*webview.Watcher, func(), error) {
	setup, cancel := context.WithTimeout(ctx, webViewSetup)
	defer cancel()
	// The package comes from the phone's window list: it must fit the package
	// grammar before it goes into a command line.
	if err := adb.CheckPackage(pkg); err != nil {
		return nil, nil, err
	}
	dev := s.device.ADB().Device(serial)
	pidOut, err := dev.Shell(setup, adb.Command("pidof", pkg))
	if err != nil {
		return nil, nil, nil // not running: no WebView to watch
	}
	pid, err := strconv.Atoi(strings.Fields(string(pidOut.Stdout) + " 0")[0])
	if err != nil || pid <= 0 {
		return nil, nil, nil
	}
	unix, err := dev.Shell(setup, webview.ProcNetUnixCommand)
	if err != nil {
		return nil, nil, err
	}
	socket := webview.Socket(string(unix.Stdout), pid)
	if socket == "" {
		return nil, nil, nil
	}
	dial, stop, err := webview.AdbDialer(setup, s.device.ADB(), serial, socket)
	if err != nil {
		return nil, nil, err
	}
	for {
		// A WebView lists its page once the page has loaded: try again until setup ends.
		w, err := webview.Watch(setup, dial)
		if err == nil {
			return w, stop, nil
		}
		select {
		case <-setup.Done():
			stop()
			return nil, nil, err
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// takeWebView ends the watch of pkg's WebView on serial for a collection: the calls
// it saw, or the note saying why there are none (both empty when none ran).
func (s *Service) takeWebView(serial, pkg string) ([]network.Request, string) {
	key := serial + "|" + pkg
	s.webViews.mu.Lock()
	ww := s.webViews.byApp[key]
	delete(s.webViews.byApp, key)
	s.webViews.mu.Unlock()
	if ww == nil {
		return nil, ""
	}
	defer ww.close()
	if ww.w != nil {
		return ww.w.Requests(), ""
	}
	return nil, ww.note
}

func (s *Service) dropWebView(key string, ww *webViewWatch) {
	s.webViews.mu.Lock()
	if s.webViews.byApp[key] == ww {
		delete(s.webViews.byApp, key)
	}
	s.webViews.mu.Unlock()
	ww.close()
}

// StopWebViewWatches closes every WebView watcher: FixThis quits.
func (s *Service) StopWebViewWatches() {
	s.webViews.mu.Lock()
	all := s.webViews.byApp
	s.webViews.byApp = nil
	s.webViews.mu.Unlock()
	for _, ww := range all {
		ww.close()
	}
}
