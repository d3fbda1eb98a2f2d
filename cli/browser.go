package cli

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// browserCommand is the program and arguments that open url in the user's default
// browser on goos: macOS's open(1), the Windows URL handler (rundll32 rather than
// `cmd /c start`, whose parser would read & in a URL), and xdg-open(1) on the free
// desktops.
func browserCommand(goos, url string) (name string, args []string) {
	switch goos {
	case "darwin":
		return "open", []string{url}
	case "windows":
		return "rundll32", []string{"url.dll,FileProtocolHandler", url}
	default:
		return "xdg-open", []string{url}
	}
}

// openerWait is how long a failing opener is waited for: open(1) and rundll32 return
// at once, but xdg-open may run the browser in the foreground, so a slow one is left
// running rather than waited on.
const openerWait = 5 * time.Second

// openInBrowser opens url in the default browser of goos, reporting to log when that
// fails so the user knows to open the printed URL by hand. It returns once the opener
// has finished or openerWait has passed; the server is already answering by then. The URL carries the
// console's token, so it goes to the opener's arguments only, never to the log.
func openInBrowser(ctx context.Context, log io.Writer, goos, url string) {
	name, args := browserCommand(goos, url)
	cmd := exec.CommandContext(context.WithoutCancel(ctx), name, args...)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(log, "fixthis: could not open a browser (%v); open the console URL above yourself.\n", err)
		return
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			fmt.Fprintf(log, "fixthis: %s could not open the console (%v); open the console URL above yourself.\n", name, err)
		}
	case <-time.After(openerWait):
		// Still running: the browser itself, started in the foreground. It is the
		// user's now; its exit is collected in the background.
	}
}
