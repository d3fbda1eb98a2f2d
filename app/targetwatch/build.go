package targetwatch

import (
	"context"
	"os/exec"
	"strings"
	"time"

	"fixthis/app/store"
)

// Build is the app build on the selected device plus the project's git state, as a
// handoff records it. ok is false when the app is not installed there (or there is
// no app module or no device): a handoff then records nothing.
func (w *Watcher) Build(ctx context.Context) (store.AppBuild, bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	w.forgetInstalled() // a handoff wants the build that is on the phone now
	d := w.Doc(ctx)
	if !d.Installed {
		return store.AppBuild{}, false
	}
	b := store.AppBuild{Package: d.ApplicationID, VersionName: d.VersionName, VersionCode: d.VersionCode, RecordedAt: time.Now()}
	if d.InstalledAt != nil {
		b.LastUpdateTime = *d.InstalledAt
	}
	b.GitHead, b.GitDirty = gitState(ctx, w.opts.ProjectDir)
	return b, true
}

// gitState returns the project's HEAD commit and whether its work tree has
// uncommitted changes; "" when it is not a git work tree (or git is missing).
func gitState(ctx context.Context, dir string) (head string, dirty bool) {
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", false
	}
	head = strings.TrimSpace(string(out))
	// .fixthis/ is FixThis's own store, not the user's edit.
	st, err := exec.CommandContext(ctx, "git", "-C", dir, "status", "--porcelain", "--", ".", ":(exclude).fixthis").Output()
	return head, err == nil && len(strings.TrimSpace(string(st))) > 0
}
