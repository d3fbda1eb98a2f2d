// A loopback reverse proxy that adds "Authorization: Bearer <token>" to every request.
// The conformance CLI has no option for request headers, and FixThis's /mcp requires a
// bearer token; the proxy is the smallest honest bridge. It forwards everything else
// untouched — Host and Origin included — so the server's own Host/Origin checks still
// decide the DNS-rebinding scenario, and it streams responses (SSE) as they arrive.
import http from 'node:http';

export function startBearerProxy(targetUrl, token) {
  const target = new URL(targetUrl);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}` };
    const up = http.request({
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: req.url,
      headers,
    }, (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    req.pipe(up);
    res.on('close', () => up.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}${target.pathname}`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
      });
    });
  });
}
