import { describe, expect, it } from 'vitest';
import { callBodies, callDetail, countsText, diagnosticsRowText, durationText, orderCalls, outcomeText, sectionState, severityOf, shortUrl, sizeText, sourceLabel } from './model';
import type { NetworkCall, NetworkDoc } from '../../wire.gen';

// The demo app's calls in the order its log had them.
const trails: NetworkCall = { method: 'GET', url: 'https://api.trailhead.test/v1/trails?[REDACTED]', status: 200, durationMs: 182, source: 'okhttp' };
const cover: NetworkCall = { method: 'GET', url: 'https://cdn.trailhead.test/covers/42.jpg', status: 200, durationMs: 1240, slow: true, source: 'okhttp', contentType: 'image/jpeg', responseBytes: 48213 };
const favourite: NetworkCall = { method: 'POST', url: 'https://api.trailhead.test/v1/favourites', status: 500, durationMs: 231, source: 'okhttp' };
const weather: NetworkCall = { method: 'GET', url: 'https://api.trailhead.test/v1/weather?[REDACTED]', failed: true, error: 'java.net.SocketTimeoutException: timeout', source: 'okhttp' };

function doc(over: Partial<NetworkDoc> = {}): NetworkDoc {
  return { itemId: 'it-1', captureId: 'rc-1', status: 'complete', summary: '4 HTTP calls', total: 4, failed: 2, slow: 1, requests: [trails, cover, favourite, weather], ...over };
}

describe('network calls: order', () => {
  it('puts failed calls first, then slow ones, each in the order of the log', () => {
    expect(orderCalls([trails, cover, favourite, weather])).toEqual([favourite, weather, cover, trails]);
  });
  it('judges a call by status and time even without the server flags', () => {
    expect(severityOf({ method: 'GET', url: 'u', status: 404, source: 'ktor' })).toBe('failed');
    expect(severityOf({ method: 'GET', url: 'u', status: 200, durationMs: 1001, source: 'ktor' })).toBe('slow');
    expect(severityOf({ method: 'GET', url: 'u', status: 200, durationMs: 1000, source: 'ktor' })).toBe('ok');
    expect(severityOf({ method: 'GET', url: 'u', status: 503, durationMs: 4000, source: 'ktor' })).toBe('failed');
  });
  it('keeps the input as it was', () => {
    const calls = [trails, favourite];
    orderCalls(calls);
    expect(calls).toEqual([trails, favourite]);
  });
});

describe('network calls: one row', () => {
  it.each([
    [favourite, '500'],
    [weather, 'Timeout'],
    [{ ...weather, error: 'no response in the log' }, 'No response'],
    [{ ...weather, error: '' }, 'No response'],
    [{ ...weather, error: 'java.net.UnknownHostException: Unable to resolve host "api.trailhead.test"' }, 'UnknownHostException'],
    [{ ...weather, error: 'Connection reset [by peer]' }, 'Failed'],
    [{ ...trails, status: 0 }, '—'],
  ])('outcome of %o is %s', (c, want) => expect(outcomeText(c as NetworkCall)).toBe(want));

  it('writes times and sizes for people', () => {
    expect(durationText(182)).toBe('182 ms');
    expect(durationText(1240)).toBe('1,240 ms');
    expect(durationText(undefined)).toBe('');
    expect(durationText(null)).toBe('');
    expect(sizeText(41)).toBe('41 B');
    expect(sizeText(2048)).toBe('2 KB');
    expect(sizeText(48213)).toBe('47 KB');
    expect(sizeText(1536)).toBe('1.5 KB');
    expect(sizeText(3 * 1024 * 1024)).toBe('3 MB');
    expect(sizeText(undefined)).toBe('');
  });

  it('shortens a long URL in the middle, keeping the host and the resource', () => {
    expect(shortUrl('https://api.trailhead.test/v1/favourites')).toBe('api.trailhead.test/v1/favourites');
    const long = 'https://cdn.trailhead.test/' + 'images/large/'.repeat(8) + 'cover-42.jpg';
    const s = shortUrl(long);
    expect(s.length).toBe(48);
    expect(s.startsWith('cdn.trailhead.test')).toBe(true);
    expect(s.endsWith('cover-42.jpg')).toBe(true);
    expect(s).toContain('…');
    expect(shortUrl('')).toBe('(unknown URL)');
    const hugeHost = 'https://' + 'x'.repeat(300) + '.test/a.json';
    expect(shortUrl(hugeHost).length).toBe(48);
    expect(shortUrl(hugeHost).endsWith('.test/a.json')).toBe(true);
  });

  it('names the source and gives the full call on hover and expand', () => {
    expect(sourceLabel('okhttp')).toBe('OkHttp');
    expect(sourceLabel('webview')).toBe('WebView');
    expect(sourceLabel('grpc')).toBe('grpc');
    expect(callDetail(cover)).toEqual(['GET https://cdn.trailhead.test/covers/42.jpg', 'Response body: image/jpeg, 47 KB']);
    expect(callDetail({ method: '', url: 'https://a.test/x', status: 200, source: 'okhttp', note: 'only the answer was in the log: the request had rotated out', time: '12-03 15:01:02.345' })).toEqual([
      '? https://a.test/x',
      'Logged at 12-03 15:01:02.345',
      'Note: only the answer was in the log: the request had rotated out',
    ]);
    expect(callDetail(weather)[1]).toBe('Error: java.net.SocketTimeoutException: timeout');
  });

  it('counts what matters in the head', () => {
    expect(countsText(doc())).toBe('4 calls · 2 failed · 1 slow');
    expect(countsText(doc({ total: 1, failed: 0, slow: 0 }))).toBe('1 call');
  });
});

