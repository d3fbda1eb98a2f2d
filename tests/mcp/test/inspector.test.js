// The MCP Inspector's CLI mode (@modelcontextprotocol/inspector --cli) as a second
// client we did not write: tools/list and one tools/call, over stdio and over HTTP.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOOL_NAMES, childEnv, fixthisBin, node22, pkgDir, requireBinary, startServe, stop, tempProject, removeTemp } from './helpers.js';

const run = promisify(execFile);
const inspectorCli = path.join(pkgDir, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js');

let dir;
let serve;
let sessionId;

before(async () => {
  requireBinary();
  dir = tempProject();
  serve = await startServe(dir);
  ({ sessionId } = await serve.api.createSession('inspector check'));
});

after(async () => {
  await stop(serve?.child);
  if (dir) removeTemp(dir);
});

// inspector runs the Inspector CLI under the packaged Node 22 (Inspector 0.21 needs
// it); the CLI re-spawns `node` from PATH, so that Node goes first on PATH too.
async function inspector(args) {
  const env = { ...childEnv, PATH: `${path.dirname(node22)}:${process.env.PATH}` };
  try {
    const { stdout } = await run(node22, [inspectorCli, '--cli', ...args], { env, timeout: 60000, maxBuffer: 16 << 20 });
    return JSON.parse(stdout);
  } catch (e) {
    throw new Error(`inspector ${args.join(' ')} failed: ${e.message}\nstdout: ${e.stdout}\nstderr: ${e.stderr}`);
  }
}

const stdioTarget = () => [fixthisBin, 'mcp', '--project-dir', dir];

test('inspector --cli over stdio: tools/list', async () => {
  const res = await inspector([...stdioTarget(), '--method', 'tools/list']);
  assert.deepEqual(res.tools.map((t) => t.name).sort(), [...TOOL_NAMES].sort());
  for (const t of res.tools) {
    assert.ok(t.annotations, `${t.name} has annotations`);
    assert.ok(t.outputSchema, `${t.name} has an outputSchema`);
  }
});

test('inspector --cli over stdio: tools/call fixthis_list_feedback_sessions', async () => {
  const res = await inspector([...stdioTarget(), '--method', 'tools/call', '--tool-name', 'fixthis_list_feedback_sessions']);
  assert.ok(!res.isError, JSON.stringify(res));
  assert.ok(res.structuredContent.sessions.some((s) => s.sessionId === sessionId), 'the session made through the console API is listed');
  assert.deepEqual(JSON.parse(res.content[0].text), res.structuredContent, 'text content mirrors structuredContent');
});

test('inspector --cli over Streamable HTTP with the bearer header: tools/call', async () => {
  const { info } = serve;
  const res = await inspector([info.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${info.mcpToken}`,
    '--method', 'tools/call', '--tool-name', 'fixthis_list_feedback', '--tool-arg', `sessionId=${sessionId}`]);
  assert.ok(!res.isError, JSON.stringify(res));
  assert.equal(res.structuredContent.sessionId, sessionId);
  assert.equal(res.structuredContent.total, 0, 'a new session has nothing handed off');
  assert.deepEqual(res.structuredContent.items, []);
});
