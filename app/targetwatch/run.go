package targetwatch

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fixthis/app/errcode"
	"fixthis/app/targetrun"
)

// RunProgress is the target-app-run-progress event's payload.
type RunProgress struct {
	RunID string `json:"runId"`
	targetrun.Progress
}

// RunFinished is the target-app-run-finished event's payload.
type RunFinished struct {
	RunID  string           `json:"runId"`
	OK     bool             `json:"ok"`
	Result targetrun.Result `json:"result"`
	// Error says what failed; Lines carry Gradle's and the compiler's error lines
	// when the build failed.
	Error string          `json:"error,omitempty"`
	Stage targetrun.Stage `json:"stage,omitempty"` // the stage that failed
	Lines []string        `json:"lines,omitempty"`
}

// RunStarted is POST /api/target-app/run's answer.
type RunStarted struct {
	RunID string `json:"runId"`
}

// StartRun builds, installs and launches the app on the selected device in the
// background; progress and the outcome go out as events. One run at a time.
func (w *Watcher) StartRun() (RunStarted, error) {
	w.reload()
	p, _, err := w.module()
	if err != nil {
		return RunStarted{}, err
	}
	serial := w.opts.Selected()
	if serial == "" {
		return RunStarted{}, errcode.New(errcode.DeviceNotAvailable, "no device is selected; connect one or start the demo device")
	}
	t, err := w.Track()
	if err != nil {
		return RunStarted{}, err
	}
	go func() {
		res, err := targetrun.Run(w.ctx, w.opts.ADB.Device(serial), targetrun.Options{
			Project: p, Serial: serial, FocusTimeout: 15 * time.Second, Progress: t.Progress,
		})
		t.Finish(res, err)
	}()
	return RunStarted{RunID: t.RunID}, nil
}

// Tracked is one run the console shows: its progress goes out as target-app-run-progress
// events and its outcome as target-app-run-finished.
type Tracked struct {
	RunID string
	// Progress takes targetrun's progress reports.
	Progress func(targetrun.Progress)
	// Finish ends the run with targetrun.Run's outcome and frees the run slot; it must be
	// called exactly once.
	Finish func(targetrun.Result, error)
}

// Track takes the one run slot for a run and returns what reports it. The console's
// own runs use it, and so do agents' (fixthis_run_app), so the console shows an
// agent's build as its own and two builds never run at once: while one runs, Track
// fails with AppRunBusy.
func (w *Watcher) Track() (*Tracked, error) {
	w.mu.Lock()
	if w.running != nil {
		id := w.running.RunID
		w.mu.Unlock()
		return nil, errcode.Wrap(errcode.AppRunBusy, ErrBusy, "run %s is still in progress", id)
	}
	w.runSeq++
	id := fmt.Sprintf("run-%d-%d", time.Now().Unix(), w.runSeq)
	w.running = &RunState{RunID: id, Last: targetrun.Progress{Stage: targetrun.StageBuild, Fraction: -1}}
	w.mu.Unlock()
	w.Poke()

	var lastSent time.Time
	stage := targetrun.StageBuild
	progress := func(pr targetrun.Progress) {
		w.mu.Lock()
		if w.running != nil {
			w.running.Last = pr
		}
		w.mu.Unlock()
		// Gradle can print thousands of lines: send at most ~7 a second, but every
		// stage change and every step message.
		if pr.Stage == stage && pr.Message == "" && time.Since(lastSent) < 150*time.Millisecond {
			return
		}
		lastSent, stage = time.Now(), pr.Stage
		RunProgressEvent.Publish(w.opts.Bus, RunProgress{RunID: id, Progress: pr})
	}
	finish := func(res targetrun.Result, err error) {
		fin := RunFinished{RunID: id, OK: err == nil, Result: res}
		if err != nil {
			fin.Error, fin.Stage = err.Error(), stage
			var be *targetrun.BuildError
			if errors.As(err, &be) {
				fin.Error = fmt.Sprintf("The build failed (%s, exit %d); nothing was installed.", be.Task, be.ExitCode)
				fin.Lines = be.Lines
			}
			w.log.Info("app run failed", "run", id, "stage", stage, "err", err)
		}
		w.mu.Lock()
		w.running = nil
		w.mu.Unlock()
		w.forgetInstalled()
		RunFinishedEvent.Publish(w.opts.Bus, fin)
		w.refresh(w.ctx, true)
	}
	return &Tracked{RunID: id, Progress: progress, Finish: finish}, nil
}

// Launch brings the installed app to the front (no build) and waits until its
// window has focus.
func (w *Watcher) Launch(ctx context.Context) (targetrun.Result, error) {
	p, _, err := w.module()
	if err != nil {
		return targetrun.Result{}, err
	}
	serial := w.opts.Selected()
	if serial == "" {
		return targetrun.Result{}, errcode.New(errcode.DeviceNotAvailable, "no device is selected")
	}
	res, err := targetrun.Run(ctx, w.opts.ADB.Device(serial), targetrun.Options{
		Project: p, Serial: serial, NoBuild: true, FocusTimeout: 10 * time.Second,
	})
	w.Poke()
	if err != nil {
		if errors.Is(err, targetrun.ErrNotInstalled) {
			return res, errcode.Wrap(errcode.AppNotInstalled, err, "%v", err)
		}
		return res, errcode.Wrap(errcode.AppLaunchFailed, err, "%v", err)
	}
	return res, nil
}
