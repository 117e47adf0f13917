import { join } from 'node:path';
import type { CacheDb } from '../../../../main/core/cache/cache-db.ts';
import { downloadResult, stagingTableName, type DownloadOutcome, type ResultShape } from '../../../../main/core/cache/download.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';

// A download into the cache at `dir` one 500-row page at a time, each loaded and committed on its
// own: the tests that follow a download's loads (and the child process a test kills mid-way) use it.

export interface PageByPage {
  db: CacheDb;
  dir: string;
  baseUrl: string;
  apiKey: string;
  shape: ResultShape;
  /** After each page: the rows arrived so far. */
  onRows?: (rows: number) => void;
}

export function downloadPageByPage({ db, dir, baseUrl, apiKey, shape, onRows }: PageByPage): Promise<DownloadOutcome> {
  const table = stagingTableName();
  return downloadResult(
    {
      db,
      client: createServiceClient({ baseUrl, apiKey, serviceName: 'DUNE' }),
      shape,
      workDir: join(dir, 'downloads', table),
      pageRows: 500,
      loadBatchRows: 500,
      commitEvery: { rows: 500, millis: 0 },
      window: { min: 1, max: 1, roundTripMs: 0 },
      signal: new AbortController().signal,
      onRows: onRows ?? (() => undefined),
      now: () => new Date().toISOString(),
    },
    table,
  );
}
