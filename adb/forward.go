package adb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// Forward is one port forward the adb server holds: connections to Local on
// this machine reach Remote on the device with Serial.
type Forward struct {
	Serial string `json:"serial"`
	Local  string `json:"local"`  // e.g. "tcp:41234"
	Remote string `json:"remote"` // e.g. "localabstract:fixthis_com.example"
}

type forwardKey struct{ serial, local string }

// Forward runs `host-serial:SERIAL:forward:LOCAL;REMOTE` (what
// `adb -s SERIAL forward LOCAL REMOTE` does) and remembers it as created by
// this client. LOCAL may be "tcp:0": the server then picks a free port, and the
// returned local spec names it ("tcp:41234").
func (c *Client) Forward(ctx context.Context, serial, local, remote string) (string, error) {
	if err := errors.Join(CheckSerial(serial), checkSocketSpec(local), checkSocketSpec(remote)); err != nil {
		return "", err
	}
	service := "host-serial:" + serial + ":forward:" + local + ";" + remote
	cn, err := c.dial(ctx)
	if err != nil {
		return "", fmt.Errorf("forward %s to %s on %s: %w", local, remote, serial, err)
	}
	defer cn.Close()
	// The host answers OKAY (device found), OKAY (listener installed), then
	// the resolved port when one was picked; a FAIL replaces either OKAY.
	err = cn.request(service)
	if err == nil {
		err = readStatus(cn, service)
	}
	if err != nil {
		return "", fmt.Errorf("forward %s to %s on %s: %w", local, remote, serial, c.explainFail(ctx, serial, err))
	}
	port, err := readHexPrefixed(cn)
	switch {
	case err == nil:
		if _, perr := strconv.Atoi(string(port)); perr != nil {
			return "", fmt.Errorf("forward %s on %s: bad resolved port %q", local, serial, port)
		}
		local = "tcp:" + string(port)
	case errors.Is(err, io.EOF):
		// No port reply: LOCAL was fully specified.
	default:
		return "", fmt.Errorf("forward %s to %s on %s: %w", local, remote, serial, cn.ioErr("read port", err))
	}
	c.mu.Lock()
	c.owned[forwardKey{serial, local}] = remote
	c.mu.Unlock()
	return local, nil
}

// ForwardLocalAbstract forwards a free local TCP port to the device's
// `localabstract:NAME` socket and returns the port. It asks the server to pick
// the port (tcp:0); servers too old for that get a port found here.
func (c *Client) ForwardLocalAbstract(ctx context.Context, serial, name string) (int, error) {
	remote := "localabstract:" + name
	local, err := c.Forward(ctx, serial, "tcp:0", remote)
	if err != nil {
		// Only a refused listener (not a missing or offline device) is worth
		// retrying with a port of our own.
		var fe *FailError
		if !errors.As(err, &fe) || !strings.Contains(fe.Service, ":forward:") {
			return 0, err
		}
		port, perr := freeTCPPort()
		if perr != nil {
			return 0, fmt.Errorf("%w; and no free local port: %w", err, perr)
		}
		if local, err = c.Forward(ctx, serial, "tcp:"+strconv.Itoa(port), remote); err != nil {
			return 0, err
		}
	}
	port, err := strconv.Atoi(strings.TrimPrefix(local, "tcp:"))
	if err != nil {
		return 0, fmt.Errorf("forward to %s on %s: unexpected local %q", remote, serial, local)
	}
	return port, nil
}

// freeTCPPort asks the kernel for a loopback port that is free right now.
func freeTCPPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// RemoveForward runs `host-serial:SERIAL:killforward:LOCAL` (what
// `adb -s SERIAL forward --remove LOCAL` does).
func (c *Client) RemoveForward(ctx context.Context, serial, local string) error {
	if err := errors.Join(CheckSerial(serial), checkSocketSpec(local)); err != nil {
		return err
	}
	service := "host-serial:" + serial + ":killforward:" + local
	cn, err := c.dial(ctx)
	if err != nil {
		return fmt.Errorf("remove forward %s on %s: %w", local, serial, err)
	}
	defer cn.Close()
	err = cn.request(service)
	if err == nil {
		err = readStatus(cn, service)
	}
	if err != nil {
		return fmt.Errorf("remove forward %s on %s: %w", local, serial, c.explainFail(ctx, serial, err))
	}
	c.mu.Lock()
	delete(c.owned, forwardKey{serial, local})
	c.mu.Unlock()
	return nil
}

// ListForwards runs `host:list-forward` (what `adb forward --list` does): all
// forwards of the server, including other tools'.
func (c *Client) ListForwards(ctx context.Context) ([]Forward, error) {
	b, err := c.hostQuery(ctx, "host:list-forward")
	if err != nil {
		return nil, fmt.Errorf("list forwards: %w", err)
	}
	return parseForwards(string(b)), nil
}

// OwnForwards lists the forwards this client created and has not removed,
// for serial ("" for all devices).
func (c *Client) OwnForwards(serial string) []Forward {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []Forward
	for k, remote := range c.owned {
		if serial == "" || k.serial == serial {
			out = append(out, Forward{Serial: k.serial, Local: k.local, Remote: remote})
		}
	}
	return out
}

// RemoveOwnForwards removes the forwards this client created on serial (all
// devices when serial is ""), leaving every other forward alone. Forwards the
// server already dropped (device gone) are forgotten without error.
func (c *Client) RemoveOwnForwards(ctx context.Context, serial string) error {
	var errs []error
	for _, f := range c.OwnForwards(serial) {
		err := c.RemoveForward(ctx, f.Serial, f.Local)
		var fe *FailError
		if errors.As(err, &fe) {
			// "listener 'tcp:X' not found" or the device is gone: nothing left to remove.
			c.mu.Lock()
			delete(c.owned, forwardKey{f.Serial, f.Local})
			c.mu.Unlock()
			continue
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// explainFail fills in the empty FAIL that some adb servers (29 among them)
// send for forward requests to a missing or offline device: the device's
// state then says what went wrong.
func (c *Client) explainFail(ctx context.Context, serial string, err error) error {
	var fe *FailError
	if !errors.As(err, &fe) || strings.TrimSpace(fe.Message) != "" {
		return err
	}
	if _, serr := c.State(ctx, serial); serr != nil {
		return serr
	}
	return err
}
