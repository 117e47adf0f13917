import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { hostProcessEnv, webHostCommand } from '../../build/web-host.ts';

// The app's processes as a person starts them (`npm run web`, `npm run service`), for the global
// setup and for tests that stop and start them (offline, restarts).

const STARTUP_TIMEOUT_MS = 60_000;

/** With this bus address the app finds no keychain: only the throwaway Secret Service of the tests has one. */
const NO_SESSION_BUS = 'unix:path=/nonexistent/querydesk-e2e-bus';

export interface Started {
  child: ChildProcess;
  match: RegExpExecArray;
  log: () => string;
}

export function start(args: string[], pattern: RegExp, what: string, keychain: boolean, baseEnv = process.env): Promise<Started> {
  const env = keychain ? baseEnv : { ...baseEnv, DBUS_SESSION_BUS_ADDRESS: NO_SESSION_BUS };
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

/** Past this, a process that was asked to stop is killed: a test's teardown must end. */
const STOP_GRACE_MS = 15_000;

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/** The browser host, as built, on a data directory; its URL (with the token) is `match[1]`. */
export function webHost(dataDir: string, keychain: boolean, what: string): Promise<Started> {
  const command = webHostCommand(['--port', '0', '--data-dir', dataDir, '--no-build']);
  return start(command.args, /running at (http\S+)/, what, keychain, command.env);
}

/** The embedded service alone; its base URL is `match[1]`, its demo key `match[2]`. */
export function service(dataDir: string, what: string, extraArgs: string[] = [], port = 0): Promise<Started> {
  const args = ['main/service/cli.ts', '--port', String(port), '--data-dir', dataDir, ...extraArgs];
  return start(args, /listening on (http\S+) .*demo API key: (\S+)\)/, what, false, hostProcessEnv());
}
