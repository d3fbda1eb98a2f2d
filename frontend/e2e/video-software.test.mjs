// The live preview without WebCodecs: Chromium with VideoDecoder removed paints the
// H.264 stream with the software decoder (tinyh264 in a worker) while the demo device
// scrolls, and the picture matches a screencap of the same screen. ?decoder= forces a
// path. Prints the figures docs/benchmarks.md quotes: software decoder vs WebCodecs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { before, it } from 'node:test';
import { openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { selectedSerial } from './steps.mjs';

const stats = (page) => page.evaluate(() => window.FixThisConsoleDebug.previewStats());
const canvasSize = (page) => page.evaluate(() => `${document.querySelector('.frame canvas').width}×${document.querySelector('.frame canvas').height} canvas`);

function adb(server, serial, ...args) {
  return spawnSync('adb', ['-P', String(server.adbPort), '-s', serial, ...args], { timeout: 15000, maxBuffer: 64 << 20 });
}

/** Scrolls the demo's list up and down for ms. */
function scrollFor(server, serial, ms) {
  const start = Date.now();
  for (let i = 0; Date.now() - start < ms; i++) {
    const [y1, y2] = i % 8 < 4 ? [1500, 1300] : [1300, 1500];
    adb(server, serial, 'shell', 'input', 'swipe', '540', String(y1), '540', String(y2), '300');
  }
}

/** The console with ?query before the token fragment; noWebCodecs removes VideoDecoder. */
function open(browser, server, { query = '', noWebCodecs = false } = {}) {
  return openConsole(browser, server, { query, init: noWebCodecs ? () => delete window.VideoDecoder : null });
}

/**
 * Mean colours of a 4×8 grid over the preview canvas and over a PNG of the device's
 * screen scaled to the canvas, so a decoder that paints garbage (or wrong colours, or
 * the wrong crop) differs from the screencap.
 */
function compareWithScreencap(page, pngBase64) {
  return page.evaluate(async (png) => {
    const canvas = document.querySelector('.frame canvas');
    const { width, height } = canvas;
    const shot = new OffscreenCanvas(width, height);
    const img = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
    shot.getContext('2d').drawImage(img, 0, 0, width, height);
    const grid = (ctx) => {
      const data = ctx.getImageData(0, 0, width, height).data;
      const cells = [];
      for (let gy = 0; gy < 8; gy++) {
        for (let gx = 0; gx < 4; gx++) {
          const sum = [0, 0, 0];
          let n = 0;
          for (let y = Math.floor((gy * height) / 8); y < Math.floor(((gy + 1) * height) / 8); y += 2) {
            for (let x = Math.floor((gx * width) / 4); x < Math.floor(((gx + 1) * width) / 4); x += 2) {
              const i = (y * width + x) * 4;
              sum[0] += data[i];
              sum[1] += data[i + 1];
              sum[2] += data[i + 2];
              n++;
            }
          }
          cells.push(sum.map((s) => s / n));
        }
      }
      return cells;
    };
    const a = grid(canvas.getContext('2d'));
    const b = grid(shot.getContext('2d'));
    let worst = 0;
    a.forEach((c, i) => c.forEach((v, k) => (worst = Math.max(worst, Math.abs(v - b[i][k])))));
    const lum = b.map((c) => (c[0] + c[1] + c[2]) / 3);
    return { worst, width, height, spread: Math.max(...lum) - Math.min(...lum) };
  }, pngBase64);
}

suite('live video with the software decoder', { server: { demo: true } }, (env) => {
  let serial;
  before(async () => {
    serial = await selectedSerial(env.server);
  });

  it('WebCodecs on the same scroll, for comparison (and the console reports its stage first)', async () => {
    const { server, browser } = env;
    const { page, context } = await open(browser, server);
    try {
      await waitFor(async () => (await stats(page)).transport === 'h264', { timeout: 30000, what: 'previewStats().transport = h264' });
      assert.match((await stats(page)).decoder, /^WebCodecs VideoDecoder/);
      scrollFor(server, serial, 8000);
      console.log(`WebCodecs while scrolling, ${await canvasSize(page)}: ${JSON.stringify(await stats(page))}`);
    } finally {
      await context.close();
    }
  });

  it('paints with tinyh264 where WebCodecs is missing, and the picture is right', async () => {
    const { server, browser } = env;
    const { page, context, errors } = await open(browser, server, { noWebCodecs: true });
    try {
      await waitFor(async () => (await stats(page)).transport === 'h264', { timeout: 30000, what: 'previewStats().transport = h264' });
      const first = await stats(page);
      assert.match(first.decoder, /^tinyh264 software decoder \(WebAssembly, avc1\.42/);
      scrollFor(server, serial, 8000);
      const later = await stats(page);
      assert.equal(later.transport, 'h264');
      assert.ok(later.framesPainted >= first.framesPainted + 10, `frames painted ${first.framesPainted} → ${later.framesPainted} over 8 s of scrolling`);
      assert.ok(later.latencyMsP50 !== null && later.latencyMsP50 < 1000, `latency p50 ${later.latencyMsP50} ms`);
      console.log(`software decoder while scrolling, ${await canvasSize(page)}: ${JSON.stringify(later)}`);
      const box = await page.locator('.frame canvas').boundingBox();
      assert.ok(box && Math.abs(box.width / box.height - 1080 / 2400) < 0.01, `canvas box ${JSON.stringify(box)}`);

      // The screen at rest: the last picture painted is what screencap shows.
      await new Promise((r) => setTimeout(r, 1500));
      const shot = adb(server, serial, 'exec-out', 'screencap', '-p');
      assert.equal(shot.status, 0, `screencap: ${shot.stderr}`);
      const cmp = await compareWithScreencap(page, shot.stdout.toString('base64'));
      assert.ok(cmp.spread > 20, `the screen should not be one flat colour: ${JSON.stringify(cmp)}`);
      assert.ok(cmp.worst < 16, `canvas vs screencap, worst cell's mean colour differs by ${cmp.worst.toFixed(1)}: ${JSON.stringify(cmp)}`);
      await page.screenshot({ path: shotPath('video-software-1440.png') });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  it('?decoder=software and ?decoder=jpeg force the path', async () => {
    const { server, browser } = env;
    const soft = await open(browser, server, { query: '?decoder=software' });
    try {
      await waitFor(async () => (await stats(soft.page)).transport === 'h264', { timeout: 30000, what: 'previewStats().transport = h264' });
      assert.match((await stats(soft.page)).decoder, /^tinyh264/);
    } finally {
      await soft.context.close();
    }
    const jpeg = await open(browser, server, { query: '?decoder=jpeg' });
    try {
      // The player starts once the stage has reported its size; a JPEG frame can be
      // painted before that, so wait for both.
      await waitFor(async () => {
        const s = await stats(jpeg.page);
        return s.framesPainted > 0 && s.decoder.includes('no video');
      }, { timeout: 20000, what: 'a JPEG frame painted, and the reason for no video' });
      const s = await stats(jpeg.page);
      assert.equal(s.transport, 'jpeg');
      assert.match(s.decoder, /no video: the console is set to JPEG frames \(\?decoder=jpeg\)/);
    } finally {
      await jpeg.context.close();
    }
  });
});
