import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CacheStatus } from '../../../../main/contract/index.ts';
import type { CacheEntry } from '../../../../main/core/cache/manifest.ts';
import { isPagesView, selectAll } from '../../../../main/core/cache/pages-view.ts';
import { openResultCache, type ResultCacheOptions } from '../../../../main/core/cache/result-cache.ts';
import { createServiceClient, type Fetch } from '../../../../main/core/service-client/index.ts';
import { startService, type RunningService } from '../../../../main/service/index.ts';
import { expectSentences } from '../../words/read-words.ts';
import { finishedSql } from './finished-run.ts';

// A download asks for its pages as Parquet and loads each as whatever the service sent: the
// embedded service's Parquet pages, a service that answers CSV whatever it is asked (as Dune's own
// does), pages of both in one download and a download told to ask for CSV only all give the same
// rows, cell for cell: read in place (Parquet pages only, see page-keeper.ts) and once folded into
// a table. A Parquet page without the result's columns, one DuckDB cannot read, or with fewer rows
// than asked for, fails the download as the service's error, naming the page, and leaves nothing
// cached.

const TOTAL = 1500;
const PAGE_ROWS = 400;
const PARQUET = 'application/vnd.apache.parquet';
const ASKED = `${PARQUET}, text/csv;q=0.5`;
// texts with quotes, commas, line breaks, empty and NULL; integers past 2^64, decimals, doubles,
// timestamps, dates, booleans, and a list, which the cache keeps as text
const SQL = `SELECT
  i AS id,
  CASE i % 5 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'a,"b"' || chr(10) || 'c' WHEN 3 THEN 'ünï ✓' ELSE 'plain ' || i END AS label,
  i::HUGEINT * 100000000000000000000 + 7 AS big,
  (i * 0.125)::DECIMAL(20, 4) AS price,
  CASE WHEN i % 11 = 0 THEN NULL ELSE i::DOUBLE / 3 END AS ratio,
  2.0 * i AS doubled,
  (i * 0.5)::DOUBLE AS half,
  i % 2 = 0 AS even,
  CASE WHEN i % 7 = 0 THEN NULL ELSE TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 1001) END AS at,
  DATE '2024-01-01' + i::INTEGER AS day,
  [i, i + 1] AS pair
FROM range(0, ${TOTAL}) AS t(i)`;

let dir: string;
let service: RunningService;
let executionId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-formats-'));
  service = await startService({ dataDir: join(dir, 'service'), port: 0, maxPageRows: 500 });
  executionId = await finishedSql(service, SQL);
});

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A page request's answer: the service's, or one standing in for it. */
type PageAnswer = (url: URL, init: RequestInit & { headers: Headers }) => Promise<Response>;

const passOn: PageAnswer = (url, init) => fetch(url, init);

/** As a service that sends CSV whatever it is asked for (Dune's own does). */
const asCsv: PageAnswer = (url, init) => {
  init.headers.set('accept', 'text/csv');
  return passOn(url, init);
};

/**
 * Node's fetch, noting each page request as `<the Accept it sent> -> parquet`, or `-> csv` for
 * any other Content-Type (the service's own CSV is text/plain).
 */
function notingFetch(answer: PageAnswer): { fetch: Fetch; pages: string[] } {
  const pages: string[] = [];
  const noting: Fetch = async (url, init) => {
    if (!url.pathname.endsWith('/results/csv')) return fetch(url, init);
    const headers = new Headers(init.headers);
    const accept = headers.get('accept');
    const response = await answer(url, { ...init, headers });
    pages.push(`${accept} -> ${response.headers.get('content-type') === PARQUET ? 'parquet' : 'csv'}`);
    return response;
  };
  return { fetch: noting, pages };
}

/** Downloads the result into a cache of its own; its status at the end, and its cells as DuckDB spells them. */
async function download(name: string, fetch: Fetch, options: Partial<ResultCacheOptions> = {}) {
  let ended: (status: CacheStatus) => void = () => undefined;
  const done = new Promise<CacheStatus>((resolve) => (ended = resolve));
  const cache = await openResultCache({
    dir: join(dir, name),
    pageRows: PAGE_ROWS,
    onStatus: (s) => s.state !== 'downloading' && ended(s),
    ...options,
  });
  try {
    const client = createServiceClient({ baseUrl: service.baseUrl, serviceName: 'DUNE', apiKey: service.demoApiKey ?? '', fetch });
    const started = await cache.start('local', client, executionId, false);
    if (!started.ok) throw new Error(started.error.message);
    const status = await done;
    const cellsOf = async (entry: CacheEntry | null) =>
      entry
        ? await cache.db.withConnection(async (c) =>
            (
              await c.runAndReadAll(
                `SELECT CAST(COLUMNS(${selectAll(entry.tableName)}) AS VARCHAR) FROM "${entry.tableName}" ORDER BY rowid`,
              )
            ).getRows(),
          )
        : [];
    // read as the download left it (Parquet pages in place), then once they are folded into a table
    const entry = await cache.use('local', executionId);
    const cells = await cellsOf(entry);
    await cache.folded();
    const folded = await cache.use('local', executionId);
    return {
      status,
      cells,
      inPlace: entry !== null && isPagesView(entry.tableName),
      foldedCells: folded !== null && !isPagesView(folded.tableName) ? await cellsOf(folded) : null,
      columns: entry?.columns,
      usage: await cache.usage(),
    };
  } finally {
    await cache.close();
  }
}

