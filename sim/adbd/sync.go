// The sync service (`sync:`): stat, list, push and pull over the file-sync
// protocol, v1 and v2, against the device's FileSystem.
package adbd

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	iofs "io/fs"
	"strconv"
	"strings"
	"time"
)

// Sync protocol ids (AOSP adb/file_sync_protocol.h, SYNC.TXT).
const (
	syncSTAT = "STAT"
	syncSTA2 = "STA2"
	syncLST2 = "LST2"
	syncLIST = "LIST"
	syncLIS2 = "LIS2"
	syncSEND = "SEND"
	syncSND2 = "SND2"
	syncRECV = "RECV"
	syncRCV2 = "RCV2"
	syncDATA = "DATA"
	syncDONE = "DONE"
	syncQUIT = "QUIT"

	syncDataMax    = 64 * 1024
	syncPathMax    = 1024
	syncFlagDryRun = 0x80000000
	enoent         = 2

	sIFDIR = 0o040000
	sIFREG = 0o100000
)

// fileStat is the part of a stat the sync protocol carries.
type fileStat struct {
	Name  string
	Mode  uint32 // st_mode: type bits | permissions
	Size  int64
	MTime time.Time
}

func statOf(fi iofs.FileInfo) fileStat {
	mode := uint32(fi.Mode().Perm()) | sIFREG
	if fi.IsDir() {
		mode = uint32(fi.Mode().Perm()) | sIFDIR
	}
	return fileStat{Name: fi.Name(), Mode: mode, Size: fi.Size(), MTime: fi.ModTime()}
}

type syncConn struct {
	fs FileSystem
	r  *bufio.Reader
	w  *bufio.Writer
}

