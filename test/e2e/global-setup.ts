import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HAS_TEST_KEYCHAIN } from './helpers.ts';

// Starts the browser host on a fresh data directory, as a person would with `npm run web`, and
// hands its URL to the tests. The build happens before (`npm run test:e2e`), hence --no-build.
// Beside it: a second browser host that finds no keychain (for the session-only keys), and a second
// embedded service, as `npm run service` starts it, for the accounts the tests add with its key.

const STARTUP_TIMEOUT_MS = 60_000;

/** With this bus address the app finds no keychain: the first host gets one only inside a throwaway Secret Service. */
const NO_SESSION_BUS = 'unix:path=/nonexistent/querydesk-e2e-bus';

interface Started {
  child: ChildProcess;
  match: RegExpExecArray;
  log: () => string;
}

function start(args: string[], pattern: RegExp, what: string, keychain: boolean): Promise<Started> {
  const env = keychain ? process.env : { ...process.env, DBUS_SESSION_BUS_ADDRESS: NO_SESSION_BUS };
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`${what} did not start in time.\n${log}`));
    }, STARTUP_TIMEOUT_MS);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = pattern.exec(line);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, match, log: () => log });
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (code ${code}) before it was ready.\n${log}`));
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function webHost(dataDir: string, keychain: boolean, what: string): Promise<Started> {
  return start(['main/web/cli.ts', '--port', '0', '--data-dir', dataDir, '--no-build'], /running at (http\S+)/, what, keychain);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'querydesk-e2e-'));
  const started: Started[] = [];
  const stopAll = () => Promise.all(started.map(({ child }) => stop(child)));
  try {
    started.push(await webHost(join(dataDir, 'app'), HAS_TEST_KEYCHAIN, 'The browser host'));
    started.push(await webHost(join(dataDir, 'app-without-keychain'), false, 'The browser host without a keychain'));
    // It keeps only the first 64 KB of a result, so a result there can come back partial.
    const serviceArgs = ['main/service/cli.ts', '--port', '0', '--data-dir', join(dataDir, 'other-service'), '--result-cap-bytes', '64KB'];
    started.push(await start(serviceArgs, /listening on (http\S+) .*demo API key: (\S+)\)/, 'The second service', false));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const [host, bare, other] = started as [Started, Started, Started];
  process.env.QUERYDESK_URL = host.match[1];
  process.env.QUERYDESK_NO_KEYCHAIN_URL = bare.match[1];
  process.env.QUERYDESK_OTHER_SERVICE_URL = other.match[1];
  process.env.QUERYDESK_OTHER_SERVICE_KEY = other.match[2];

  // A process that dies mid-run would otherwise show up only as refused connections.
  let stopping = false;
  for (const { child, log } of started) {
    child.on('exit', (code, signal) => {
      if (!stopping) console.error(`A test server exited early (code ${code}, signal ${signal}).\n${log()}`);
    });
  }

  return async () => {
    stopping = true;
    await stopAll();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