describe("the formats of a download's pages", () => {
  let csvOnly: Awaited<ReturnType<typeof download>>;
  beforeAll(async () => {
    const noted = notingFetch(passOn);
    csvOnly = await download('csv-only', noted.fetch, { pageFormats: 'csv' });
    expect(csvOnly.status).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(csvOnly.cells).toHaveLength(TOTAL);
    expect(new Set(noted.pages)).toEqual(new Set(['text/csv -> csv']));
  });

  /** Downloads through `answer`: every page asked for as Parquet and sent as one of `sent`, and the rows the CSV pages give. */
  async function expectCsvRows(name: string, answer: PageAnswer, sent: ('parquet' | 'csv')[]): Promise<void> {
    const noted = notingFetch(answer);
    const got = await download(name, noted.fetch);
    expect(got.status).toMatchObject({ state: 'cached', rowsLoaded: TOTAL });
    expect(noted.pages.length).toBeGreaterThan(3);
    expect(new Set(noted.pages)).toEqual(new Set(sent.map((format) => `${ASKED} -> ${format}`)));
    expect(got.columns).toEqual(csvOnly.columns);
    expect(got.cells).toEqual(csvOnly.cells);
    expect(got.inPlace).toBe(!sent.includes('csv'));
    expect(got.foldedCells).toEqual(csvOnly.cells);
  }

  it('are asked for as Parquet, and give the rows the CSV pages give', async () => {
    await expectCsvRows('parquet', passOn, ['parquet']);
  });

  it('are taken as CSV from a service that answers CSV whatever it is asked, with the same rows', async () => {
    await expectCsvRows('dune', asCsv, ['csv']);
  });

  it('may come some as Parquet and some as CSV in one download, with the same rows', async () => {
    const mixed: PageAnswer = (url, init) =>
      Number(url.searchParams.get('offset')) % (2 * PAGE_ROWS) === 0 ? passOn(url, init) : asCsv(url, init);
    await expectCsvRows('mixed', mixed, ['parquet', 'csv']);
  });

  it("fail the download when a Parquet page lacks the result's columns, naming the page, and cache nothing", async () => {
    const file = join(dir, 'wrong.parquet');
    const instance = await DuckDBInstance.create(':memory:');
    const writer = await instance.connect();
    await writer.run(
      `COPY (SELECT i AS id, 'x' AS label FROM range(${PAGE_ROWS}, ${2 * PAGE_ROWS}) AS t(i)) TO '${file}' (FORMAT parquet)`,
    );
    writer.closeSync();
    instance.closeSync();
    const wrong = readFileSync(file);
    const noted = notingFetch(async (url, init) => {
      if (url.searchParams.get('offset') !== String(PAGE_ROWS)) return passOn(url, init);
      return new Response(wrong, { headers: { 'Content-Type': PARQUET, 'X-DUNE-Next-Offset': String(2 * PAGE_ROWS) } });
    });
    const failed = await download('wrong', noted.fetch);
    expect(failed.status).toMatchObject({
      state: 'failed',
      error: `The page of rows ${PAGE_ROWS} to ${2 * PAGE_ROWS} held the columns id, label, not c0 to c10.`,
    });
    expect(failed.usage.entryCount).toBe(0);
    expectSentences(failed.status.error ?? '');
  });

  it('fail the download when a Parquet page cannot be read, naming it among the pages checked with it, and cache nothing', async () => {
    const noted = notingFetch(async (url, init) => {
      const page = await passOn(url, init);
      if (url.searchParams.get('offset') !== String(PAGE_ROWS)) return page;
      // the service's own page with its footer (the file's description of itself) overwritten: it
      // still begins and ends with PAR1, so that only DuckDB's read of it can tell
      const bytes = Buffer.from(await page.arrayBuffer());
      const footer = bytes.readUInt32LE(bytes.length - 8);
      bytes.fill(0xff, bytes.length - 8 - footer, bytes.length - 8);
      return new Response(bytes, { headers: page.headers });
    });
    const failed = await download('unreadable', noted.fetch);
    expect(failed.status.state).toBe('failed');
    expect(failed.status.error).toMatch(
      new RegExp(`^The page of rows ${PAGE_ROWS} to ${2 * PAGE_ROWS} is not a Parquet file the cache can read \\(.+\\)\\.$`),
    );
    expect(failed.usage.entryCount).toBe(0);
  });

  it('fail the download when a Parquet page holds fewer rows than it was asked for, naming the page, and cache nothing', async () => {
    const noted = notingFetch(async (url, init) => {
      if (url.searchParams.get('offset') !== String(2 * PAGE_ROWS)) return passOn(url, init);
      // the service's own page, one row short, standing where the whole page belongs
      url.searchParams.set('limit', String(PAGE_ROWS - 1));
      const short = await passOn(url, init);
      return new Response(await short.arrayBuffer(), { headers: { 'Content-Type': PARQUET, 'X-DUNE-Next-Offset': String(3 * PAGE_ROWS) } });
    });
    const failed = await download('short', noted.fetch);
    expect(failed.status).toMatchObject({
      state: 'failed',
      error: `The page of rows ${2 * PAGE_ROWS} to ${3 * PAGE_ROWS} held ${PAGE_ROWS - 1} rows.`,
    });
    expect(failed.usage.entryCount).toBe(0);
  });
});
