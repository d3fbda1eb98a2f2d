package adb

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// syncDataMax is the largest DATA chunk adbd accepts (SYNC_DATA_MAX).
const syncDataMax = 64 * 1024

// Push copies src to remote on the device over `sync:` SEND (what `adb push`
// does for one file), with permission bits perm and modification time mtime.
func (c *Client) Push(ctx context.Context, serial string, src io.Reader, remote string, perm os.FileMode, mtime time.Time) error {
	op := "push " + remote
	cn, err := c.openService(ctx, serial, "sync:")
	if err != nil {
		return err
	}
	defer cn.Close()
	const sIFREG = 0o100000
	spec := remote + "," + strconv.FormatUint(uint64(sIFREG|perm.Perm()), 10)
	if err := writeSyncRequest(cn, "SEND", []byte(spec)); err != nil {
		return c.streamEnded(ctx, serial, op, err)
	}
	buf := make([]byte, 8+syncDataMax)
	copy(buf, "DATA")
	for {
		n, rerr := io.ReadFull(src, buf[8:])
		if n > 0 {
			binary.LittleEndian.PutUint32(buf[4:8], uint32(n))
			if _, err := cn.Write(buf[:8+n]); err != nil {
				return c.streamEnded(ctx, serial, op, err)
			}
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			return fmt.Errorf("%s to %s: read source: %w", op, serial, rerr)
		}
	}
	done := make([]byte, 8)
	copy(done, "DONE")
	binary.LittleEndian.PutUint32(done[4:], uint32(mtime.Unix()))
	if _, err := cn.Write(done); err != nil {
		return c.streamEnded(ctx, serial, op, err)
	}
	id, n, err := readSyncHeader(cn)
	if err != nil {
		return c.streamEnded(ctx, serial, op, err)
	}
	switch id {
	case "OKAY":
		_ = writeSyncRequest(cn, "QUIT", nil)
		return nil
	case "FAIL":
		return c.syncFailed(ctx, cn, serial, op+" to", n)
	default:
		return fmt.Errorf("%s to %s: unexpected sync reply %q", op, serial, id)
	}
}

// Pull copies remote from the device to dst over `sync:` RECV (what
// `adb pull` does for one file).
func (c *Client) Pull(ctx context.Context, serial, remote string, dst io.Writer) error {
	op := "pull " + remote
	cn, err := c.openService(ctx, serial, "sync:")
	if err != nil {
		return err
	}
	defer cn.Close()
	if err := writeSyncRequest(cn, "RECV", []byte(remote)); err != nil {
		return c.streamEnded(ctx, serial, op, err)
	}
	for {
		id, n, err := readSyncHeader(cn)
		if err != nil {
			return c.streamEnded(ctx, serial, op, err)
		}
		switch id {
		case "DATA":
			if n > syncDataMax {
				return fmt.Errorf("%s from %s: DATA chunk of %d bytes exceeds %d", op, serial, n, syncDataMax)
			}
			if _, err := io.CopyN(dst, cn, int64(n)); err != nil {
				return c.streamEnded(ctx, serial, op, noEOF(err))
			}
		case "DONE":
			_ = writeSyncRequest(cn, "QUIT", nil)
			return nil
		case "FAIL":
			return c.syncFailed(ctx, cn, serial, op+" from", n)
		default:
			return fmt.Errorf("%s from %s: unexpected sync reply %q", op, serial, id)
		}
	}
}

// writeSyncRequest writes a sync request: 4-byte id, LE32 length, data.
func writeSyncRequest(w io.Writer, id string, data []byte) error {
	msg := make([]byte, 8+len(data))
	copy(msg, id)
	binary.LittleEndian.PutUint32(msg[4:8], uint32(len(data)))
	copy(msg[8:], data)
	_, err := w.Write(msg)
	return err
}

// readSyncHeader reads a sync reply's 4-byte id and LE32 length/argument.
func readSyncHeader(r io.Reader) (string, uint32, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return "", 0, err
	}
	return string(hdr[:4]), binary.LittleEndian.Uint32(hdr[4:]), nil
}

// readSyncMessage reads a FAIL reason, bounded so a corrupt length cannot
// make us allocate gigabytes.
func readSyncMessage(r io.Reader, n uint32) (string, error) {
	if n > syncDataMax {
		return "", fmt.Errorf("sync FAIL message of %d bytes", n)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return "", noEOF(err)
	}
	return string(b), nil
}

// syncFailed reads the message of a sync FAIL reply of n bytes and returns it as the
// error of what ("push X to", "pull X from").
func (c *Client) syncFailed(ctx context.Context, cn io.Reader, serial, what string, n uint32) error {
	msg, err := readSyncMessage(cn, n)
	if err != nil {
		return c.streamEnded(ctx, serial, what, err)
	}
	return fmt.Errorf("%s %s: %s", what, serial, msg)
}
