package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"fixthis/adb"
	"fixthis/app/errcode"
)

// A file on the phone read by range: only the blocks a reader asks for cross the
// cable, each run of them one `dd` (toybox, /system/bin/dd since Android 6). It is
// how the source index comes out of an APK of any size: the zip's end record, its
// central directory and the entry's compressed bytes, a few hundred KiB for a 4 MiB
// index, where `unzip -p` sends the index inflated and `cat` the whole APK.
const (
	// rangeBlock is dd's bs=: the unit of the cache, so a read is block-aligned.
	rangeBlock = 64 << 10
	// rangeTail is what the first round trip reads from the end of the file: the
	// zip's end record and, for most APKs, the whole central directory after it.
	rangeTail = 4 * rangeBlock
	// rangeAheadMax bounds one dd's read-ahead (a central directory past rangeTail
	// is read up to the cached tail in one round trip, within this).
	rangeAheadMax = 8 << 20
	// rangeMax bounds what one read may bring over: a zip whose directory claims
	// more is refused rather than read whole, block by block.
	rangeMax = 48 << 20
)

// errRangeUnavailable wraps why the phone could not be read by range (no stat or
// dd, permission denied, an answer of the wrong length); the caller falls back.
var errRangeUnavailable = errors.New("the phone cannot read the APK by range")

// phoneFile is an io.ReaderAt over one file on the phone, for archive/zip. Blocks
// read are kept, so the zip reader's small reads (the end record, the directory
// through a 4 KiB buffer, the local header) cost no more round trips. Not safe for
// concurrent use.
type phoneFile struct {
	ctx  context.Context
	dev  Device
	path string
	size int64
	// ahead is how many bytes a miss reads past what was asked, stopping at the
	// next cached block: the caller sets it to what it knows it will read next.
	ahead  int64
	blocks map[int64][]byte // block index → its bytes (the last one may be short)
	// trips and fetched count dd round trips and the bytes they brought.
	trips   int
	fetched int64
}

// openPhoneFile stats path (`stat -c %s`, toybox) and returns a reader over it.
func openPhoneFile(ctx context.Context, dev Device, path string) (*phoneFile, error) {
	res, err := dev.Shell(ctx, adb.Command("stat", "-c", "%s", path))
	if err != nil {
		return nil, fmt.Errorf("%w: stat: %w", errRangeUnavailable, err)
	}
	if res.ExitCode != 0 {
		return nil, fmt.Errorf("%w: stat exit %d: %s", errRangeUnavailable, res.ExitCode, errcode.Quote(strings.TrimSpace(string(res.Stderr))))
	}
	out := strings.TrimSpace(string(res.Stdout))
	size, err := strconv.ParseInt(out, 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("%w: stat printed %s, not a size", errRangeUnavailable, errcode.Quote(out))
	}
	return &phoneFile{ctx: ctx, dev: dev, path: path, size: size, blocks: map[int64][]byte{}}, nil
}

// ReadAt reads len(p) bytes at off, fetching the blocks not cached yet.
func (f *phoneFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("read %s at %d: negative offset", f.path, off)
	}
	if off >= f.size {
		return 0, io.EOF
	}
	end := min(off+int64(len(p)), f.size)
	if err := f.load(off/rangeBlock, (end-1)/rangeBlock); err != nil {
		return 0, err
	}
	n := 0
	for pos := off; pos < end; {
		b := f.blocks[pos/rangeBlock]
		c := copy(p[n:end-off], b[pos%rangeBlock:])
		n += c
		pos += int64(c)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// prefetch loads the bytes [off, off+n) in as few round trips as the cache allows.
func (f *phoneFile) prefetch(off, n int64) error {
	off = max(0, off)
	end := min(off+n, f.size)
	if end <= off {
		return nil
	}
	return f.load(off/rangeBlock, (end-1)/rangeBlock)
}

// load makes blocks first..last cached: each run of missing ones is one dd,
// extended by f.ahead up to the next cached block or the end of the file.
func (f *phoneFile) load(first, last int64) error {
	lastBlock := (f.size - 1) / rangeBlock
	for b := first; b <= last; b++ {
		if _, ok := f.blocks[b]; ok {
			continue
		}
		stop := min(lastBlock, max(last, b+(min(f.ahead, rangeAheadMax)+rangeBlock-1)/rangeBlock))
		for k := b + 1; k <= stop; k++ {
			if _, ok := f.blocks[k]; ok {
				stop = k - 1
				break
			}
		}
		if err := f.fetch(b, stop-b+1); err != nil {
			return err
		}
		b = stop
	}
	return nil
}

// fetch reads count blocks from block skip with one dd. dd's record counts go to
// stderr, which the shell v2 protocol keeps apart; stdout must be exactly the
// bytes asked for (without shell v2, stderr lands in stdout and the length tells).
func (f *phoneFile) fetch(skip, count int64) error {
	want := min(count*rangeBlock, f.size-skip*rangeBlock)
	if f.fetched+want > rangeMax {
		return fmt.Errorf("read %s by range: more than %d bytes asked for", f.path, rangeMax)
	}
	cmd := adb.Command("dd", "if="+f.path, "bs="+strconv.Itoa(rangeBlock), "skip="+strconv.FormatInt(skip, 10), "count="+strconv.FormatInt(count, 10))
	res, err := f.dev.Shell(f.ctx, cmd)
	f.trips++
	if err != nil {
		return fmt.Errorf("%w: dd: %w", errRangeUnavailable, err)
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("%w: dd exit %d: %s", errRangeUnavailable, res.ExitCode, errcode.Quote(strings.TrimSpace(string(res.Stderr))))
	}
	if int64(len(res.Stdout)) != want {
		return fmt.Errorf("%w: dd gave %d bytes of %s at block %d, want %d", errRangeUnavailable, len(res.Stdout), f.path, skip, want)
	}
	f.fetched += want
	for i := int64(0); i < count; i++ {
		f.blocks[skip+i] = res.Stdout[i*rangeBlock : min((i+1)*rangeBlock, want)]
	}
	return nil
}
