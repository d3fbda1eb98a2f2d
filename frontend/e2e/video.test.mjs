// The live preview as H.264: Chromium decodes the stream with WebCodecs and paints it
// while the demo device scrolls; the stream survives screenrecord's time limit; with
// --preview jpeg the console shows JPEG frames and says why.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';
import { api, openConsole, shotPath, startServer, suite, waitFor } from './harness.mjs';

const stats = (page) => page.evaluate(() => window.FixThisConsoleDebug.previewStats());

/** Scrolls the demo's list up and down through the private adb server. */
function scroll(server, serial, i) {
  const [y1, y2] = i % 8 < 4 ? [1500, 1300] : [1300, 1500];
  spawnSync('adb', ['-P', String(server.adbPort), '-s', serial, 'shell', 'input', 'swipe', '540', String(y1), '540', String(y2), '300'], { timeout: 5000 });
}

// Each test starts the server it needs.
suite('live video', { server: false }, (env) => {

  it('paints H.264 while the device scrolls, across screenrecord restarts', async () => {
    const { browser } = env;
    // A 3 s time limit: the stream must hand over to a new screenrecord twice.
    const server = await startServer({ demo: true, extraArgs: ['--video-time-limit', '3'] });
    try {
      const { page, context } = await openConsole(browser, server);
      await waitFor(async () => (await stats(page)).transport === 'h264', { timeout: 20000, what: 'previewStats().transport = h264' });
      const { selectedSerial } = (await api(server, 'GET', '/api/devices')).body;
      const first = await stats(page);
      assert.match(first.decoder, /VideoDecoder/);
      const start = Date.now();
      for (let i = 0; Date.now() - start < 8000; i++) scroll(server, selectedSerial, i);
      const later = await stats(page);
      assert.equal(later.transport, 'h264');
      assert.ok(later.framesPainted >= first.framesPainted + 10, `frames painted ${first.framesPainted} → ${later.framesPainted} over 8 s of scrolling`);
      assert.ok(later.latencyMsP50 !== null && later.latencyMsP50 < 1000, `latency p50 ${later.latencyMsP50} ms`);
      // The canvas has the stage geometry the image had: the device's aspect.
      const box = await page.locator('.frame canvas').boundingBox();
      assert.ok(box && Math.abs(box.width / box.height - 1080 / 2400) < 0.01, `canvas box ${JSON.stringify(box)}`);
      assert.equal(await page.locator('#previewFrameStatus').innerText(), 'Live preview');
      // Every stream was coded at the stage's size (about 700 px at 1440×900), never
      // at the phone's full height: the console opens it once the stage is known.
      const sizes = [...server.stderr().matchAll(/live video: a console is watching.*? size=(\d+)x(\d+)/g)].map((m) => +m[2]);
      assert.ok(sizes.length >= 1 && sizes.every((h) => h <= 900), `stream heights ${sizes}`);
      await page.screenshot({ path: shotPath('video-live-1440.png') });
      await context.close();
    } finally {
      await server.stop();
    }
  });

  it('falls back to JPEG frames with --preview jpeg and says why', async () => {
    const { browser } = env;
    const server = await startServer({ demo: true, extraArgs: ['--preview', 'jpeg'] });
    try {
      const { page, context } = await openConsole(browser, server);
      await waitFor(async () => (await stats(page)).framesPainted > 0, { timeout: 20000, what: 'a JPEG frame painted' });
      const s = await stats(page);
      assert.equal(s.transport, 'jpeg');
      const preview = (await api(server, 'GET', '/api/preview')).body;
      assert.match(preview.status.videoUnavailable ?? '', /--preview jpeg/);
      assert.equal(await page.locator('.frame canvas').count(), 0);
      await context.close();
    } finally {
      await server.stop();
    }
  });
});
