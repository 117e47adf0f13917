import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { AccountsConfigError } from '../accounts/accounts-config.ts';
import type { RunningService, ServiceOptions } from '../index.ts';
import type { FromServiceThread, ToServiceThread } from './thread-messages.ts';

// The embedded service in a worker thread of its own, for the hosts (the desktop app, the browser
// host, `npm run service`). Its event loop is then not the app core's: a burst of pages no longer
// holds up the window's requests, nor they the pages. And its V8 heap is its own, with a young
// generation kept small: under many clients, V8 grew the service's young generation several times
// over in the host's thread, most of its memory peak in bench:service (bench/RESULTS.md).

/** The young generation's largest size, well under V8's own limit. */
const YOUNG_GENERATION_MB = SERVICE_CACHES.youngGenerationMb;
/** How long a closed service's thread has to end by itself before it is stopped. */
const EXIT_DEADLINE_MS = 10_000;

export interface ServiceThreadOptions {
  /** Told when the thread ends without being closed (an error no request handled); the service is gone. */
  onCrash?: (error: Error) => void;
  /** Told when the service runs in this thread instead, as its thread could not be started (see below). */
  onFallback?: (error: Error) => void;
  /**
   * Each line the thread prints (on its stdout or stderr) goes through this on its way to this
   * process's stderr: the hosts mask keys with it, as in their own log. Without it the thread's
   * output is this process's, as it is.
   */
  redact?: (line: string) => string;
}

/**
 * The thread's entry: the TypeScript file when run from source, the bundle's file beside this
 * code in the built app (see vite.config.ts); null when neither is there.
 */
function threadEntry(): URL | null {
  const candidates = [new URL('./service-thread.ts', import.meta.url), new URL('./service-thread.js', import.meta.url)];
  return candidates.find((url) => existsSync(fileURLToPath(url))) ?? null;
}

/** The service's own error again, as the hosts tell their user about some of them by class. */
function startError(name: string, message: string): Error {
  return name === AccountsConfigError.name ? new AccountsConfigError(message) : new Error(message);
}

/**
 * Starts the service in a thread of its own; when the thread itself cannot be had (its file not
 * found, or the thread ended before the service said anything), in this thread as before, so that
 * the app always has its service. A service that fails to start throws its error, as `startService` does.
 */
export async function startServiceThread(options: ServiceOptions, threadOptions: ServiceThreadOptions = {}): Promise<RunningService> {
  const entry = threadEntry();
  const fallBack = async (error: Error) => {
    threadOptions.onFallback?.(error);
    // loaded only then: the service's modules are the thread's, not this one's
    const { startService } = await import('../index.ts');
    return startService(options);
  };
  if (entry === null) return fallBack(new Error('the service thread’s file is not there'));
  const { redact } = threadOptions;
  const worker = new Worker(entry, {
    workerData: options,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    stdout: redact !== undefined,
    stderr: redact !== undefined,
  });
  if (redact) for (const stream of [worker.stdout, worker.stderr]) forwardLines(stream, redact);
  const first = await new Promise<FromServiceThread | Error>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', resolve);
    worker.once('exit', (code) => resolve(new Error(`the service thread ended (${code}) before the service started`)));
  });
  worker.removeAllListeners();
  if (first instanceof Error) {
    await worker.terminate();
    return fallBack(first);
  }
  if (first.kind === 'failed') {
    await worker.terminate();
    throw startError(first.name, first.message);
  }
  let closing = false;
  // an error the thread did not handle comes first, then its end: the user hears of the error once
  let crash: Error | null = null;
  worker.once('error', (error) => (crash = error));
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', (code) => {
      if (!closing) threadOptions.onCrash?.(crash ?? new Error(`the service thread ended (${code})`));
      resolve();
    }),
  );
  return {
    baseUrl: first.baseUrl,
    demoApiKey: first.demoApiKey,
    async close() {
      if (closing) return exited;
      closing = true;
      worker.postMessage({ kind: 'close' } satisfies ToServiceThread);
      const deadline = setTimeout(() => void worker.terminate(), EXIT_DEADLINE_MS);
      await exited;
      clearTimeout(deadline);
    },
  };
}

/** Whole lines, so that a key is never split between two pieces that are masked apart. */
function forwardLines(stream: Readable, redact: (line: string) => string): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => process.stderr.write(`${redact(line)}\n`));
}
