import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNTS } from './accounts-fixture.ts';
import { newDataDir } from './service-harness.ts';

const CLI = join(import.meta.dirname, '../../../main/service/cli.ts');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function run(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => stdout.includes('\n') && resolve(stdout.split('\n')[0]!));
    child.on('exit', () => reject(new Error(`exited before printing: ${stderr}`)));
  });
  firstLine.catch(() => undefined); // awaited only by the tests that expect a start
  return { child, exited, firstLine, output: () => ({ stdout, stderr }) };
}

describe('npm run service', () => {
  it('prints its base URL and the demo key once it answers, and stops cleanly on SIGTERM', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const service = run(['--port', '0', '--data-dir', dataDir]);
    const line = await service.firstLine;
    const baseUrl = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
    const key = /demo API key: (\S+)\)/.exec(line)![1]!;
    const response = await fetch(`${baseUrl}/api/v1/queries`, { headers: { 'x-dune-api-key': key } });
    expect(response.status).toBe(200);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);

    // started again with the key it printed, it keeps that key (it stores only the key's hash)
    const again = run(['--port', '0', '--data-dir', dataDir, '--demo-api-key', key]);
    const next = await again.firstLine;
    expect(/demo API key: (\S+)\)/.exec(next)![1]).toBe(key);
    const nextUrl = /(http:\/\/127\.0\.0\.1:\d+)/.exec(next)![1]!;
    expect((await fetch(`${nextUrl}/api/v1/queries`, { headers: { 'x-dune-api-key': key } })).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  });

  it('takes accounts from a file and the other flags of the issue', async () => {
    const dataDir = newDataDir();
    dirs.push(dataDir);
    const file = join(dataDir, 'accounts.json');
    writeFileSync(file, JSON.stringify(ACCOUNTS));
    const service = run([
      '--port=0',
      '--data-dir',
      dataDir,
      '--accounts',
      file,
      '--service-name',
      'ACME',
      '--max-page-rows',
      '10',
      '--result-cap-bytes',
      '8GB',
      '--retention',
      '90d',
      '--execution-slots',
      '2',
      '--rate-limit',
      'off',
    ]);
    const line = await service.firstLine;
    expect(line).toMatch(/demo API key: none/);
    const baseUrl = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)![1]!;
    const response = await fetch(`${baseUrl}/api/v1/queries`, { headers: { 'X-ACME-API-KEY': 'key-alice' } });
    expect(response.status).toBe(200);
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
  });

  it('refuses a bad flag, naming it', async () => {
    for (const [args, message] of [
      [['--port', 'eighty'], "--port must be a whole number from 0 to 65535, got 'eighty'"],
      [['--colour', 'red'], "unknown flag '--colour'"],
      [['--retention', '3 weeks'], '--retention must be a duration'],
      [['--result-cap-bytes', '8TB'], '--result-cap-bytes must be a size'],
      [['--accounts', '/nonexistent/accounts.json'], "--accounts: cannot read '/nonexistent/accounts.json'"],
    ] as const) {
      const service = run([...args]);
      expect(await service.exited).toBe(2);
      expect(service.output().stderr).toContain(message);
    }
  });
});
