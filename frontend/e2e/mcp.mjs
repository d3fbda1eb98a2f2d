// A minimal MCP client over Streamable HTTP (JSON-RPC), enough to act as an agent in
// browser tests: initialize, then tools/call.
export class McpClient {
  constructor(url, token) {
    this.url = url;
    this.token = token;
    this.sessionId = '';
    this.nextId = 1;
  }

  async post(body) {
    const headers = {
      Authorization: `Bearer ${this.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    };
    if (this.sessionId) headers['Mcp-Session-Id'] = this.sessionId;
    const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(body) });
    const sid = res.headers.get('Mcp-Session-Id');
    if (sid) this.sessionId = sid;
    const text = await res.text();
    if (!res.ok) throw new Error(`MCP ${body.method} → HTTP ${res.status}: ${text.slice(0, 300)}`);
    if (!text) return null;
    if ((res.headers.get('Content-Type') ?? '').includes('text/event-stream')) {
      const msgs = text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)));
      return msgs.find((m) => m.id === body.id) ?? msgs.at(-1) ?? null;
    }
    return JSON.parse(text);
  }

  async initialize() {
    const r = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'fixthis-console-e2e', version: '1' } },
    });
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return r;
  }

  /** Calls a tool; returns the structured result (or the parsed first text content). */
  async call(name, args) {
    const r = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name, arguments: args } });
    if (r?.error) throw new Error(`${name}: ${r.error.message}`);
    const result = r?.result ?? {};
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    if (result.structuredContent) return result.structuredContent;
    const text = result.content?.find((c) => c.type === 'text')?.text;
    try {
      return text ? JSON.parse(text) : result;
    } catch {
      return { text };
    }
  }
}
