// The Network section's pure part: which calls come first, how each reads in one row
// (outcome, time, method, a URL short enough for the inspector), and which state the
// section is in. The server already parsed and redacted every call.
import type { EvidenceAttachment, NetworkCall, NetworkDoc } from '../../wire.gen';

/** A call slower than this many milliseconds is slow (the server's rule too). */
export const SLOW_MS = 1000;

/** How a call did: a failure (no answer, or status >= 400), a slow answer, or fine. */
export type Severity = 'failed' | 'slow' | 'ok';

export function severityOf(c: NetworkCall): Severity {
  if (c.failed || (c.status ?? 0) >= 400) return 'failed';
  if (c.slow || (c.durationMs ?? 0) > SLOW_MS) return 'slow';
  return 'ok';
}

const RANK: Record<Severity, number> = { failed: 0, slow: 1, ok: 2 };

/**
 * Failed calls first, then slow ones, then the rest; within each group the order the
 * log had them (the server's), so a retry still follows the call it retried.
 */
export function orderCalls(calls: readonly NetworkCall[]): NetworkCall[] {
  return calls
    .map((c, i) => ({ c, i }))
    .sort((a, b) => RANK[severityOf(a.c)] - RANK[severityOf(b.c)] || a.i - b.i)
    .map((x) => x.c);
}

/** `java.net.SocketTimeoutException: timeout` → `SocketTimeoutException`. */
function exceptionName(error: string): string {
  const type = error.split(':')[0].trim();
  const simple = type.slice(type.lastIndexOf('.') + 1);
  return simple && !/[\s[\]]/.test(simple) ? simple : '';
}

/** The outcome as the row's first word: `500`, `Timeout`, `No response`, `Failed`. */
export function outcomeText(c: NetworkCall): string {
  if (c.failed) {
    if (!c.error || c.error === 'no response in the log') return 'No response';
    const name = exceptionName(c.error);
    if (/Timeout/i.test(name) || /\btimeout\b/i.test(c.error)) return 'Timeout';
    return name || 'Failed';
  }
  return c.status ? String(c.status) : '—';
}

/** `182 ms`, `1,240 ms`; '' when the log did not say. */
export function durationText(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms < 0) return '';
  return `${Math.round(ms).toLocaleString('en-US')} ms`;
}

/** `2 KB`, `47.1 KB`, `1.2 MB`; '' when unknown. */
export function sizeText(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1).replace(/\.0$/, '') : Math.round(kb)} KB`;
  return `${(kb / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The longest URL a row shows before it is shortened. */
export const SHORT_URL = 48;

/**
 * The URL as a row shows it: no scheme, host and path kept, the middle of a long one
 * cut with "…" so the host and the last path segment (the resource) both stay.
 */
export function shortUrl(url: string, max = SHORT_URL): string {
  if (!url) return '(unknown URL)';
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  if (bare.length <= max) return bare;
  const slash = bare.indexOf('/');
  const host = slash > 0 ? bare.slice(0, slash) : '';
  const tailRoom = Math.max(12, max - Math.min(host.length, Math.floor(max / 2)) - 1);
  const tail = bare.slice(bare.length - tailRoom);
  const head = bare.slice(0, Math.max(0, max - tail.length - 1));
  return `${head}…${tail}`;
}

const SOURCE_LABEL: Record<string, string> = { okhttp: 'OkHttp', ktor: 'Ktor', webview: 'WebView' };

export function sourceLabel(source: string): string {
  return SOURCE_LABEL[source] ?? source;
}

/** What the row's title (hover) and its expanded part say in full. */
export function callDetail(c: NetworkCall): string[] {
  const lines = [`${c.method || '?'} ${c.url || '(unknown URL)'}`];
  if (c.error) lines.push(`Error: ${c.error}`);
  const body = [c.contentType, sizeText(c.responseBytes)].filter(Boolean).join(', ');
  if (body) lines.push(`Response body: ${body}`);
  if (c.time) lines.push(`Logged at ${c.time}`);
  if (c.note) lines.push(`Note: ${c.note}`);
  return lines;
}

/** The section's state. */
export type SectionState = 'off' | 'loading' | 'error' | 'none' | 'unavailable' | 'empty' | 'calls';

/**
 * off: diagnostics are Off for the session (nothing will be read); none: no capture
 * read the network yet; unavailable: the network collector ran and failed (its
 * summary says why); empty: it ran and the app logged no call; calls: a list.
 */
export function sectionState(doc: NetworkDoc | undefined, load: 'loading' | 'ready' | 'error' | undefined, off: boolean): SectionState {
  if (doc?.captureId) {
    if (doc.status && doc.status !== 'complete') return 'unavailable';
    return doc.requests.length ? 'calls' : 'empty';
  }
  if (off) return 'off';
  if (load === 'error') return 'error';
  if (!doc || load === 'loading') return 'loading';
  return 'none';
}

/** The head's counts: `4 calls · 2 failed · 1 slow`. */
export function countsText(doc: Pick<NetworkDoc, 'total' | 'failed' | 'slow'>): string {
  const parts = [`${doc.total} ${doc.total === 1 ? 'call' : 'calls'}`];
  if (doc.failed) parts.push(`${doc.failed} failed`);
  if (doc.slow) parts.push(`${doc.slow} slow`);
  return parts.join(' · ');
}

/**
 * The network row of the runtime diagnostics summary. The Network section below lists
 * the calls, failed ones first, so the row only counts them and points there; a
 * collector that did not complete keeps its one-line reason.
 */
export function diagnosticsRowText(at: EvidenceAttachment): string {
  const n = at.network;
  if (at.status !== 'complete' || !n) return at.summary;
  if (!n.total) return 'no HTTP calls in the app\'s log';
  return `${countsText({ total: n.total, failed: n.failed, slow: n.slow })} · listed under Network`;
}

/** A kept body as the expanded row shows it. */
export interface CallBody {
  label: 'Request body' | 'Response body';
  text: string;
}

/**
 * The bodies of a call from a capture that kept them (Capture with bodies): already
 * redacted on the server and at most 4 KB each. None otherwise.
 */
export function callBodies(c: NetworkCall): CallBody[] {
  const out: CallBody[] = [];
  if (c.requestBody) out.push({ label: 'Request body', text: c.requestBody });
  if (c.responseBody) out.push({ label: 'Response body', text: c.responseBody });
  return out;
}
