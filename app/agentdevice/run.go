package agentdevice

import (
	"context"
	"errors"

	"fixthis/app/errcode"
	"fixthis/app/project"
	"fixthis/app/targetrun"
)

// RunApp builds, installs and launches the project's app on the device through
// targetrun, the code `fixthis run` uses, once the user allows control of the device.
func (p *Phone) RunApp(ctx context.Context, serial string, in RunAppInput, progress func(targetrun.Progress)) (*targetrun.Result, error) {
	t, err := p.o.Pick(ctx, serial)
	if err != nil {
		return nil, err
	}
	if p.o.ProjectDir == "" {
		return nil, errcode.New(errcode.AppNotAvailable, "no project directory; start FixThis with --project-dir")
	}
	proj, err := project.Load(p.o.ProjectDir)
	if err != nil {
		return nil, errcode.Wrap(errcode.AppNotAvailable, err, "%v", err)
	}
	if err := p.allowed(ctx, t); err != nil {
		p.record(ctx, t.Serial, "run", "was not allowed to run the app", "refused")
		return nil, err
	}
	consoleProgress, finish := func(targetrun.Progress) {}, func(targetrun.Result, error) {}
	if p.o.TrackRun != nil {
		if consoleProgress, finish, err = p.o.TrackRun(); err != nil {
			p.record(ctx, t.Serial, "run", "could not run the app: another build is in progress", "refused")
			return nil, err
		}
	}
	res, err := targetrun.Run(ctx, p.o.ADB.Device(t.Serial), targetrun.Options{
		Project: proj, Module: in.Module, Variant: in.Variant, Serial: t.Serial, NoBuild: in.NoBuild, Reinstall: in.Reinstall,
		Progress: func(pr targetrun.Progress) {
			consoleProgress(pr)
			progress(pr)
		},
	})
	finish(res, err)
	if err != nil {
		p.record(ctx, t.Serial, "run", "run failed: "+firstLine(err.Error()), "failed")
		var be *targetrun.BuildError
		if errors.As(err, &be) {
			return nil, errcode.Wrap(errcode.BuildFailed, err, "%v", err)
		}
		return nil, errcode.Wrap(errcode.AppLaunchFailed, err, "%v", err)
	}
	p.record(ctx, t.Serial, "run", "built, installed and launched "+res.ApplicationID, "ok")
	if p.o.AfterAction != nil {
		p.o.AfterAction(t.Serial)
	}
	return &res, nil
}
