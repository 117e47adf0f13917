import { join } from 'node:path';
import type { CacheDb } from '../../../../main/core/cache/cache-db.ts';
import { downloadResult, stagingTableName, type DownloadOutcome, type ResultShape } from '../../../../main/core/cache/download.ts';
import type { PageFormats } from '../../../../main/core/cache/page-fetch.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';

// A download into the cache at `dir` one 500-row page at a time, each loaded and committed on its
// own: the tests that follow a download's loads (and the child process a test kills mid-way) use it.
// Its pages are asked for as CSV unless told, as Dune's service sends them: Parquet pages of a new
// download are not loaded as they come but kept where they lie (see page-keeper.ts).

export interface PageByPage {
  db: CacheDb;
  dir: string;
  baseUrl: string;
  apiKey: string;
  shape: ResultShape;
  /** After each page: the rows arrived so far. */
  onRows?: (rows: number) => void;
  /** CSV unless told. */
  formats?: PageFormats;
}

export function downloadPageByPage({ db, dir, baseUrl, apiKey, shape, onRows, formats = 'csv' }: PageByPage): Promise<DownloadOutcome> {
  const table = stagingTableName();
  return downloadResult(
    {
      db,
      client: createServiceClient({ baseUrl, apiKey, serviceName: 'DUNE' }),
      shape,
      workDir: join(dir, 'downloads', table),
      pageRows: 500,
      formats,
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
