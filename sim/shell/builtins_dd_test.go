package shell

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// dd and stat answer as toybox 0.7.6 does: the bytes of the blocks asked for on
// stdout, the record counts and the bytes line on stderr, its errors word for word.
func TestDdAndStatAnswerAsToybox(t *testing.T) {
	fs := NewFS()
	data := make([]byte, 150000) // two full 64 KiB blocks and 18928 bytes
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := fs.MkdirAll("/data/app/x", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/data/app/x/base.apk", data, 0o644); err != nil {
		t.Fatal(err)
	}
	sh := New(fs)
	sh.Private = func(p string) bool { return strings.HasPrefix(p, "/data/user/0/") }
	const apk = "/data/app/x/base.apk"
	tests := []struct {
		script string
		stdout []byte
		stderr string // its start; the bytes line's time and rate vary
		status int
	}{
		{"dd if=" + apk + " bs=65536 skip=1 count=2", data[65536:], "1+1 records in\n1+1 records out\n84464 bytes (82 K) copied, ", 0},
		{"dd if=" + apk + " bs=64k count=1", data[:65536], "1+0 records in\n1+0 records out\n65536 bytes (64 K) copied, ", 0},
		{"dd if=" + apk + " bs=65536 skip=3 count=1", nil, "0+0 records in\n0+0 records out\n0 bytes (0 B) copied, ", 0},
		{"dd if=" + apk + " bs=65536 count=0", nil, "0+0 records in\n0+0 records out\n", 0},
		{"dd if=" + apk + " ibs=1000 obs=300 count=1", data[:1000], "1+0 records in\n3+1 records out\n1000 bytes (0.9 K) copied, ", 0},
		{"dd if=" + apk + " skip=2 count=3 status=noxfer", data[1024:2560], "3+0 records in\n3+0 records out\n", 0},
		{"dd if=" + apk + " bs=0x600 skip=01 count=1 status=none", data[1536:3072], "", 0},
		{"echo hello | dd bs=2 status=noxfer", []byte("hello\n"), "3+0 records in\n3+0 records out\n", 0},
		{"dd if=/nope bs=512", nil, "dd: /nope: No such file or directory\n", 1},
		{"dd if=/data/app bs=512", nil, "dd: /data/app: read error: Is a directory\n", 1},
		{"dd if=/data/user/0/com.x/f", nil, "dd: /data/user/0/com.x/f: Permission denied\n", 1},
		{"dd if=" + apk + " bs=0", nil, "dd: 0 < 1\n", 1},
		{"dd if=" + apk + " bs=1x", nil, "dd: not integer: 1x\n", 1},
		{"dd if=" + apk + " bs=1b", nil, "dd: not integer: 1b\n", 1},   // 0.7.6 matches b but does not move past it
		{"dd if=" + apk + " bs=1kd", nil, "dd: not integer: 1kd\n", 1}, // nor past the d after k
		{"stat -q " + apk, nil, "stat: Unknown option q (see \"stat --help\")\n", 1},
		{"dd if=" + apk + " skip=-1", nil, "dd: -1 < 0\n", 1},
		{"dd if=" + apk + " status=loud", nil, "dd: unknown status 'loud'\n", 1},
		{"dd " + apk, nil, "dd: bad arg " + apk + "\n", 1},
		{"stat -c %s " + apk, []byte("150000\n"), "", 0},
		{"stat -c '%n is %s' " + apk, []byte(apk + " is 150000\n"), "", 0},
		{"stat -c %s /nope " + apk, []byte("150000\n"), "stat: '/nope': No such file or directory\n", 1},
		{"stat -c %s /data/user/0/com.x/f", nil, "stat: '/data/user/0/com.x/f': Permission denied\n", 1},
		{"stat -c %s", nil, "stat: Needs 1 argument (see \"stat --help\")\n", 1},
		{"stat " + apk + " -c", nil, "stat: Missing argument to -c (see \"stat --help\")\n", 1},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		status := sh.Run(context.Background(), tc.script, bytes.NewReader(nil), &out, &errs)
		if status != tc.status || !bytes.Equal(out.Bytes(), tc.stdout) || !strings.HasPrefix(errs.String(), tc.stderr) {
			t.Errorf("%q: exit %d, %d bytes out (want %d, same %v), stderr %q; want exit %d, stderr %q…",
				tc.script, status, out.Len(), len(tc.stdout), bytes.Equal(out.Bytes(), tc.stdout), errs.String(), tc.status, tc.stderr)
		}
	}
}

// human_readable(…, HR_SPACE|HR_B) as dd's bytes line prints sizes and rates.
func TestHumanReadableAsToybox(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {999, "999 B"}, {1000, "0.9 K"}, {1536, "1.5 K"}, {65536, "64 K"},
		{1023487, "999 K"}, {4 << 20, "4.0 M"}, {35 << 20, "35 M"},
	} {
		if got := humanReadable(tc.n); got != tc.want {
			t.Errorf("humanReadable(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
