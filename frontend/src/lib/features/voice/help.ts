// What to tell the user when the microphone or the key stands in the way, worded for
// where the console runs: the FixThis window on each OS, or a browser.
import type { MicProblem } from './capture';

export type Platform = 'linux' | 'mac' | 'windows' | 'other';

export function platformOf(ua: string): Platform {
  if (/Windows/i.test(ua)) return 'windows';
  if (/Mac OS X|Macintosh/i.test(ua)) return 'mac';
  if (/Linux|X11/i.test(ua)) return 'linux';
  return 'other';
}

/** The FixThis window (Wails) rather than a browser tab. */
export function inDesktopWindow(loc: { protocol: string; hostname: string }): boolean {
  return loc.protocol === 'wails:' || loc.hostname === 'wails.localhost';
}

export function micHelp(problem: MicProblem, platform: Platform, desktop: boolean): string {
  if (problem === 'unsupported') {
    return 'This window has no microphone support. Open the console in Chromium or Firefox (`fixthis serve` prints its address) to talk.';
  }
  if (problem === 'no-device') {
    if (platform === 'linux') return 'No microphone was found. Check that PulseAudio or PipeWire runs and that an input device is chosen (Settings → Sound → Input, or pavucontrol), then press Talk again.';
    return 'No microphone was found. Connect one or choose an input device in the system sound settings, then press Talk again.';
  }
  if (problem === 'failed') return 'The microphone opened but audio processing did not start. Press Talk again; if it keeps failing, reload the console.';
  // denied
  if (desktop) {
    if (platform === 'mac') return 'macOS refused the microphone. Open System Settings → Privacy & Security → Microphone, turn FixThis on, then quit and reopen FixThis.';
    if (platform === 'windows') return 'Windows refused the microphone. Open Settings → Privacy & security → Microphone and turn on "Let desktop apps access your microphone", then press Talk again.';
    return 'The window refused the microphone. FixThis allows it for its own console only; check that no sandbox (Flatpak, Snap) blocks audio and that a microphone is chosen in Settings → Sound, then press Talk again.';
  }
  const site = 'click the icon left of the address bar, set Microphone to Allow, then press Talk again';
  if (platform === 'mac') return `The browser was refused the microphone. In the browser, ${site}. If it stays refused, allow the browser in System Settings → Privacy & Security → Microphone.`;
  if (platform === 'windows') return `The browser was refused the microphone. In the browser, ${site}. If it stays refused, turn on microphone access for the browser in Settings → Privacy & security → Microphone.`;
  return `The browser was refused the microphone. In the browser, ${site}.`;
}

/** Talk without a key: where keys come from and the two ways to give one. */
export const NO_KEY_HELP =
  'Talk needs an OpenAI API key. Paste one in Voice settings (it is kept in the system keychain, never in this page), or start FixThis with OPENAI_API_KEY set. Create a key at platform.openai.com/api-keys.';
