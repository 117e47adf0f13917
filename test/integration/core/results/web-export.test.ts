import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  WS_PATH,
  type CacheStatus,
  type ExecutionUpdate,
  type ExportProgress,
  type ServerMessage,
} from '../../../../main/contract/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { startWebHost, type WebHost } from '../../../../main/web/host.ts';

// An export in the browser host: `results:export` answers a download URL on the host, guarded by
// its token and good for one download, which streams the CSV as an attachment.

let dir: string;
let service: RunningService;
let host: WebHost;
let socket: WebSocket;
const events: ServerMessage[] = [];
let nextId = 1;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-web-export-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Querydesk</title>');
  service = await startService({ dataDir: join(dir, 'service'), port: 0 });
  host = await startWebHost({
    port: 0,
    dataDir: dir,
    rendererDir,
    version: '1.0.0',
    localService: { baseUrl: service.baseUrl, apiKey: service.demoApiKey },
  });
  socket = new WebSocket(`ws://127.0.0.1:${new URL(host.origin).port}${WS_PATH}?token=${host.token}`, { origin: host.origin });
  socket.on('message', (data: Buffer) => events.push(JSON.parse(data.toString()) as ServerMessage));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
});

afterAll(async () => {
  socket?.terminate();
  await host?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function invoke(channel: string, payload: unknown): Promise<{ ok: boolean; data?: any; error?: any }> {
  const id = nextId++;
  socket.send(JSON.stringify({ type: 'invoke', id, channel, payload }));
  for (;;) {
    const answer = events.find((m) => m.type === 'result' && m.id === id);
    if (answer && answer.type === 'result') return answer.result as { ok: boolean };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function eventsOf<T>(name: string): T[] {
  return events.flatMap((m) => (m.type === 'event' && m.event === name ? [m.payload as T] : []));
}

describe('export in the browser host', () => {
  it('streams the CSV to the download URL once, with the token only', async () => {
    await invoke('workspace:refresh', { accountId: 'local' });
    const queries = await invoke('workspace:open', { accountId: 'local' });
    const trades = queries.data.queries.find((q: { name: string }) => q.name === 'Demo trades');
    const run = await invoke('executions:run', { accountId: 'local', queryId: trades.id });
    const executionId = run.data.executionId as string;
    while (!eventsOf<ExecutionUpdate>('execution:update').some((u) => u.executionId === executionId && u.isFinished)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const started = await invoke('results:export', {
      accountId: 'local',
      executionId,
      scope: 'view',
      filters: "chain = 'base'",
      columns: 'trade_id,chain',
      fileName: 'base trades é.csv',
    });
    expect(started).toMatchObject({ ok: true, data: { delivery: { kind: 'download' } } });
    const url = new URL(started.data.delivery.url as string, host.origin);
    expect(url.pathname).toBe(`/export/${started.data.exportId}`);
    expect(eventsOf<ExportProgress>('results:exportProgress').at(-1)).toMatchObject({ exportId: started.data.exportId, state: 'waiting' });

    const withoutToken = new URL(url);
    withoutToken.searchParams.delete('token');
    expect((await fetch(withoutToken)).status).toBe(401);
    const wrongId = new URL(url);
    wrongId.pathname = '/export/someone-else';
    expect((await fetch(wrongId)).status).toBe(404);

    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="base trades _.csv"; filename*=UTF-8''base%20trades%20%C3%A9.csv`,
    );
    const lines = (await download.text()).split('\n');
    expect(lines[0]).toBe('trade_id,chain');
    expect(lines).toHaveLength(1002);
    expect(lines.slice(1, -1).every((line) => line.endsWith(',base'))).toBe(true);
    while (eventsOf<ExportProgress>('results:exportProgress').at(-1)?.state !== 'done')
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(eventsOf<ExportProgress>('results:exportProgress').at(-1)).toMatchObject({
      rowsWritten: 1000,
      totalRowCount: 1000,
      fromCache: false,
    });
    expect((await fetch(url)).status).toBe(404);

    // once cached, DuckDB writes the file and the download passes it on
    await invoke('results:cache', { accountId: 'local', executionId });
    while (!eventsOf<CacheStatus>('results:cacheStatus').some((s) => s.executionId === executionId && s.state === 'cached')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const whole = await invoke('results:export', { accountId: 'local', executionId, scope: 'all' });
    const body = await (await fetch(new URL(whole.data.delivery.url as string, host.origin))).text();
    expect(body.split('\n')).toHaveLength(5002);
    while (eventsOf<ExportProgress>('results:exportProgress').at(-1)?.state !== 'done')
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(eventsOf<ExportProgress>('results:exportProgress').at(-1)).toMatchObject({
      exportId: whole.data.exportId,
      rowsWritten: 5000,
      fromCache: true,
      bytesWritten: Buffer.byteLength(body),
    });

    // one nobody downloads, cancelled
    const dropped = await invoke('results:export', { accountId: 'local', executionId, scope: 'all' });
    expect(await invoke('results:exportCancel', { exportId: dropped.data.exportId })).toMatchObject({
      ok: true,
      data: { cancelled: true },
    });
    while (eventsOf<ExportProgress>('results:exportProgress').at(-1)?.state !== 'cancelled')
      await new Promise((resolve) => setTimeout(resolve, 10));

    // the day's log has each export's start and end
    const log = readdirSync(join(dir, 'logs'))
      .map((name) => readFileSync(join(dir, 'logs', name), 'utf8'))
      .join('');
    const first = `Local: export ${started.data.exportId} of result ${executionId} as csv to base trades é.csv`;
    expect(log).toContain(`INFO ${first} started`);
    expect(log).toMatch(new RegExp(`INFO ${first} done: 1000 rows, \\d+ bytes`));
    expect(log).toContain(
      `INFO Local: export ${whole.data.exportId} of result ${executionId} as csv to result-${executionId}.csv done: 5000 rows, ${Buffer.byteLength(body)} bytes`,
    );
    expect(log).toContain(
      `INFO Local: export ${dropped.data.exportId} of result ${executionId} as csv to result-${executionId}.csv cancelled: 0 rows, 0 bytes`,
    );
  });
});
