import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, type ServerMessage } from '../../../main/contract/index.ts';
import { startWebHost, type WebHost } from '../../../main/web/host.ts';
import { LaterWrites } from '../../../renderer/src/lib/later-writes.ts';
import { SocketBridge, type LinkStatus } from '../../../renderer/src/lib/socket-bridge.ts';
import { startFakeService, type FakeService } from '../core/fake-service.ts';

// A host asked to stop tells its pages first: what a page still holds to write (a change made a
// moment before) is sent, answered and on disk before the host closes its databases. A page that
// says nothing back holds the stop a moment only.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-web-stopping-'));
const rendererDir = join(dir, 'renderer');
let fake: FakeService;

beforeAll(async () => {
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Querydesk</title>');
  fake = await startFakeService((request) =>
    request.path === '/api/v1/queries' ? { body: { queries: [], total: 0 } } : { status: 404, body: { error: 'not here' } },
  );
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await fake.close();
  rmSync(dir, { recursive: true, force: true });
});

function start(): Promise<WebHost> {
  return startWebHost({
    port: 0,
    dataDir: join(dir, 'app'),
    rendererDir,
    version: '1.0.0',
    localService: { baseUrl: fake.baseUrl, apiKey: 'k' },
  });
}

function socketUrl(host: WebHost): string {
  return `${host.origin.replace('http', 'ws')}${WS_PATH}?token=${host.token}`;
}

/** A client socket as the page's: from the host's own origin, and, like a browser's, never throwing on an error. */
function pageSocketOf(origin: string) {
  return class PageSocket extends WebSocket {
    constructor(url: string) {
      super(url, { origin });
      this.on('error', () => {});
    }
  };
}

async function openSocket(host: WebHost): Promise<WebSocket> {
  const socket = new WebSocket(socketUrl(host), { origin: host.origin });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return socket;
}

function invoke(socket: WebSocket, id: number, channel: string, payload: unknown): Promise<ServerMessage> {
  const answer = new Promise<ServerMessage>((resolve) =>
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === 'result' && message.id === id) resolve(message);
    }),
  );
  socket.send(JSON.stringify({ type: 'invoke', id, channel, payload }));
  return answer;
}

async function savedView(queryId: number): Promise<unknown> {
  const host = await start();
  try {
    const socket = await openSocket(host);
    const answer = await invoke(socket, 1, 'ui:get', { accountId: 'local', key: `view:${queryId}` });
    socket.close();
    return answer.type === 'result' ? answer.result : answer;
  } finally {
    await host.close();
  }
}

describe('the browser host, asked to stop', () => {
  it('has a page send the change it was still waiting to write, and keeps it on disk', async () => {
    const host = await start();
    vi.stubGlobal('WebSocket', pageSocketOf(host.origin));
    const later = new LaterWrites();
    const statuses: LinkStatus[] = [];
    const bridge = new SocketBridge(socketUrl(host), (status) => statuses.push(status));
    bridge.onStopping(() => later.flush());
    expect(await bridge.invoke('settings:get', {})).toMatchObject({ ok: true });

    // a filter typed: its view is written once the typing pauses, which it has not yet
    const view = { typedFilters: "chain = 'base'" };
    later.schedule('view', 400, () => void bridge.invoke('ui:set', { accountId: 'local', key: 'view:7', value: view }));
    await host.close();
    expect(statuses.at(-1)).toBe('retrying');

    expect(await savedView(7)).toMatchObject({ ok: true, data: { value: { typedFilters: "chain = 'base'" } } });
  });

  it('waits a moment for a page that does not answer, and answers what it sent meanwhile first', async () => {
    const host = await start();
    const socket = await openSocket(host);
    const told = new Promise<ServerMessage>((resolve) =>
      socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString()) as ServerMessage;
        if (message.type !== 'stopping') return;
        // written after the host said it stops, and the socket left open
        socket.send(
          JSON.stringify({
            type: 'invoke',
            id: 1,
            channel: 'ui:set',
            payload: { accountId: 'local', key: 'view:8', value: { mode: 'chart' } },
          }),
        );
        resolve(message);
      }),
    );
    const closed = new Promise((resolve) => socket.once('close', resolve));
    await host.close();
    expect(await told).toEqual({ type: 'stopping' });
    await closed;

    expect(await savedView(8)).toMatchObject({ ok: true, data: { value: { mode: 'chart' } } });
  });
});
