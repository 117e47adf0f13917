import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { exchange, head, openSocket, readAnswer } from '../../../bench/probes/raw-http.ts';
import { WS_PATH, type ServerMessage } from '../../../main/contract/index.ts';
import { startWebHost, type WebHost } from '../../../main/web/host.ts';
import { proofread } from '../../unit/words/proofread.ts';
import { startFakeService, type FakeService } from '../core/fake-service.ts';

const REMOTE_KEY = 'remote-key-7777-8888';
let host: WebHost;
let fake: FakeService;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-web-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Querydesk</title>');
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
  fake = await startFakeService((req) => {
    if (req.path === '/api/v1/queries') {
      return req.headers['x-dune-api-key'] === REMOTE_KEY
        ? { body: { queries: [], total: 0 } }
        : { status: 401, body: { error: 'invalid API Key' } };
    }
    return req.path.endsWith('/execute')
      ? { body: { execution_id: 'E1', state: 'QUERY_STATE_PENDING' } }
      : {
          body: {
            execution_id: 'E1',
            state: 'QUERY_STATE_COMPLETED',
            is_execution_finished: true,
            result_metadata: { column_names: [], total_row_count: 0 },
          },
        };
  });
  host = await startWebHost({ port: 0, dataDir: dir, rendererDir, version: '1.0.0', localService: { baseUrl: fake.baseUrl, apiKey: 'k' } });
});

afterAll(async () => {
  await host.close();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { port } = new URL(host.origin);
  return new Promise((resolve, reject) => {
    // A raw path, so that '..' segments reach the server as sent.
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

type Opened = { socket: WebSocket; status: 'open' } | { status: number };

function connect(query: string, origin: string = host.origin, path: string = WS_PATH, hostHeader?: string): Promise<Opened> {
  const socket = new WebSocket(`ws://127.0.0.1:${new URL(host.origin).port}${path}${query}`, {
    origin,
    ...(hostHeader ? { headers: { host: hostHeader } } : {}),
  });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve({ socket, status: 'open' }));
    socket.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      socket.terminate();
    });
    socket.once('error', reject);
  });
}

async function open(): Promise<WebSocket> {
  const opened = await connect(`?token=${host.token}`);
  if (!('socket' in opened)) throw new Error(`refused with ${opened.status}`);
  return opened.socket;
}

function nextMessage(socket: WebSocket, match: (message: ServerMessage) => boolean): Promise<ServerMessage> {
  return new Promise((resolve) => {
    const listener = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (!match(message)) return;
      socket.off('message', listener);
      resolve(message);
    };
    socket.on('message', listener);
  });
}

function invoke(socket: WebSocket, id: number, channel: string, payload: unknown): Promise<ServerMessage> {
  const answer = nextMessage(socket, (m) => m.type === 'result' && m.id === id);
  socket.send(JSON.stringify({ type: 'invoke', id, channel, payload }));
  return answer;
}

describe('the browser host: static files', () => {
  it('serves index.html with the CSP and security headers', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Querydesk</title>');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
  });

  it('serves assets with their content type, falls back to index.html for app routes, 404s missing files', async () => {
    const script = await get('/assets/app.js');
    expect([script.status, script.headers['content-type'], script.body]).toEqual([200, 'text/javascript; charset=utf-8', 'console.log(1)']);
    expect((await get('/queries/7')).body).toContain('<title>Querydesk</title>');
    expect((await get('/assets/missing.js')).status).toBe(404);
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const answer = await get(path);
      expect(answer.body).not.toContain('outside the renderer');
    }
  });

  it('refuses a request addressed to another host name', async () => {
    expect((await get('/', { Host: 'evil.example:80' })).status).toBe(421);
  });
});