describe('network section state', () => {
  it.each([
    ['loading, nothing yet', undefined, 'loading', false, 'loading'],
    ['Off for the session', undefined, 'ready', true, 'off'],
    ['Off, but an earlier capture read calls', doc(), 'ready', true, 'calls'],
    ['no capture read the network', doc({ captureId: undefined, status: undefined, requests: [], total: 0 }), 'ready', false, 'none'],
    ['the collector timed out', doc({ status: 'failed', reason: 'timeout', requests: [] }), 'ready', false, 'unavailable'],
    ['no calls logged', doc({ requests: [], total: 0, failed: 0, slow: 0 }), 'ready', false, 'empty'],
    ['calls', doc(), 'ready', false, 'calls'],
    ['calls while refreshing', doc(), 'loading', false, 'calls'],
    ['the app unreachable', undefined, 'error', false, 'error'],
  ] as const)('%s', (_name, d, load, off, want) => expect(sectionState(d, load, off)).toBe(want));
});

describe('network calls: the diagnostics row', () => {
  const at = { kind: 'network' as const, status: 'complete' as const, durationMs: 9, summary: '4 HTTP calls, 2 failed, 1 slow: POST api.trailhead.test/v1/favourites 500; GET api.trailhead.test/v1/weather SocketTimeoutException' };
  it('counts the calls and leaves naming them to the Network section', () => {
    const row = diagnosticsRowText({ ...at, network: { total: 4, failed: 2, slow: 1, requests: [] } });
    expect(row).toBe('4 calls · 2 failed · 1 slow · listed under Network');
    expect(row).not.toContain('favourites');
  });
  it('says when the log had no calls', () => {
    expect(diagnosticsRowText({ ...at, summary: 'x', network: { total: 0, failed: 0, slow: 0, requests: [] } })).toBe("no HTTP calls in the app's log");
  });
  it('keeps the reason of a collector that did not complete', () => {
    expect(diagnosticsRowText({ ...at, status: 'failed', summary: 'no network calls: the device did not answer in time', network: null })).toBe('no network calls: the device did not answer in time');
  });
});

describe('network calls: bodies', () => {
  it('lists the kept bodies, request first, and none when the capture kept none', () => {
    const withBodies: NetworkCall = { ...favourite, requestBody: '{"itemId":812,"password":"[REDACTED]"}', responseBody: '{"error":"db locked"}' };
    expect(callBodies(withBodies)).toEqual([
      { label: 'Request body', text: '{"itemId":812,"password":"[REDACTED]"}' },
      { label: 'Response body', text: '{"error":"db locked"}' },
    ]);
    expect(callBodies(favourite)).toEqual([]);
    expect(callBodies({ ...favourite, responseBody: 'x' })).toEqual([{ label: 'Response body', text: 'x' }]);
  });
});
