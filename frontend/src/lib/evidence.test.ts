import { describe, expect, it } from 'vitest';
import { autoEvidenceText, captureLabel, kindLabel, proximityText, statusText, warningText } from './evidence';
import type { EvidenceAttempt, HandoffEvidence } from './wire.gen';

const attempt: EvidenceAttempt = {
  id: 'rc-1',
  package: 'com.fixthis.demo',
  startedAtEpochMillis: 0,
  durationMs: 40,
  status: 'partial',
  warnings: ['memory-timeout'],
  attachments: [
    { kind: 'logcat', status: 'complete', summary: 'no crash or ANR; 0 errors, 0 warnings in 4 app lines', durationMs: 20 },
    { kind: 'frames', status: 'complete', summary: '300 frames, 5 janky (1.67%)', durationMs: 18 },
    { kind: 'memory', status: 'failed', reason: 'timeout', summary: 'no memory stats: the device did not answer in time', durationMs: 2000 },
  ],
};

describe('runtime evidence text', () => {
  it('says what Auto collected, with its warnings', () => {
    const h: HandoffEvidence = { decision: { attempted: true, status: 'partial', warnings: ['memory-timeout'] }, attempt };
    expect(autoEvidenceText(h)).toBe('Diagnostics partial: collected log, frames (memory: timeout).');
  });
  it('says when nothing was collected and why', () => {
    expect(autoEvidenceText({ decision: { attempted: false, status: 'skipped', reason: 'manual' } })).toBe('Diagnostics: Manual, nothing collected automatically.');
    expect(autoEvidenceText({ decision: { attempted: false, status: 'skipped', reason: 'off' } })).toBe('Diagnostics: Off, nothing collected.');
    expect(autoEvidenceText({ decision: { attempted: true, status: 'unsupported', failure: 'no-device', warnings: ['logcat-no-device'] } })).toBe(
      'Diagnostics unsupported: collected nothing (logcat: no device).',
    );
    expect(autoEvidenceText(undefined)).toBe('');
  });
  it('labels statuses, kinds, warnings and the button', () => {
    expect(statusText('unsupported')).toBe('Unsupported');
    expect(kindLabel('frames')).toBe('Frames');
    expect(warningText('frames-process-not-running')).toBe('frames: process not running');
    expect(captureLabel([])).toBe('Capture diagnostics');
    expect(captureLabel([attempt])).toBe('Capture again');
  });
  it('says how long after the freeze a capture ran', () => {
    const frozen = '2026-12-01T09:41:00Z';
    expect(proximityText(Date.parse(frozen) + 12_400, frozen)).toBe('12 s after the freeze');
    expect(proximityText(Date.parse(frozen) + 600_000, frozen)).toBe('10 min after the freeze');
  });
});
