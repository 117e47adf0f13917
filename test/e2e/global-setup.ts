import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// Starts the browser host on a fresh data directory, as a person would with `npm run web`, and
// hands its URL to the tests. The build happens before (`npm run test:e2e`), hence --no-build.

const STARTUP_TIMEOUT_MS = 60_000;

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'querydesk-e2e-'));
  const host = spawn(process.execPath, ['main/web/cli.ts', '--port', '0', '--data-dir', dataDir, '--no-build'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  host.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The browser host did not start in time.\n${log}`)), STARTUP_TIMEOUT_MS);
    createInterface({ input: host.stdout }).on('line', (line) => {
      const match = /running at (http\S+)/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    host.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The browser host exited (code ${code}) before printing its URL.\n${log}`));
    });
  });
  process.env.QUERYDESK_URL = url;
  // A host that dies mid-run would otherwise show up only as refused connections.
  let stopping = false;
  host.on('exit', (code, signal) => {
    if (!stopping) console.error(`The browser host exited early (code ${code}, signal ${signal}).\n${log}`);
  });

  return async () => {
    stopping = true;
    if (host.exitCode === null) {
      const exited = new Promise((resolve) => host.once('exit', resolve));
      host.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
}
