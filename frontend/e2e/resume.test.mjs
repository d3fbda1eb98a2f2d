// The live view comes back after a freeze: Live → Annotate → Select on a still
// screen shows the phone again within 2 s, as bright as before the freeze, on the
// video and the JPEG paths, and the badge never says "Live preview" over a blank stage.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openConsole, shotPath, suite, waitFor } from './harness.mjs';
import { freeze, waitLive } from './steps.mjs';

/** The visible screen element and its mean brightness (0-255), sampled small. */
const look = (page) =>
  page.evaluate(() => {
    const el = document.querySelector('.frame .screen:not(.hidden)');
    const badge = document.querySelector('#previewFrameStatus')?.textContent?.trim() ?? '';
    if (!el) return { badge, src: 'none', mean: 0 };
    const t = document.createElement('canvas');
    t.width = 27;
    t.height = 60;
    const g = t.getContext('2d');
    g.drawImage(el, 0, 0, t.width, t.height);
    const d = g.getImageData(0, 0, t.width, t.height).data;
    let sum = 0;
    // Transparent pixels (a canvas nothing was drawn on) count as black.
    for (let i = 0; i < d.length; i += 4) sum += ((d[i] + d[i + 1] + d[i + 2]) / 3) * (d[i + 3] / 255);
    return { badge, src: el.tagName, mean: sum / (d.length / 4) };
  });

for (const [name, args, tag] of [
  ['video', [], 'CANVAS'],
  ['JPEG', ['--preview', 'jpeg'], 'IMG'],
]) {
  suite(`live view after a freeze (${name})`, { server: { demo: true, extraArgs: args } }, (env) => {
    it('shows the phone again within 2 s of Select on a still screen', async () => {
      const { server, browser } = env;
      const { page, context } = await openConsole(browser, server);
      await waitLive(page, server);
      const live = await waitFor(async () => {
        const l = await look(page);
        return l.src === tag && l.mean > 20 ? l : null;
      }, { timeout: 20000, what: `a painted ${tag}` });
      await freeze(page);
      await page.keyboard.press('s');
      const start = Date.now();
      const seen = [];
      let back = null;
      while (Date.now() - start < 3000) {
        const l = await look(page);
        seen.push(l);
        if (l.badge === 'Live preview') assert.ok(l.mean > 20, `"Live preview" over a blank stage ${JSON.stringify(l)} after ${Date.now() - start} ms`);
        if (!back && l.badge === 'Live preview' && Math.abs(l.mean - live.mean) < 10) back = { ...l, ms: Date.now() - start };
        await page.waitForTimeout(100);
      }
      assert.ok(back && back.ms <= 2000, `live view after Select: ${JSON.stringify(back)}; before the freeze ${JSON.stringify(live)}; seen ${JSON.stringify(seen.slice(-3))}`);
      assert.equal(back.src, tag);
      await page.screenshot({ path: shotPath(`resume-${name.toLowerCase()}-1440.png`) });
      await context.close();
    });
  });
}
