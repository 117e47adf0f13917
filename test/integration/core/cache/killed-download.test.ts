import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import { selectAll } from '../../../../main/core/cache/pages-view.ts';
import { openResultCache, type ResultCache } from '../../../../main/core/cache/result-cache.ts';
import { readResultShape } from '../../../../main/core/cache/result-shape.ts';
import { createServiceClient } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { startFaultProxy, type FaultProxy } from '../fault-proxy.ts';
import { until } from './cache-harness.ts';
import { finishedRun } from './finished-run.ts';
import { downloadKilledMidway } from './killed-child.ts';

// A download whose process is killed (SIGKILL: nothing runs at exit) goes on, at the next start,
// from the rows that were on disk, and ends with the whole result, row for row.

const PAGE_ROWS = 500;
const TOTAL = 5000;
let dir: string;
let service: RunningService;
let proxy: FaultProxy;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-killed-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: PAGE_ROWS });
  // passes every request through, noting where each page starts
  proxy = await startFaultProxy(service.baseUrl, () => null);
});

afterAll(async () => {
  await proxy?.close();
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Downloads the result into a new cache at `cacheDir` through the proxy; answers the cache, open, once the download has ended. */
async function cacheWhole(cacheDir: string, executionId: string): Promise<{ cache: ResultCache; ended: CacheStatus }> {
  const statuses: CacheStatus[] = [];
  const cache = await openResultCache({
    dir: cacheDir,
    onStatus: (s) => statuses.push(s),
    pageRows: PAGE_ROWS,
    pagesInFlight: { min: 1, max: 1 },
  });
  const client = createServiceClient({ baseUrl: proxy.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
  const started = await cache.start('local', client, executionId, false);
  if (!started.ok) throw new Error(started.error.message);
  let ended: CacheStatus | undefined;
  await until(() => (ended = statuses.find((s) => s.state !== 'downloading')) !== undefined);
  return { cache, ended: ended! };
}

async function cachedRows(cache: ResultCache, executionId: string): Promise<unknown[][]> {
  const entry = (await cache.use('local', executionId))!;
  return cache.db.withConnection(async (connection) =>
    (await connection.runAndReadAll(`SELECT ${selectAll(entry.tableName)} FROM "${entry.tableName}" ORDER BY rowid`)).getRows(),
  );
}

const pageOffsets = (from: number) =>
  proxy.requests
    .slice(from)
    .filter((line) => /\/results\//.test(line))
    .map((line) => Number(/offset=(\d+)/.exec(line)?.[1]));

describe('a download killed mid-way', () => {
  // CSV pages are loaded as they come; a new download's Parquet pages are kept where they lie
  it.each(['csv', 'parquet-or-csv'] as const)(
    'of %s pages goes on from the rows on disk at the next start and ends with the whole result',
    async (formats) => {
      const executionId = await finishedRun(service, 'Demo trades');
      const client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '' });
      const read = await readResultShape(client, 'local', executionId, false);
      if (!read.ok) throw new Error(read.error.message);
      const cacheDir = join(dir, `killed-${formats}`);
      const { output, arrived } = await downloadKilledMidway(cacheDir, service.baseUrl, service.demoApiKey!, read.data.shape, 4, formats);
      expect(output).not.toContain('finished');

      const asked = proxy.requests.length;
      const resumed = await cacheWhole(cacheDir, executionId);
      const reference = await cacheWhole(join(dir, `whole-${formats}`), executionId);
      try {
        expect(resumed.ended).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
        const offsets = pageOffsets(asked);
        // it goes on from rows that were on disk: past the first, never past what had arrived (how far
        // the loads were behind the pages arriving when the kill came depends on the machine's load)
        expect(offsets[0]).toBeGreaterThan(0);
        expect(offsets[0]).toBeLessThanOrEqual(arrived);
        expect(offsets[0]! % PAGE_ROWS).toBe(0);
        const rows = await cachedRows(resumed.cache, executionId);
        expect(rows.length).toBe(TOTAL);
        expect(rows.map((row) => Number(row[0]))).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
        expect(rows).toEqual(await cachedRows(reference.cache, executionId));
        // the pages the killed download kept were loaded at the start, and are gone
        const pages = join(cacheDir, 'pages');
        expect(existsSync(pages) ? readdirSync(pages) : []).toEqual([]);
      } finally {
        await resumed.cache.close();
        await reference.cache.close();
      }
    },
    90_000,
  );
});
