import type { ServiceClient } from '../service-client/index.ts';
import type { CacheDb } from './cache-db.ts';
import type { DownloadOutcomes } from './download-outcomes.ts';
import { downloadResult, type ResultShape } from './download.ts';
import type { CacheEntry } from './manifest.ts';
import type { EarlyPages, PageFormats } from './page-fetch.ts';
import type { ResumableDownloads } from './resumable-downloads.ts';

// The downloads of the result cache under way, one per result at most: how each is started (from
// the rows a broken-off one kept, if any), stopped, and what is recorded when it ends.

/** How the cache downloads, as its options resolve. */
export interface DownloadSettings {
  pageRows: number;
  pagesInFlight: { min: number; max: number };
  formats: PageFormats;
  now: () => Date;
}

export interface Download {
  controller: AbortController;
  rowsLoaded: number;
  shape: ResultShape;
  done: Promise<void>;
}

/** A download whose first pages were asked for already, beside the result's status (see ResultCache.start). */
export interface StartedDownload {
  roundTripMs: number;
  controller: AbortController;
  tableName: string;
  workDir: string;
  early: EarlyPages;
  allowPartial: boolean;
}

interface Parts {
  db: CacheDb;
  resumable: ResumableDownloads;
  outcomes: DownloadOutcomes;
  settings: DownloadSettings;
  /** A download's rows grew, or it ended: its status is to be told. */
  report: (accountId: string, executionId: string) => void;
  /** A download goes on from the rows an earlier one left on disk. */
  onResumed?: ((accountId: string, executionId: string, fromRow: number) => void) | undefined;
  /** A download ended with the whole result: its entry. */
  onCached: (entry: CacheEntry) => void;
}

const keyOf = (accountId: string, executionId: string) => `${accountId}\n${executionId}`;

export class RunningDownloads {
  readonly #parts: Parts;
  readonly #running = new Map<string, Download>();

  constructor(parts: Parts) {
    this.#parts = parts;
  }

  get(accountId: string, executionId: string): Download | undefined {
    return this.#running.get(keyOf(accountId, executionId));
  }

  has(accountId: string, executionId: string): boolean {
    return this.#running.has(keyOf(accountId, executionId));
  }

  get size(): number {
    return this.#running.size;
  }

  /** The bytes the downloads under way will take once whole. */
  totalBytes(): number {
    let total = 0;
    for (const download of this.#running.values()) total += download.shape.totalBytes;
    return total;
  }

  launch(shape: ResultShape, client: ServiceClient, started: StartedDownload): Download {
    const { db, resumable, outcomes, settings, report } = this.#parts;
    const { accountId, executionId } = shape;
    const key = keyOf(accountId, executionId);
    const resume = resumable.get(accountId, executionId);
    const fruitless = outcomes.started(accountId, executionId);
    const { controller, tableName } = started;
    const download: Download = { controller, rowsLoaded: 0, shape, done: Promise.resolve() };
    this.#running.set(key, download);
    const settle = () => {
      if (this.#running.get(key) !== download) return;
      this.#running.delete(key);
      report(accountId, executionId);
    };
    if (resume !== null) this.#parts.onResumed?.(accountId, executionId, resume.rows);
    download.done = downloadResult(
      {
        db,
        client,
        shape,
        workDir: started.workDir,
        pageRows: settings.pageRows,
        window: { ...settings.pagesInFlight, roundTripMs: started.roundTripMs },
        early: started.early,
        formats: settings.formats,
        signal: controller.signal,
        onRows: (rows) => {
          download.rowsLoaded = rows;
          report(accountId, executionId);
        },
        now: () => settings.now().toISOString(),
      },
      tableName,
      resume,
    )
      .then(async (outcome) => {
        // kept rows stay named until the download that goes on from them ends, so a crash meanwhile loses nothing
        if (!outcome.ok && outcome.kept !== null) await resumable.keep(accountId, executionId, outcome.kept, settings.now());
        else if (resume !== null) await resumable.settled(accountId, executionId, resume);
        if (outcome.ok) {
          // told before the fold of its pages begins, whose statements would come first on the shared connection
          settle();
          this.#parts.onCached(outcome.data);
          return;
        }
        const ended = {
          rowsLoaded: outcome.kept?.rows ?? 0,
          resumedFrom: resume?.rows ?? 0,
          fruitless,
          client,
          allowPartial: started.allowPartial,
          at: settings.now().toISOString(),
        };
        outcomes.brokenOff(shape, outcome.error, ended);
      })
      .catch((error: unknown) => outcomes.crashed(shape, error))
      .finally(settle);
    return download;
  }

  /** Stops the downloads of the accounts `isStopped` names (with `reason` for their signal), once they have ended. */
  async stop(isStopped: (accountId: string) => boolean, reason?: unknown): Promise<void> {
    const stopping = [...this.#running.values()].filter((d) => isStopped(d.shape.accountId));
    for (const download of stopping) download.controller.abort(reason);
    await Promise.all(stopping.map((d) => d.done));
  }
}
