import { once } from 'node:events';
import { createReadStream, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportProgress } from '../../contract/index.ts';
import { failureText } from '../words.ts';
import type { ExportTarget } from './destination.ts';
import { ExportAborted, type ExportSource, type FileSource } from './export-sources.ts';

// One export from its source to its target, with its progress told as it goes: a result still on
// its way into the cache is waited for, a cached result's file is written by DuckDB (straight to
// the target when it is a file, else to a scratch file then passed on), and the service's pages
// go through with backpressure. A failed or cancelled export leaves nothing half-written behind.

const PROGRESS_INTERVAL_MS = 250;

type ChunkSource = Extract<ExportSource, { kind: 'chunks' }>;
type CachingSource = Extract<ExportSource, { kind: 'caching' }>;

export class ExportRun {
  readonly #source: ExportSource;
  readonly #target: ExportTarget;
  readonly #signal: AbortSignal;
  readonly #emit: (progress: ExportProgress) => void;
  /** Holds a cached result's file while it is passed on to a download. */
  readonly #scratchDir: string;
  /** The state once there is a file to write: a download waits for someone to receive it. */
  readonly #ready: 'waiting' | 'running';
  readonly #progress: ExportProgress;
  #reportedAt = 0;
  #stream: Writable | null = null;

  constructor(
    exportId: string,
    source: ExportSource,
    target: ExportTarget,
    signal: AbortSignal,
    options: { emit: (progress: ExportProgress) => void; scratchDir: string },
  ) {
    this.#source = source;
    this.#target = target;
    this.#signal = signal;
    this.#emit = options.emit;
    this.#scratchDir = options.scratchDir;
    this.#ready = target.delivery.kind === 'download' ? 'waiting' : 'running';
    this.#progress = {
      exportId,
      state: source.kind === 'caching' ? 'caching' : this.#ready,
      rowsWritten: 0,
      totalRowCount: source.totalRowCount,
      bytesWritten: 0,
      fromCache: source.fromCache,
      error: null,
    };
  }

  /** Runs the export to its end, which its last progress tells; never rejects. */
  async run(): Promise<void> {
    const target = this.#target;
    const progress = this.#progress;
    this.#report(true);
    const scratch = join(this.#scratchDir, `${progress.exportId}.part`);
    try {
      const source = this.#source.kind === 'caching' ? await this.#cached(this.#source) : this.#source;
      if (source.kind === 'file' && target.filePath !== undefined) await this.#copyTo(source, target.filePath);
      else if (source.kind === 'file') await this.#passOn(source, scratch);
      else await this.#writeChunks(source);
      await target.finish();
      progress.state = 'done';
    } catch (error) {
      this.#stream?.destroy();
      await target.discard().catch(() => undefined);
      progress.state = this.#signal.aborted ? 'cancelled' : 'failed';
      progress.error = this.#signal.aborted ? null : failureText(error);
    } finally {
      rmSync(scratch, { force: true });
    }
    this.#report(true);
  }

  #report(force: boolean): void {
    if (!force && Date.now() - this.#reportedAt < PROGRESS_INTERVAL_MS) return;
    this.#reportedAt = Date.now();
    this.#emit({ ...this.#progress });
  }

  #rowsDone = (rows: number): void => {
    this.#progress.rowsWritten = rows;
    this.#report(false);
  };

  async #opened(): Promise<Writable> {
    const stream = await abortable(this.#target.open(), this.#signal);
    this.#stream = stream;
    this.#progress.state = 'running';
    this.#report(true);
    return stream;
  }

  /** Waits for the result's download into the cache, and starts the export's count over from it. */
  async #cached(source: CachingSource): Promise<FileSource> {
    const file = await source.cached(this.#signal, this.#rowsDone);
    Object.assign(this.#progress, { state: this.#ready, rowsWritten: 0, totalRowCount: file.totalRowCount, fromCache: true });
    this.#report(true);
    return file;
  }

  async #copyTo(source: FileSource, filePath: string): Promise<void> {
    await source.copyTo(filePath, this.#signal, this.#rowsDone);
    this.#progress.bytesWritten = statSync(filePath).size;
  }

  /** The cached result's file, written to scratch first, then passed on to the target's stream. */
  async #passOn(source: FileSource, scratch: string): Promise<void> {
    const progress = this.#progress;
    const stream = await this.#opened();
    mkdirSync(this.#scratchDir, { recursive: true });
    await source.copyTo(scratch, this.#signal, () => undefined);
    const size = statSync(scratch).size;
    const total = source.totalRowCount;
    const reader = createReadStream(scratch);
    reader.on('data', (chunk) => {
      progress.bytesWritten += chunk.length;
      progress.rowsWritten = Math.floor((total * progress.bytesWritten) / Math.max(size, 1));
      this.#report(false);
    });
    await pipeline(reader, stream, { signal: this.#signal });
  }

  async #writeChunks(source: ChunkSource): Promise<void> {
    const signal = this.#signal;
    const open = await this.#opened();
    await source.writeTo(async (text, rows) => {
      if (signal.aborted) throw new ExportAborted();
      if (!open.write(text)) await once(open, 'drain', { signal });
      this.#progress.rowsWritten += rows;
      this.#progress.bytesWritten += Buffer.byteLength(text);
      this.#report(false);
    }, signal);
    open.end();
    await once(open, 'finish', { signal });
  }
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
