import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportProgress } from '../../contract/index.ts';
import { failureText } from '../words.ts';
import type { ExportTarget } from './destination.ts';
import { ExportAborted, type ExportSource } from './export-sources.ts';

// Exports running in the background, with progress and cancel. Memory stays flat whatever the
// size: DuckDB writes a cached result's file itself (straight to the target when it is a file,
// else to a scratch file then passed on), and the service's pages go through with backpressure.
// A format only the cache can write waits for the result's download into the cache first.
// A failed or cancelled export leaves nothing half-written behind.

const PROGRESS_INTERVAL_MS = 250;

export interface ExportRuns {
  newId(): string;
  run(exportId: string, source: ExportSource, target: ExportTarget): void;
  cancel(exportId: string): boolean;
  dispose(): Promise<void>;
}

/** `scratchDir` holds a cached result's file while it is passed on to a download; emptied at start. */
export function createExportRuns(options: { emit: (progress: ExportProgress) => void; scratchDir: string }): ExportRuns {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  rmSync(options.scratchDir, { recursive: true, force: true });

  async function run(exportId: string, given: ExportSource, target: ExportTarget, signal: AbortSignal): Promise<void> {
    const ready = target.delivery.kind === 'download' ? 'waiting' : 'running';
    let source = given;
    const progress: ExportProgress = {
      exportId,
      state: source.kind === 'caching' ? 'caching' : ready,
      rowsWritten: 0,
      totalRowCount: source.totalRowCount,
      bytesWritten: 0,
      fromCache: source.fromCache,
      error: null,
    };
    let reportedAt = 0;
    const report = (force: boolean) => {
      if (!force && Date.now() - reportedAt < PROGRESS_INTERVAL_MS) return;
      reportedAt = Date.now();
      options.emit({ ...progress });
    };
    const opened = async () => {
      const stream = await abortable(target.open(), signal);
      progress.state = 'running';
      report(true);
      return stream;
    };
    report(true);
    let stream: Writable | null = null;
    const scratch = join(options.scratchDir, `${exportId}.part`);
    try {
      if (source.kind === 'caching') {
        source = await source.cached(signal, (rows) => {
          progress.rowsWritten = rows;
          report(false);
        });
        Object.assign(progress, { state: ready, rowsWritten: 0, totalRowCount: source.totalRowCount, fromCache: true });
        report(true);
      }
      if (source.kind === 'file' && target.filePath !== undefined) {
        await source.copyTo(target.filePath, signal, (rows) => {
          progress.rowsWritten = rows;
          report(false);
        });
        progress.bytesWritten = statSync(target.filePath).size;
      } else if (source.kind === 'file') {
        stream = await opened();
        mkdirSync(options.scratchDir, { recursive: true });
        await source.copyTo(scratch, signal, () => undefined);
        const size = statSync(scratch).size;
        const total = source.totalRowCount;
        const reader = createReadStream(scratch);
        reader.on('data', (chunk) => {
          progress.bytesWritten += chunk.length;
          progress.rowsWritten = Math.floor((total * progress.bytesWritten) / Math.max(size, 1));
          report(false);
        });
        await pipeline(reader, stream, { signal });
      } else {
        const open = (stream = await opened());
        await source.writeTo(async (text, rows) => {
          if (signal.aborted) throw new ExportAborted();
          if (!open.write(text)) await once(open, 'drain', { signal });
          progress.rowsWritten += rows;
          progress.bytesWritten += Buffer.byteLength(text);
          report(false);
        }, signal);
        open.end();
        await once(open, 'finish', { signal });
      }
      await target.finish();
      progress.state = 'done';
    } catch (error) {
      stream?.destroy();
      await target.discard().catch(() => undefined);
      progress.state = signal.aborted ? 'cancelled' : 'failed';
      progress.error = signal.aborted ? null : failureText(error);
    } finally {
      rmSync(scratch, { force: true });
    }
    report(true);
  }

  return {
    newId: () => randomUUID(),
    run(exportId, source, target) {
      const controller = new AbortController();
      const done = run(exportId, source, target, controller.signal).finally(() => running.delete(exportId));
      running.set(exportId, { controller, done });
    },
    cancel(exportId) {
      const entry = running.get(exportId);
      entry?.controller.abort();
      return entry !== undefined;
    },
    async dispose() {
      for (const entry of running.values()) entry.controller.abort();
      await Promise.all([...running.values()].map((e) => e.done));
    },
  };
}

/** Rejects as soon as the signal aborts, whether or not `promise` ever settles. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new ExportAborted());
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new ExportAborted());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
