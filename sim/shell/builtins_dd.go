// Toybox's dd and stat, as Android 9 ships them (toybox 0.7.6, in /system/bin since
// Android 6): the forms a host sends to read part of a file, `stat -c %s FILE` for
// its size and `dd if=FILE bs=N skip=K count=M` for a run of blocks.
package shell

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// cmdDd follows toybox 0.7.6 toys/pending/dd.c dd_main (:106-249) on a file of the
// device or stdin, written to stdout: operands if= bs= ibs= obs= count= skip=
// status= (:116-133); a number takes atolx's suffixes (lib/lib.c:296-316). Reads
// are ibs bytes (the last one short), each a full or a partial record in
// (:219-226); with bs= each read is written as it came (:229-233), else in obs
// blocks with the rest written at the end (:235-240, write_out :81-97). A skip past
// the end reads nothing (:171-172, lseek succeeds). At the end status() prints the
// records and the bytes line to stderr (:60-79); toybox's current toys/posix/dd.c
// (:75-80, what Android 10+ ship) prints the same two lines. of=, seek= and conv=
// (writing to a file) are left out: the host never sends them; they answer "bad arg".
func cmdDd(e *Env) int {
	in, out, bs := int64(512), int64(512), int64(0) // :115, default io block size
	count, skip := int64(-1), int64(0)
	name := ""
	showRecords, showXfer := true, true
	for _, arg := range e.Args[1:] {
		key, val, ok := strings.Cut(arg, "=")
		var err string
		switch {
		case !ok:
			err = "bad arg " + arg
		case key == "bs":
			bs, err = ddNumber(val, 1)
		case key == "ibs":
			in, err = ddNumber(val, 1)
		case key == "obs":
			out, err = ddNumber(val, 1)
		case key == "count":
			count, err = ddNumber(val, 0)
		case key == "skip":
			skip, err = ddNumber(val, 0)
		case key == "if":
			name = val
		case key == "status" && val == "noxfer":
			showXfer = false
		case key == "status" && val == "none":
			showXfer, showRecords = false, false
		case key == "status":
			err = "unknown status '" + val + "'"
		default:
			err = "bad arg " + arg
		}
		if err != "" {
			return e.Errorf(1, "dd: %s\n", err) // error_exit, lib/lib.c:44-52
		}
	}
	if bs > 0 { // :146
		in, out = bs, bs
	}
	start := time.Now()
	var data []byte
	switch {
	case name == "":
		data, _ = io.ReadAll(e.Stdin)
	case e.private(name):
		return e.Errorf(1, "dd: %s: Permission denied\n", name) // xopen's perror_exit_raw
	default:
		d, err := e.Shell.FS.ReadFile(e.Resolve(name))
		if err == ErrIsDir { // open succeeds, read fails: :211-212
			return e.Errorf(1, "dd: %s: read error: %v\n", name, err)
		}
		if err != nil {
			return e.Errorf(1, "dd: %s: %v\n", name, err)
		}
		data = d
	}
	pos := min(skip*in, int64(len(data)))
	var inFull, inPart, outFull, outPart, bytes int64
	var pending []byte
	write := func(all bool) { // write_out, :81-97
		for len(pending) > 0 {
			n := out
			if all {
				n = int64(len(pending))
			}
			all = false
			e.Stdout.Write(pending[:n])
			if n == out {
				outFull++
			} else {
				outPart++
			}
			pending, bytes = pending[n:], bytes+n
			if int64(len(pending)) < out {
				break
			}
		}
	}
	for count < 0 || inFull+inPart < count {
		n := min(in, int64(len(data))-pos)
		if n == 0 {
			break
		}
		if n == in {
			inFull++
		} else {
			inPart++
		}
		pending = append(pending, data[pos:pos+n]...)
		pos += n
		if bs > 0 {
			write(true)
		} else if int64(len(pending)) >= out {
			write(false)
		}
	}
	if len(pending) > 0 {
		write(true)
	}
	if showRecords {
		e.Errorf(0, "%d+%d records in\n%d+%d records out\n", inFull, inPart, outFull, outPart)
	}
	if showXfer {
		secs := max(time.Since(start).Seconds(), 1e-6)
		e.Errorf(0, "%d bytes (%s) copied, %f s, %s/s\n", bytes, humanReadable(bytes), secs, humanReadable(int64(float64(bytes)/secs)))
	}
	return 0
}