// syncService is `sync:`: a sequence of requests until QUIT or the host closes.
func (srv *Server) syncService(ctx context.Context, s *stream) error {
	c := &syncConn{fs: srv.cfg.Files, r: bufio.NewReaderSize(s, 256*1024), w: bufio.NewWriterSize(s, 256*1024)}
	for ctx.Err() == nil {
		id, path, err := c.readRequest()
		if err != nil {
			if errors.Is(err, ErrStreamClosed) || errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		switch id {
		case syncQUIT:
			return nil
		case syncSTAT:
			err = c.statV1(path)
		case syncSTA2, syncLST2:
			err = c.statV2(id, path)
		case syncLIST:
			err = c.list(path, false)
		case syncLIS2:
			err = c.list(path, true)
		case syncSEND:
			err = c.send(path, false)
		case syncSND2:
			err = c.send(path, true)
		case syncRECV:
			err = c.recv(path, false)
		case syncRCV2:
			err = c.recv(path, true)
		default:
			err = c.fail(fmt.Sprintf("unknown sync command %q", id))
			if err == nil {
				err = fmt.Errorf("unknown sync command %q", id)
			}
		}
		if err == nil {
			err = c.w.Flush()
		}
		if err != nil {
			return fmt.Errorf("sync %s %s: %w", id, path, err)
		}
	}
	return nil
}

// readRequest reads {id, length} and the path that follows.
func (c *syncConn) readRequest() (string, string, error) {
	var h [8]byte
	if _, err := io.ReadFull(c.r, h[:]); err != nil {
		return "", "", err
	}
	id := string(h[:4])
	n := binary.LittleEndian.Uint32(h[4:])
	if id == syncQUIT {
		return id, "", nil
	}
	if n > syncPathMax {
		return "", "", fmt.Errorf("sync %s path of %d bytes over limit %d", id, n, syncPathMax)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(c.r, p); err != nil {
		return "", "", err
	}
	return id, string(p), nil
}

func (c *syncConn) u32(vs ...uint32) {
	var b [4]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint32(b[:], v)
		c.w.Write(b[:])
	}
}

func (c *syncConn) u64(vs ...uint64) {
	var b [8]byte
	for _, v := range vs {
		binary.LittleEndian.PutUint64(b[:], v)
		c.w.Write(b[:])
	}
}

func (c *syncConn) id(s string) { c.w.WriteString(s) }

func (c *syncConn) fail(msg string) error {
	c.id("FAIL")
	c.u32(uint32(len(msg)))
	c.w.WriteString(msg)
	return c.w.Flush()
}

func (c *syncConn) statV1(path string) error {
	info, err := c.fs.Stat(path)
	c.id(syncSTAT)
	if err != nil {
		c.u32(0, 0, 0)
		return nil
	}
	fi := statOf(info)
	c.u32(fi.Mode, uint32(fi.Size), uint32(fi.MTime.Unix()))
	return nil
}

// v2 stat: id, error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime.
func (c *syncConn) statBodyV2(fi fileStat, errno uint32, ino uint64) {
	if errno != 0 {
		c.u32(errno)
		c.u64(0, 0)
		c.u32(0, 0, 0, 0)
		c.u64(0, 0, 0, 0)
		return
	}
	t := uint64(fi.MTime.Unix())
	c.u32(0)
	c.u64(0xfd00, ino)
	c.u32(fi.Mode, 1, 2000, 1015) // shell uid, sdcard_rw gid, as on /sdcard
	c.u64(uint64(fi.Size), t, t, t)
}

func (c *syncConn) statV2(id, path string) error {
	info, err := c.fs.Stat(path)
	c.id(id)
	if err != nil {
		c.statBodyV2(fileStat{}, enoent, 0)
		return nil
	}
	c.statBodyV2(statOf(info), 0, inode(path))
	return nil
}

func inode(path string) uint64 {
	var h uint64 = 1469598103934665603
	for i := 0; i < len(path); i++ {
		h = (h ^ uint64(path[i])) * 1099511628211
	}
	return h & 0xffffff
}

func (c *syncConn) list(path string, v2 bool) error {
	infos, err := c.fs.List(path)
	var entries []fileStat
	if err == nil {
		var dot fileStat
		if info, err := c.fs.Stat(path); err == nil {
			dot = statOf(info)
		}
		dot.Name = "."
		entries = append(entries, dot, fileStat{Name: "..", Mode: sIFDIR | 0o755, Size: 4096, MTime: dot.MTime})
		for _, info := range infos {
			entries = append(entries, statOf(info))
		}
	}
	for _, e := range entries {
		if v2 {
			c.id("DNT2")
			c.statBodyV2(e, 0, inode(path+"/"+e.Name))
		} else {
			c.id("DENT")
			c.u32(e.Mode, uint32(e.Size), uint32(e.MTime.Unix()))
		}
		c.u32(uint32(len(e.Name)))
		c.w.WriteString(e.Name)
	}
	c.id(syncDONE)
	if v2 {
		c.statBodyV2(fileStat{}, 0, 0)
		c.u32(0)
	} else {
		c.u32(0, 0, 0, 0)
	}
	return nil
}

// send receives a file: SEND carries "path,mode"; SND2 carries the path and then a
// {SND2, mode, flags} record. DATA chunks follow until DONE with the mtime.
func (c *syncConn) send(spec string, v2 bool) error {
	path, mode := spec, uint32(0o644)
	var flags uint32
	if v2 {
		var h [12]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return err
		}
		if string(h[:4]) != syncSND2 {
			return fmt.Errorf("SND2 header has id %q", h[:4])
		}
		mode = binary.LittleEndian.Uint32(h[4:])
		flags = binary.LittleEndian.Uint32(h[8:])
	} else if i := strings.LastIndexByte(spec, ','); i >= 0 {
		path = spec[:i]
		if m, err := strconv.ParseUint(spec[i+1:], 10, 32); err == nil {
			mode = uint32(m)
		}
	}
	var data []byte
	var mtime uint32
	for {
		var h [8]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return err
		}
		n := binary.LittleEndian.Uint32(h[4:])
		switch string(h[:4]) {
		case syncDATA:
			if n > syncDataMax {
				return c.fail(fmt.Sprintf("DATA chunk of %d bytes over %d", n, syncDataMax))
			}
			start := len(data)
			data = append(data, make([]byte, n)...)
			if _, err := io.ReadFull(c.r, data[start:]); err != nil {
				return err
			}
			continue
		case syncDONE:
			mtime = n
		default:
			return c.fail(fmt.Sprintf("unexpected %q while receiving %s", h[:4], path))
		}
		break
	}
	if flags&^syncFlagDryRun != 0 {
		return c.fail(fmt.Sprintf("compressed transfers (flags 0x%x) are not supported", flags))
	}
	if flags&syncFlagDryRun == 0 {
		var t time.Time
		if mtime != 0 {
			t = time.Unix(int64(mtime), 0)
		}
		if err := c.fs.Push(path, data, fsPerm(mode), t); err != nil {
			return c.fail(fmt.Sprintf("couldn't create file: %v", err))
		}
	}
	c.id("OKAY")
	c.u32(0)
	return nil
}

func (c *syncConn) recv(path string, v2 bool) error {
	if v2 {
		var h [8]byte
		if _, err := io.ReadFull(c.r, h[:]); err != nil {
			return err
		}
		if flags := binary.LittleEndian.Uint32(h[4:]); flags != 0 {
			return c.fail(fmt.Sprintf("compressed transfers (flags 0x%x) are not supported", flags))
		}
	}
	data, err := c.fs.ReadFile(path)
	if err != nil {
		return c.fail(err.Error())
	}
	for len(data) > 0 {
		n := min(len(data), syncDataMax)
		c.id(syncDATA)
		c.u32(uint32(n))
		c.w.Write(data[:n])
		data = data[n:]
	}
	c.id(syncDONE)
	c.u32(0)
	return nil
}

// fsPerm keeps the permission bits of a pushed file's st_mode.
func fsPerm(mode uint32) iofs.FileMode { return iofs.FileMode(mode & 0o777) }
