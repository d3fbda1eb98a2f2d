package targetrun

import (
	"context"
	"io"
	"os"
	"time"

	"fixthis/adb"
)

// Device is the adb surface a run needs on one device: the adb handle
// (adb.Client.Device) is one as it is.
type Device interface {
	Shell(ctx context.Context, cmd string) (adb.ShellResult, error)
	ExecInput(ctx context.Context, cmd string, in io.Reader) ([]byte, error)
	Push(ctx context.Context, src io.Reader, remote string, perm os.FileMode, mtime time.Time) error
	Features(ctx context.Context) ([]string, error)
}
