package display_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"fixthis/adb"
	"fixthis/app/display"
	"fixthis/app/errcode"
	"fixthis/internal/fulldisk"
)

// countingShell counts the command lines that reach the phone.
type countingShell struct {
	inner display.Shell
	n     atomic.Int32
}

func (c *countingShell) Shell(ctx context.Context, cmd string) (adb.ShellResult, error) {
	c.n.Add(1)
	return c.inner.Shell(ctx, cmd)
}

func TestBadValuesNeverReachThePhone(t *testing.T) {
	p := startPhone(t)
	m := open(t, filepath.Join(t.TempDir(), "d.json"))
	sh := &countingShell{inner: p.h}
	tg := p.target()
	tg.Shell = sh
	// An app in front that has no languages of its own: the phone would refuse to
	// read them, so only the grammar may answer these.
	tg.Package = "com.not.installed"
	huge := "en-" + strings.Repeat("abcde-", 150_000) + "abcde"
	for _, c := range []struct {
		name string
		ch   display.Change
		want string
	}{
		{"command after a tag", display.Change{Locale: ptr("en-US; reboot")}, "is not a BCP 47 language tag"},
		{"command substitution", display.Change{Locale: ptr("$(reboot)")}, "is not a BCP 47 language tag"},
		{"back quotes", display.Change{Locale: ptr("`reboot`")}, "is not a BCP 47 language tag"},
		{"NUL", display.Change{Locale: ptr("en\x00US")}, "is not a BCP 47 language tag"},
		{"a 900 KB tag of valid variants", display.Change{Locale: ptr(huge)}, "is too long for a language tag: at most 35"},
		{"36 characters", display.Change{Locale: ptr("sr-Latn-RS-abcdefgh-abcdefgh-abcdefg")}, "is too long"},
		{"negative density", display.Change{Density: ptr(-1)}, "density -1 is out of range"},
		{"font scale with a tag", display.Change{FontScale: ptr(9.0), Locale: ptr("ar")}, "fontScale 9 is out of range"},
	} {
		_, err := m.Set(context.Background(), tg, c.ch)
		if errcode.Of(err) != errcode.OutOfRange || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want OUT_OF_RANGE with %q", c.name, err, c.want)
		}
		if err != nil && len(err.Error()) > 200 {
			t.Errorf("%s: the refusal is %d bytes: %.80q…", c.name, len(err.Error()), err.Error())
		}
	}
	if n := sh.n.Load(); n != 0 {
		t.Fatalf("%d commands reached the phone for values the grammar refuses", n)
	}
	if m.Changed(p.Serial()) {
		t.Fatal("refused changes saved originals")
	}
}

func TestTheLanguageTagLimitHoldsAt35(t *testing.T) {
	at := "sr-Latn-RS-abcdefgh-abcdefgh-abcde" // 34
	for tag, ok := range map[string]bool{at: true, at + "f": true, at + "fg": false} {
		if err := display.CheckLocale(tag); (err == nil) != ok {
			t.Errorf("%q (%d characters): %v", tag, len(tag), err)
		}
	}
}

func TestAFullDiskRefusesTheChangeAndLeavesNoTempFile(t *testing.T) {
	p := startPhone(t)
	disk := fulldisk.Mount(t, ".fixthis")
	data := filepath.Join(disk, ".fixthis")
	m := open(t, filepath.Join(data, "display-originals.json"))
	before := p.frame(t)
	for range 2 { // the second try must not think the originals are kept
		_, err := m.Set(context.Background(), p.target(), display.Change{Night: ptr(true)})
		if errcode.Of(err) != errcode.StorageFull {
			t.Fatalf("set on a full disk: %v", err)
		}
		if msg := err.Error(); strings.Contains(msg, disk) || !strings.Contains(msg, "free some space") ||
			!strings.Contains(msg, "were not changed") {
			t.Fatalf("message %q: want no absolute path, what to do and that the phone is as it was", msg)
		}
	}
	left, _ := os.ReadDir(data)
	if len(left) != 0 {
		t.Fatalf("left on the full disk: %v", left)
	}
	if m.Changed(p.Serial()) {
		t.Fatal("originals that are on no disk count as kept")
	}
	if fingerprint(p.frame(t)) != fingerprint(before) {
		t.Fatal("the phone changed although its originals could not be saved")
	}
	// Space again: the same change goes through and is restorable.
	if err := os.Remove(filepath.Join(disk, fulldisk.Filler)); err != nil {
		t.Fatal(err)
	}
	set(t, m, p.target(), display.Change{Night: ptr(true)})
	if ok, err := m.Restore(context.Background(), p.target()); !ok || err != nil {
		t.Fatalf("restore: %v %v", ok, err)
	}
}
