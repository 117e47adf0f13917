import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { fetchOnceStarted, STARTING_SERVICE_URL } from '../core/hosting/starting-service.ts';
import { createLogger } from '../core/logging/logger.ts';
import { KeyVault } from '../core/secrets/key-vault.ts';
import { keepLocalKey, keptLocalKey } from '../core/secrets/local-key.ts';
import { KEYCHAIN_SERVICE, osKeychain } from '../core/secrets/os-keychain.ts';
import { newApiKey } from '../service/ids.ts';
import { shrinkHeapAtRest } from '../service/thread/shrink-heap.ts';
import { startServiceThread } from '../service/thread/start-thread.ts';
import { defaultDataDir, logsDirOf } from './data-paths.ts';
import { buildApp, rendererBuildIsStale } from './renderer-build.ts';

// The browser host's process (see cli.ts): the embedded service starts in its thread while this
// one loads the app's core and serves the page; the URL is printed once the page and the workspace
// kept on disk answer, and the Local account's requests wait for the service meanwhile.

const STOP_DEADLINE_MS = 10_000;

const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function fatal(message: string): never {
  console.error(`Querydesk: ${message}`);
  process.exit(1);
}

function options(): { port: number; dataDir: string; build: boolean } {
  let args;
  try {
    args = parseArgs({
      options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, 'no-build': { type: 'boolean' } },
      strict: true,
    }).values;
  } catch (error) {
    fatal(`${(error as Error).message}\nUsage: npm run web -- [--port N] [--data-dir DIR] [--no-build]`);
  }
  const port = args.port === undefined ? 0 : Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fatal(`--port must be a port number, not ${JSON.stringify(args.port)}.`);
  return { port, dataDir: resolve(args['data-dir'] ?? defaultDataDir()), build: !args['no-build'] };
}

async function main(): Promise<void> {
  const { port, dataDir, build } = options();
  if (build && rendererBuildIsStale(projectRoot)) {
    console.error('Querydesk: building the app first (out/renderer is missing or older than its sources)…');
    if (!buildApp(projectRoot)) fatal('the build failed; see its output above.');
  }

  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const vault = new KeyVault(osKeychain(KEYCHAIN_SERVICE));
  const keptKey = await keptLocalKey(vault);
  // made here when none is kept, so that core has it before the service starts: the service keeps the key it is given
  const localKey = keptKey ?? newApiKey();
  // made before the service, so that what the service prints is masked as the log is
  const logger = createLogger({ dir: logsDirOf(dataDir) });
  logger.addSecret(localKey);
  const starting = startServiceThread(
    { dataDir: join(dataDir, 'service'), port: 0, demoApiKey: localKey },
    {
      onCrash: (error) => fatal(logger.redact(`the embedded service stopped: ${error.message}`)),
      onFallback: (error) => console.error(logger.redact(`Querydesk: the embedded service runs in the app's thread (${error.message}).`)),
      redact: logger.redact,
    },
  );
  const service = starting.then(
    async (started) => {
      await keepLocalKey(vault, keptKey, started.demoApiKey);
      return started;
    },
    (error: unknown) => fatal(logger.redact(`the embedded service did not start: ${(error as Error).message}`)),
  );
  // loaded once the service's thread is on its way, so that the two load their modules at once
  const { startWebHost } = await import('./host.ts');
  let host;
  try {
    host = await startWebHost({
      port,
      dataDir,
      rendererDir: join(projectRoot, 'out', 'renderer'),
      version,
      localService: {
        baseUrl: STARTING_SERVICE_URL,
        apiKey: localKey,
        fetch: fetchOnceStarted(service.then((started) => started.baseUrl)),
      },
      logger,
    });
  } catch (error) {
    await (await service).close();
    fatal(`could not start the browser host: ${(error as Error).message}`);
  }
  console.log(`Querydesk is running at ${host.url}`);
  shrinkHeapAtRest();
  stopOnSignals(async () => {
    try {
      await host.close();
    } finally {
      await (await service).close();
    }
  });
}

function stopOnSignals(close: () => Promise<void>): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // A download or export still winding down must not keep the process alive forever.
    setTimeout(() => {
      console.error('Querydesk: shutting down took too long; stopping now.');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    await close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => fatal(error instanceof Error ? (error.stack ?? error.message) : String(error)));