describe('the browser host: the contract socket', () => {
  it('refuses a connection without the token, with a wrong token, from a foreign origin, or on another path', async () => {
    expect(await connect('')).toEqual({ status: 401 });
    expect(await connect(`?token=${host.token.slice(0, -1)}x`)).toEqual({ status: 401 });
    expect(await connect(`?token=${host.token}`, 'http://evil.example')).toEqual({ status: 401 });
    expect(await connect(`?token=${host.token}`, 'http://localhost:1')).toEqual({ status: 401 });
    // Right token and origin, but addressed to another name (DNS rebinding): refused as plain requests are.
    expect(await connect(`?token=${host.token}`, host.origin, WS_PATH, `evil.example:${new URL(host.origin).port}`)).toEqual({
      status: 421,
    });
    expect(await connect(`?token=${host.token}`, host.origin, '/other')).toEqual({ status: 404 });
  });

  it('carries a contract round trip, errors included, and survives malformed messages', async () => {
    const socket = await open();
    expect(await invoke(socket, 1, 'settings:get', {})).toMatchObject({
      type: 'result',
      id: 1,
      result: { ok: true, data: { about: { version: '1.0.0', host: 'web' } } },
    });
    socket.send('this is not json');
    socket.send(JSON.stringify({ no: 'id' }));
    const bad = await invoke(socket, 2, 'executions:list', { accountId: 'local', limit: -1 });
    expect(bad).toMatchObject({ id: 2, result: { ok: false, error: { code: 'invalid_request', details: [{ field: 'limit' }] } } });
    expect(await invoke(socket, 3, 'nope:nope', {})).toMatchObject({ result: { ok: false, error: { code: 'unknown_channel' } } });
    const notInvoke = nextMessage(socket, (m) => m.type === 'result' && m.id === 4);
    socket.send(JSON.stringify({ type: 'subscribe', id: 4 }));
    expect(await notInvoke).toMatchObject({ result: { ok: false, error: { code: 'invalid_request' } } });
    socket.close();
  });

  it('sends events to every open page', async () => {
    const [first, second] = [await open(), await open()];
    const seenBySecond = nextMessage(second, (m) => m.type === 'event' && (m.payload as { isFinished: boolean }).isFinished);
    const seenByFirst = nextMessage(first, (m) => m.type === 'event' && (m.payload as { isFinished: boolean }).isFinished);
    expect(await invoke(first, 1, 'executions:run', { accountId: 'local', queryId: 7 })).toMatchObject({
      result: { ok: true, data: { executionId: 'E1' } },
    });
    for (const message of await Promise.all([seenByFirst, seenBySecond])) {
      expect(message).toMatchObject({
        type: 'event',
        event: 'execution:update',
        payload: { executionId: 'E1', state: 'QUERY_STATE_COMPLETED' },
      });
    }
    first.close();
    second.close();
  });
});

describe('the browser host: accounts', () => {
  it('adds an account over the socket without the key ever coming back, and keeps core’s files under core/', async () => {
    const socket = await open();
    const received: string[] = [];
    socket.on('message', (data: Buffer) => received.push(data.toString()));
    const account = { label: 'Remote', baseUrl: fake.baseUrl, sessionOnly: true };
    const refused = await invoke(socket, 1, 'accounts:add', { ...account, apiKey: 'wrong-key-0000-0000' });
    expect(refused).toMatchObject({ result: { ok: false, error: { code: 'bad_key', message: 'invalid API Key' } } });
    const added = await invoke(socket, 2, 'accounts:add', { ...account, apiKey: REMOTE_KEY });
    expect(added).toMatchObject({ result: { ok: true, data: { label: 'Remote', keyHint: '••••8888', keyStorage: 'session' } } });
    const listed = await invoke(socket, 3, 'accounts:list', {});
    expect(listed).toMatchObject({ result: { ok: true, data: { accounts: [{ id: 'local' }, { label: 'Remote' }] } } });
    socket.close();

    expect(received.length).toBeGreaterThanOrEqual(3);
    expect(received.filter((text) => text.includes(REMOTE_KEY))).toEqual([]);
    const profiles = readFileSync(join(dir, 'core', 'accounts.json'), 'utf8');
    expect(profiles).toContain('"label": "Remote"');
    expect(profiles).not.toContain(REMOTE_KEY);
  });
});

describe('the browser host: malformed requests', () => {
  // Anyone who can reach the port can send these (a page of another origin on this machine, with
  // fetch in no-cors mode), and one of them once ended the host.
  const TARGETS = ['//[/', 'http://[zz]/', 'http://[::1/export/x', '/export/%ZZ'];

  it('answers a malformed request target 400, with the token and without, and stays up', async () => {
    for (const target of TARGETS) {
      for (const query of ['', `?token=${host.token}`]) {
        const answer = await exchange(host.origin, head(host.origin, `GET ${target}${query} HTTP/1.1`, { connection: 'close' }));
        // without the token, the one well-formed target among them is an export refused for it
        expect([target, query, answer.status]).toEqual([target, query, target === '/export/%ZZ' && query === '' ? 401 : 400]);
      }
    }
    expect((await get('/')).status).toBe(200);
  });

  it('says in words why an export link gives no file', async () => {
    const gone = await get(`/export/no-such-export?token=${host.token}`);
    const foreign = await get('/export/no-such-export');
    expect([gone.status, foreign.status]).toEqual([404, 401]);
    for (const answer of [gone, foreign]) expect(proofread(answer.body)).toEqual([]);
  });

  it('answers a malformed WebSocket upgrade 400, and one whose client resets it mid-answer ends nothing', async () => {
    const upgrade = (target: string) =>
      head(host.origin, `GET ${target} HTTP/1.1`, {
        connection: 'Upgrade',
        upgrade: 'websocket',
        origin: host.origin,
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
      });
    for (const target of ['//[/', `http://[zz]${WS_PATH}?token=${host.token}`]) {
      expect((await exchange(host.origin, upgrade(target))).status).toBe(400);
    }
    for (let i = 0; i < 5; i++) {
      const socket = await openSocket(host.origin);
      socket.on('error', () => undefined);
      const answer = readAnswer(socket);
      // more than the refusal reads: the reset then reaches a socket Node no longer watches for errors
      socket.write(upgrade('/elsewhere') + 'x'.repeat(100_000));
      expect((await answer).status).toBe(404);
      socket.resetAndDestroy();
    }
    const socket = await open();
    socket.close();
  });
});
