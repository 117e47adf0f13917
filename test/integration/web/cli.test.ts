import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_PATH, type ServerMessage } from '../../../main/contract/index.ts';

// `npm run web` as the end-to-end tests start it: one URL line on stdout, a working contract
// behind it, and a clean stop on SIGTERM.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-cli-'));
let child: ChildProcess | null = null;
afterAll(() => {
  if (child?.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function firstLine(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: process.stdout! }).once('line', resolve);
    process.once('exit', (code) => reject(new Error(`exited with ${code} before printing its URL`)));
  });
}

describe('the web CLI', () => {
  it('prints the URL, serves the contract with the embedded service behind it, and stops on SIGTERM', async () => {
    child = spawn(process.execPath, ['main/web/cli.ts', '--port', '0', '--data-dir', dir, '--no-build'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = await firstLine(child);
    const match = /^Querydesk is running at (http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)$/.exec(line);
    expect(match).not.toBeNull();
    const [, origin, token] = match!;

    const socket = new WebSocket(`${origin!.replace('http', 'ws')}${WS_PATH}?token=${token}`, { origin });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const ask = (id: number, channel: string) => {
      // the refresh also sends events to the page: the answer is the result with this id
      const answer = new Promise<ServerMessage>((resolve) => {
        const onMessage = (data: Buffer) => {
          const message = JSON.parse(data.toString()) as ServerMessage;
          if (message.type !== 'result' || message.id !== id) return;
          socket.off('message', onMessage);
          resolve(message);
        };
        socket.on('message', onMessage);
      });
      socket.send(JSON.stringify({ type: 'invoke', id, channel, payload: { accountId: 'local' } }));
      return answer;
    };
    expect(await ask(1, 'workspace:refresh')).toMatchObject({ type: 'result', id: 1, result: { ok: true, data: { status: 'online' } } });
    const message = await ask(2, 'workspace:open');
    expect(message).toMatchObject({ type: 'result', id: 2, result: { ok: true } });
    const names =
      message.type === 'result' ? (message.result as { data: { queries: { name: string }[] } }).data.queries.map((q) => q.name) : [];
    expect(names).toContain('Demo trades');
    socket.close();

    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
