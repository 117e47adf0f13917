import '../service/thread/size-thread-pool.ts';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KEYCHAIN_SERVICE } from '../core/index.ts';
import { createLogger } from '../core/logging/logger.ts';
import { KeyVault } from '../core/secrets/key-vault.ts';
import { keepLocalKey, keptLocalKey } from '../core/secrets/local-key.ts';
import { osKeychain } from '../core/secrets/os-keychain.ts';
import { startServiceThread } from '../service/thread/start-thread.ts';
import { logsDirOf, startWebHost } from './host.ts';
import { buildApp, rendererBuildIsStale } from './renderer-build.ts';

// `npm run web -- [--port N] [--data-dir DIR] [--no-build]`: the whole app in this process, for
// a browser. Stdout carries exactly one line, the URL to open; everything else goes to stderr.

const STOP_DEADLINE_MS = 10_000;

const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

function defaultDataDir(): string {
  const dataHome = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(dataHome, 'querydesk');
}

function fatal(message: string): never {
  console.error(`Querydesk: ${message}`);
  process.exit(1);
}

async function main(): Promise<void> {
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
  const dataDir = resolve(args['data-dir'] ?? defaultDataDir());

  if (!args['no-build'] && rendererBuildIsStale(projectRoot)) {
    console.error('Querydesk: building the app first (out/renderer is missing or older than its sources)…');
    if (!buildApp(projectRoot)) fatal('the build failed; see its output above.');
  }

  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const vault = new KeyVault(osKeychain(KEYCHAIN_SERVICE));
  const keptKey = await keptLocalKey(vault);
  // made before the service, so that what the service prints is masked as the log is
  const logger = createLogger({ dir: logsDirOf(dataDir) });
  logger.addSecret(keptKey);
  const service = await startServiceThread(
    { dataDir: join(dataDir, 'service'), port: 0, demoApiKey: keptKey ?? undefined },
    {
      onCrash: (error) => fatal(logger.redact(`the embedded service stopped: ${error.message}`)),
      onFallback: (error) => console.error(logger.redact(`Querydesk: the embedded service runs in the app's thread (${error.message}).`)),
      redact: logger.redact,
    },
  );
  logger.addSecret(service.demoApiKey);
  await keepLocalKey(vault, keptKey, service.demoApiKey);
  let host;
  try {
    host = await startWebHost({
      port,
      dataDir,
      rendererDir: join(projectRoot, 'out', 'renderer'),
      version,
      localService: { baseUrl: service.baseUrl, apiKey: service.demoApiKey },
      logger,
    });
  } catch (error) {
    await service.close();
    fatal(`could not start the browser host: ${(error as Error).message}`);
  }
  console.log(`Querydesk is running at ${host.url}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // A download or export still winding down must not keep the process alive forever.
    setTimeout(() => {
      console.error('Querydesk: shutting down took too long; stopping now.');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    try {
      await host.close();
    } finally {
      await service.close();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => fatal(error instanceof Error ? (error.stack ?? error.message) : String(error)));
