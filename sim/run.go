// Running a device for `fixthis sim`: registering it with the adb server and
// waiting until the server lists it online.
package sim

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// Info describes a running simulated device, as `fixthis sim --json` prints it.
type Info struct {
	Serial string `json:"serial"`
	Addr   string `json:"addr"`
	Model  string `json:"model"`
}

// ErrNoADB says the adb binary is not installed.
var ErrNoADB = errors.New("adb not found in PATH (Debian/Ubuntu: apt-get install adb; or install Android SDK platform-tools)")

// adbCLI runs the adb client against one server port (0: adb's own default, which
// honours ANDROID_ADB_SERVER_PORT).
type adbCLI struct {
	bin  string
	port int
}

func newADBCLI(port int) (adbCLI, error) {
	bin, err := exec.LookPath("adb")
	if err != nil {
		return adbCLI{}, ErrNoADB
	}
	return adbCLI{bin: bin, port: port}, nil
}

func (a adbCLI) run(ctx context.Context, args ...string) (string, error) {
	if a.port != 0 {
		args = append([]string{"-P", strconv.Itoa(a.port)}, args...)
	}
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, a.bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("adb %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}

// stateOf finds serial's state in `adb devices` output ("" when absent).
func stateOf(devices, serial string) string {
	for _, line := range strings.Split(devices, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == serial {
			return f[1]
		}
	}
	return ""
}

// Connect registers the device with the adb server (`adb connect SERIAL`) and waits
// until the server lists it as "device".
func (d *Device) Connect(ctx context.Context, adbPort int) error {
	a, err := newADBCLI(adbPort)
	if err != nil {
		return err
	}
	out, err := a.run(ctx, "connect", d.Serial())
	if err != nil {
		return err
	}
	if !strings.Contains(out, "connected to") {
		return fmt.Errorf("adb connect %s: %s", d.Serial(), strings.TrimSpace(out))
	}
	for {
		list, err := a.run(ctx, "devices")
		if err == nil && stateOf(list, d.Serial()) == "device" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for %s to come online (last: %q): %w", d.Serial(), stateOf(list, d.Serial()), ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Disconnect runs `adb disconnect SERIAL` for this device's own serial only.
func (d *Device) Disconnect(ctx context.Context, adbPort int) error {
	a, err := newADBCLI(adbPort)
	if err != nil {
		return err
	}
	_, err = a.run(ctx, "disconnect", d.Serial())
	return err
}

// Run starts a device and serves it until ctx ends. With connect it registers the
// device with the adb server on adbPort (0: the default server) before onReady, and
// disconnects that serial, and nothing else, on the way out.
func Run(ctx context.Context, opts Options, connect bool, adbPort int, onReady func(Info)) error {
	d, err := Start(ctx, opts)
	if err != nil {
		return err
	}
	defer d.Close()
	if connect {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		err := d.Connect(cctx, adbPort)
		cancel()
		if err != nil {
			return fmt.Errorf("register %s with the adb server: %w", d.Serial(), err)
		}
		defer func() {
			// ctx is done by now: give the disconnect its own short deadline.
			dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := d.Disconnect(dctx, adbPort); err != nil {
				d.logf("sim: %v", err)
			}
		}()
	}
	if onReady != nil {
		onReady(Info{Serial: d.Serial(), Addr: d.Addr(), Model: d.Model()})
	}
	<-ctx.Done()
	return nil
}
