package device

import (
	"context"
	"fmt"
	"sync"

	"fixthis/app/source"
	"fixthis/capture"
)

// appIndexes keeps the source index each installed app carries, read once per
// install: the key is the APK's path, which a reinstall changes (Android 11+).
type appIndexes struct {
	mu   sync.Mutex
	byID map[string]appIndexEntry // serial|pkg → the last read
}

type appIndexEntry struct {
	apk  string
	idx  *source.AppIndex
	from string
	err  error
}

// AppSourceIndex is the FixThis source index the installed build of pkg on serial
// carries (schema 1.3), read from its APK by range (else unzip, the sidekick when one
// is connected, the whole APK: capture.ReadAPKSourceIndex), and kept until the app
// is reinstalled. It fails with capture.ErrNoAppSourceIndex when the build has none.
// from says where it was read (capture.IndexFromAPKRange, capture.IndexFromAPK or
// capture.IndexFromSidekick).
func (c *Capturer) AppSourceIndex(ctx context.Context, serial, pkg string) (idx *source.AppIndex, from string, err error) {
	dev := c.client.Device(serial)
	apk, err := capture.InstalledAPK(ctx, dev, pkg)
	if err != nil {
		return nil, "", err
	}
	key := serial + "|" + pkg
	c.appIndexes.mu.Lock()
	if c.appIndexes.byID == nil {
		c.appIndexes.byID = map[string]appIndexEntry{}
	}
	e, ok := c.appIndexes.byID[key]
	c.appIndexes.mu.Unlock()
	if ok && e.apk == apk {
		return e.idx, e.from, e.err
	}
	var sk *capture.SidekickClient
	if c.sidekicks.packageOf(serial) == pkg {
		sk, _ = c.sidekicks.forDevice(ctx, serial)
	}
	raw, err := capture.ReadAPKSourceIndex(ctx, dev, sk, apk)
	e = appIndexEntry{apk: apk, from: raw.From, err: err}
	if err == nil {
		if e.idx, err = source.ParseAppIndex(raw.Data); err != nil {
			e.err = fmt.Errorf("%s's source index (%s): %w", pkg, raw.From, err)
		}
	}
	if ctx.Err() == nil { // a cancelled read is not the install's answer
		c.appIndexes.mu.Lock()
		c.appIndexes.byID[key] = e
		c.appIndexes.mu.Unlock()
	}
	return e.idx, e.from, e.err
}
