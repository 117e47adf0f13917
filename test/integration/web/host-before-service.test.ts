import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, type ServerMessage } from '../../../main/contract/index.ts';
import { fetchOnceStarted, STARTING_SERVICE_URL } from '../../../main/core/hosting/starting-service.ts';
import { startWebHost, type WebHost } from '../../../main/web/host.ts';
import { startFakeService, type FakeService } from '../core/fake-service.ts';

// The browser host answers the page and the workspace kept on disk while its embedded service is
// still starting; what needs the service waits for it, and gets the service's answer once it is up.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-web-starting-'));
let host: WebHost | null = null;
let fake: FakeService | null = null;
afterAll(async () => {
  await host?.close();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

function invoke(socket: WebSocket, id: number, channel: string): Promise<ServerMessage> {
  const answer = new Promise<ServerMessage>((resolve) =>
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as ServerMessage;
      if (message.type === 'result' && message.id === id) resolve(message);
    }),
  );
  socket.send(JSON.stringify({ type: 'invoke', id, channel, payload: { accountId: 'local' } }));
  return answer;
}

describe('the browser host before its service has started', () => {
  it('opens the workspace at once, and a refresh asked meanwhile waits for the service and answers online', async () => {
    const rendererDir = join(dir, 'renderer');
    mkdirSync(rendererDir, { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Querydesk</title>');
    let serviceUp!: (baseUrl: string) => void;
    const baseUrl = new Promise<string>((resolve) => (serviceUp = resolve));
    host = await startWebHost({
      port: 0,
      dataDir: join(dir, 'app'),
      rendererDir,
      version: '1.0.0',
      localService: { baseUrl: STARTING_SERVICE_URL, apiKey: 'k', fetch: fetchOnceStarted(baseUrl) },
    });
    const socket = new WebSocket(`${host.origin.replace('http', 'ws')}${WS_PATH}?token=${host.token}`, { origin: host.origin });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));

    expect(await invoke(socket, 1, 'workspace:open')).toMatchObject({ result: { ok: true, data: { queries: [] } } });
    let refreshed: ServerMessage | null = null;
    const refresh = invoke(socket, 2, 'workspace:refresh').then((message) => (refreshed = message));
    fake = await startFakeService((request) =>
      request.path === '/api/v1/queries' ? { body: { queries: [], total: 0 } } : { status: 404, body: { error: 'not here' } },
    );
    expect(refreshed).toBeNull();
    serviceUp(fake.baseUrl);
    await refresh;
    expect(refreshed).toMatchObject({ result: { ok: true, data: { status: 'online' } } });
    expect(fake.requests.some((request) => request.headers['x-dune-api-key'] === 'k')).toBe(true);
    socket.close();
  });
});
