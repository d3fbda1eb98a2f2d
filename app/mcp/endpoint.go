package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
)

// EndpointFile is what the running app records in .fixthis/mcp-endpoint.json
// (0600): where its /mcp listens, its bearer token and its process id. The
// sidecar (`fixthis mcp`) forwards device tools to that app while it runs.
type EndpointFile struct {
	URL   string `json:"url"`
	Port  int    `json:"port"`
	Token string `json:"token"`
	PID   int    `json:"pid"`
}

// ErrEndpointStale: the endpoint file names a process that is no longer running
// (a crash, a kill -9), so no app answers at its URL.
var ErrEndpointStale = errors.New("stale MCP endpoint")

// ReadEndpointFile reads the endpoint the running (or the last) app recorded.
// It does not check the process: the next launch reuses a dead one's token and
// port. Live does.
func ReadEndpointFile(path string) (EndpointFile, error) {
	var ep EndpointFile
	data, err := os.ReadFile(path)
	if err != nil {
		return ep, err
	}
	if err := json.Unmarshal(data, &ep); err != nil {
		return ep, fmt.Errorf("%s: %w", path, err)
	}
	return ep, nil
}

// Live returns ErrEndpointStale when the process that wrote ep has exited.
func (ep EndpointFile) Live() error {
	if ep.PID > 0 && !processAlive(ep.PID) {
		return fmt.Errorf("%w: the FixThis app that recorded it (pid %d) is no longer running", ErrEndpointStale, ep.PID)
	}
	return nil
}

// WriteEndpointFile records ep at path so that it never names a dead process:
// it is written to a temporary file and renamed over the old one. When that
// cannot be done (a full disk has no room for a second file) the old file,
// a few hundred bytes, is overwritten in place, which needs no new block; when
// even that fails it is removed, since no file sends the sidecar to the phone
// itself while a stale one would name a process that is gone. No temporary
// file is left either way.
func WriteEndpointFile(path string, ep EndpointFile) error {
	data, err := json.MarshalIndent(ep, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp" + strconv.Itoa(os.Getpid())
	err = writeSynced(tmp, data, os.O_CREATE|os.O_EXCL)
	if err == nil {
		if err = os.Rename(tmp, path); err == nil {
			return nil
		}
	}
	_ = os.Remove(tmp)
	if ierr := writeSynced(path, data, 0); ierr == nil {
		return nil
	}
	if rerr := os.Remove(path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return fmt.Errorf("record the MCP endpoint: %w; and the old record could not be removed: %v", err, rerr)
	}
	return fmt.Errorf("record the MCP endpoint: %w (the old record was removed)", err)
}

// writeSynced writes data over the start of the 0600 file at path (created with
// flag O_CREATE), cuts it to len(data) and flushes it.
func writeSynced(path string, data []byte, flag int) error {
	f, err := os.OpenFile(path, os.O_WRONLY|flag, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// RemoveEndpointFile removes the record at path if it is still the one process
// pid wrote (a newer app may have replaced it), when that app stops.
func RemoveEndpointFile(path string, pid int) error {
	ep, err := ReadEndpointFile(path)
	if err != nil || ep.PID != pid {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
