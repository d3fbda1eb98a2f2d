// Devices: choosing one, refreshing the list, clearing the choice, taps on the live
// preview, and the stage size and frame images the preview is drawn with.
import { applyPreview } from '../features/session/model';
import { app } from '../features/session/state.svelte';
import { ui } from '../state/ui.svelte';
import type { Transport } from '../transport';
import { report } from './report';
import { announce } from '../features/voice/actions';

export async function selectDevice(transport: Transport, serial: string): Promise<void> {
  ui.devicesOpen = false;
  try {
    const r = await transport.api.selectDevice(serial);
    app.selectedSerial = r.selectedSerial;
  } catch (err) {
    report(err, 'Could not select the device');
  }
}

export async function refreshDevices(transport: Transport): Promise<void> {
  try {
    const r = await transport.api.refreshDevices();
    app.setDevices(r.devices, r.selectedSerial);
    const n = app.devices.length;
    app.notify('info', `${n === 0 ? 'No devices found' : `${n} device${n === 1 ? '' : 's'} found`}.`, { topic: 'devices' });
  } catch (err) {
    report(err, 'Could not refresh devices');
  }
}

/** Clears FixThis's own selection only; it never runs adb disconnect. */
export async function disconnectDevice(transport: Transport): Promise<void> {
  try {
    const r = await transport.api.disconnectDevice();
    app.selectedSerial = r.selectedSerial ?? '';
  } catch (err) {
    report(err, 'Could not clear the device selection');
  }
}

export async function tapDevice(transport: Transport, x: number, y: number): Promise<void> {
  try {
    await transport.api.tap(x, y);
    announce(transport, { kind: 'click', mode: 'select', x: Math.round(x), y: Math.round(y) });
  } catch (err) {
    report(err, 'The tap did not reach the device');
  }
}

/** Tells the server how tall the stage draws frames, in device pixels. */
export function reportStageHeight(transport: Transport, height: number): Promise<unknown> {
  return transport.api.setStageHeight(height);
}

/**
 * An object URL for a frame image, fetched with the token in a header so the token
 * never sits in the page. The caller revokes it when it is replaced.
 */
export function frameObjectUrl(transport: Transport, path: string): Promise<string> {
  return transport.api.blobUrl(path);
}

/** Retry capture: a preview request wakes the capture loop at once. */
export async function retryCapture(transport: Transport): Promise<void> {
  try {
    applyPreview(app, await transport.api.preview());
  } catch {
    // the card stays; the loop keeps retrying by itself
  }
}
