import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_TEST_KEYCHAIN } from './helpers.ts';
import { service, stop, webHost, type Started } from './processes.ts';

// Starts the browser host on a fresh data directory, as a person would with `npm run web`, and
// hands its URL to the tests. The build happens before (`npm run test:e2e`), hence --no-build.
// Beside it: a second browser host that finds no keychain (for the session-only keys), and a second
// embedded service, as `npm run service` starts it, for the accounts the tests add with its key.

export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'querydesk-e2e-'));
  const started: Started[] = [];
  const stopAll = () => Promise.all(started.map(({ child }) => stop(child)));
  try {
    started.push(await webHost(join(dataDir, 'app'), HAS_TEST_KEYCHAIN, 'The browser host'));
    started.push(await webHost(join(dataDir, 'app-without-keychain'), false, 'The browser host without a keychain'));
    // It keeps only the first 64 KB of a result, so a result there can come back partial.
    started.push(await service(join(dataDir, 'other-service'), 'The second service', ['--result-cap-bytes', '64KB']));
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