// ddNumber is atolx_range(arg, low, LLONG_MAX) as toybox 0.7.6 has it
// (lib/lib.c:296-325): strtoll's base-0 integer (0x hex, leading 0 octal), then an
// optional suffix k m g t p e, ×1024 a step. The suffixes c w b and a d after k–e
// (×1000) are matched there but the pointer is not moved past them (lib.c:304-310),
// so "not integer" follows (lib.c:313): 0.7.6's dd takes none of them. An error is
// error_exit's text.
func ddNumber(s string, low int64) (int64, string) {
	sign := 0
	if sign < len(s) && (s[sign] == '+' || s[sign] == '-') {
		sign++
	}
	i, base, digits := sign, 10, "0123456789"
	switch {
	case strings.HasPrefix(strings.ToLower(s[i:]), "0x"):
		i, base, digits = i+2, 16, "0123456789abcdefABCDEF"
	case strings.HasPrefix(s[i:], "0"):
		base, digits = 8, "01234567"
	}
	j := i
	for j < len(s) && strings.IndexByte(digits, s[j]) >= 0 {
		j++
	}
	v, err := strconv.ParseInt(s[:sign]+s[i:j], base, 64)
	if err != nil {
		return 0, "not integer: " + s
	}
	rest := s[j:]
	if rest != "" {
		if shift := strings.IndexByte("kmgtpe", toLowerASCII(rest[0])) + 1; shift > 0 {
			v <<= 10 * shift
			rest = rest[1:]
		}
		if strings.TrimLeft(rest, " \t\n\v\f\r") != "" {
			return 0, "not integer: " + s
		}
	}
	if v < low {
		return 0, fmt.Sprintf("%d < %d", v, low)
	}
	return v, ""
}

func toLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// humanReadable is toybox 0.7.6 human_readable(buf, n, HR_SPACE|HR_B)
// (lib/lib.c:1077-1106): at most three digits, rounding up at each 1024, one
// decimal for a single digit, then " B" or a space and K M G T P E.
func humanReadable(n int64) string {
	num, snap, unit := uint64(n), uint64(0), 0
	for ; num > 999; unit++ {
		snap = num
		num = (num + 512) / 1024
	}
	s := strconv.FormatUint(num, 10)
	if unit > 0 && len(s) == 1 {
		whole := snap / 1024
		frac := ((snap-whole*1024)*100 + 50) / 1024 / 10
		s = fmt.Sprintf("%d.%d", whole, frac)
	}
	if unit == 0 {
		return s + " B"
	}
	return s + " " + string(" KMGTPE"[unit])
}

// cmdStat is toybox 0.7.6 toys/other/stat.c with -c FORMAT (:5 "<1c:fLt", :190):
// for each FILE the format with %s its size in bytes (:120) and %n its name
// (:208), then a newline (:214); a file lstat cannot reach is
// "stat: 'FILE': No such file or directory", exit 1, and the next one goes on
// (:196-198). The default long format and the other escapes are left out: the
// host sends only -c %s.
func cmdStat(e *Env) int {
	args := e.Args[1:]
	format := ""
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" && i+1 < len(args):
			format, i = args[i+1], i+1
		case a == "-c":
			return e.Errorf(1, "stat: Missing argument to -c (see \"stat --help\")\n") // lib/args.c:186-190
		case strings.HasPrefix(a, "-c"):
			format = a[2:]
		case a == "-f" || a == "-L" || a == "-t": // toybox's other options ("<1c:fLt"), not simulated
			return e.Errorf(1, "stat: %s is not simulated\n", a)
		case strings.HasPrefix(a, "-") && a != "-":
			return e.Errorf(1, "stat: Unknown option %s (see \"stat --help\")\n", a[1:]) // lib/args.c:139 prints the option without its dash
		default:
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		return e.Errorf(1, "stat: Needs 1 argument (see \"stat --help\")\n") // lib/args.c:383, :477-479
	}
	if format == "" {
		return e.Errorf(1, "stat: only -c FORMAT is simulated\n")
	}
	status := 0
	for _, f := range files {
		if e.private(f) {
			status = e.Errorf(1, "stat: '%s': Permission denied\n", f)
			continue
		}
		fi, err := e.Shell.FS.Stat(e.Resolve(f))
		if err != nil {
			status = e.Errorf(1, "stat: '%s': %v\n", f, err)
			continue
		}
		var b strings.Builder
		for i := 0; i < len(format); i++ {
			if format[i] != '%' || i+1 == len(format) {
				b.WriteByte(format[i])
				continue
			}
			i++
			switch format[i] {
			case 's':
				b.WriteString(strconv.FormatInt(fi.Size(), 10))
			case 'n':
				b.WriteString(f)
			default:
				return e.Errorf(1, "stat: only %%s and %%n are simulated, not %%%c\n", format[i])
			}
		}
		e.Printf("%s\n", b.String())
	}
	return status
}
