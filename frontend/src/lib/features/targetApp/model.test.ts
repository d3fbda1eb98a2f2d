import { describe, expect, it } from 'vitest';
import { ago, applyTargetAppDoc, applyRunFinished, applyRunProgress, notInFront, overall, staleMark, type TargetAppModel } from './model';
import { runFinished } from '../../testing/fixtures';
import type { TargetAppDoc } from '../../wire.gen';

const doc = (over: Partial<TargetAppDoc> = {}): TargetAppDoc => ({
  available: true, applicationId: 'com.fixthis.demo', label: 'Trailhead', launcherActivity: 'com.fixthis.demo.MainActivity',
  module: ':app', gradlew: true, serial: 'sim', installed: true, versionName: '2.4.1', sourcesNewerThanInstall: false,
  foreground: true, focusedPackage: 'com.fixthis.demo', ...over,
});

describe('app events', () => {
  it('tracks a run from progress to finish', () => {
    const m: TargetAppModel = { doc: doc(), run: null, finished: null };
    applyRunProgress(m, { runId: 'r1', stage: 'build', fraction: -1, message: './gradlew :app:assembleDebug' });
    expect(m.run?.fraction).toBe(-1);
    applyRunProgress(m, { runId: 'r1', stage: 'build', fraction: 0.5, task: ':app:compileDebugKotlin', tasks: 12 });
    expect(m.run).toMatchObject({ stage: 'build', fraction: 0.4, task: ':app:compileDebugKotlin', tasks: 12, message: './gradlew :app:assembleDebug' });
    applyRunProgress(m, { runId: 'r1', stage: 'install', fraction: 1 });
    expect(m.run?.fraction).toBeCloseTo(0.92);
    expect(m.run?.task).toBe('');
    // Another run's end does not end this one.
    expect(applyRunFinished(m, runFinished({ runId: 'r0', ok: true }))).toBe(false);
    applyRunFinished(m, runFinished({ runId: 'r1', ok: true }));
    expect(m.run).toBeNull();
    expect(m.finished?.runId).toBe('r1');
  });

  it('learns of a run in progress from target-app-updated after a reload', () => {
    const m: TargetAppModel = { doc: null, run: null, finished: null };
    applyTargetAppDoc(m, doc({ running: { runId: 'r2', last: { stage: 'install', fraction: 0.5 } } }));
    expect(m.run).toMatchObject({ runId: 'r2', stage: 'install' });
    expect(m.run?.fraction).toBeCloseTo(0.86);
  });

  it('does not bring back a finished run from a document read before it ended', () => {
    const m: TargetAppModel = { doc: doc(), run: null, finished: null };
    applyRunProgress(m, { runId: 'r3', stage: 'confirm', fraction: 1 });
    applyRunFinished(m, runFinished({ runId: 'r3', ok: true }));
    applyTargetAppDoc(m, doc({ running: { runId: 'r3', last: { stage: 'confirm', fraction: 1 } } }));
    applyRunProgress(m, { runId: 'r3', stage: 'confirm', fraction: 1 });
    expect(m.run).toBeNull();
    // The next run still shows.
    applyTargetAppDoc(m, doc({ running: { runId: 'r4', last: { stage: 'build', fraction: -1 } } }));
    expect(m.run?.runId).toBe('r4');
  });

  it('says when the install is older than the last edit', () => {
    expect(staleMark(doc())).toBe('');
    const stale = doc({ sourcesNewerThanInstall: true, installedAt: '2026-12-01T08:00:00Z', lastEditAt: '2026-12-01T10:05:00Z' });
    expect(staleMark(stale)).toBe('Installed 2 h before your last edit');
    expect(ago(90_000)).toBe('2 min');
    expect(ago(3 * 86_400_000)).toBe('3 d');
  });

  it('shows the not-in-front notice only for an installed app another window covers', () => {
    expect(notInFront(doc(), null)).toBe(false);
    const covered = doc({ foreground: false, focusedPackage: 'com.google.android.apps.nexuslauncher' });
    expect(notInFront(covered, null)).toBe(true);
    expect(notInFront(covered, { runId: 'r', stage: 'build', fraction: -1, message: '', task: '', tasks: 0 })).toBe(false);
    expect(notInFront(doc({ foreground: false, installed: false, focusedPackage: 'x' }), null)).toBe(false);
    expect(overall('launch', -1)).toBeCloseTo(0.92);
  });
});
