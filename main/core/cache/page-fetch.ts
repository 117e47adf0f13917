import { rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageFormat, ServiceClient, ServiceError } from '../service-client/index.ts';
import type { RowRange } from './page-ranges.ts';

// One page of a download, its body streamed to a file as it arrives (never held as text): asked
// for as Parquet, which a service that can sends in fewer bytes than CSV and DuckDB loads for far
// less CPU, and kept as whichever of the two came (Dune's own service sends CSV). And the first
// pages of a download asked for before the result's status has answered, so that their round trip
// and the status's are one (see result-cache.ts).

/**
 * A page's body goes to disk this much at a time: it comes in 16 KB pieces, and a write for each
 * (4,500 for the million-row demo result) took about as much of the app's CPU as the rest of the
 * fetching together.
 */
const WRITE_BYTES = 512 * 1024;
/**
 * Buffers of pages written before, for the next: a new one for each page had V8 collect its heap
 * during a download, at a cost in the app's CPU, for memory outside it (see bench/RESULTS.md).
 * As many are kept as pages are ever in flight.
 */
const spareBuffers: Buffer[] = [];
const SPARE_BUFFERS = 16;

export class DownloadFailure extends Error {
  readonly error: ServiceError;
  constructor(error: ServiceError) {
    super(error.message);
    this.error = error;
  }
}

/** What pages are asked for as: Parquet where the service can send it, or CSV only. */
export type PageFormats = 'parquet-or-csv' | 'csv';

export interface PageSource {
  client: ServiceClient;
  executionId: string;
  allowPartial: boolean;
  formats: PageFormats;
  /** The folder the page files go to. */
  workDir: string;
}

export interface FetchedPage {
  file: string;
  /** What the service sent the page as. */
  format: PageFormat;
  /** The service's offset after the page; null after the last row. */
  nextOffset: number | null;
}

/** Asks for the rows of `range`; throws a DownloadFailure when the service did not send them. */
export async function fetchPage(
  source: PageSource,
  range: RowRange,
  signal: AbortSignal,
  name = `${range.offset}.page`,
): Promise<FetchedPage> {
  const file = join(source.workDir, name);
  const page = await source.client.results.csvPageStream(
    {
      executionId: source.executionId,
      offset: range.offset,
      limit: range.end - range.offset,
      allowPartialResults: source.allowPartial,
      parquet: source.formats === 'parquet-or-csv',
      signal,
    },
    (body) => writeBody(body, file),
  );
  if (!page.ok) throw new DownloadFailure(page.error);
  return { file, format: page.data.format, nextOffset: page.data.nextOffset };
}

/** The first pages of a download, asked for before the download knew the result's size. */
export interface EarlyPages {
  /**
   * The page asked for early as `range`, or as a range that goes on past `resultEnd` when `range`
   * is the result's last (the page then holds just its rows); each is taken once.
   */
  take(range: RowRange, resultEnd: number): Promise<FetchedPage> | undefined;
  /** Stops those not taken, and resolves once they write no more (their files are removed). */
  discard(): Promise<void>;
}

/** Asks at once for the `ranges` of rows a download starts with, before the result's size is known. */
export function startEarlyPages(source: PageSource, ranges: RowRange[], signal: AbortSignal): EarlyPages {
  const stop = new AbortController();
  const asked = AbortSignal.any([signal, stop.signal]);
  const waiting = new Map<number, { range: RowRange; page: Promise<FetchedPage> }>();
  for (const range of ranges) {
    // a name of its own: a page the download asks for itself never shares a file with this one
    const page = fetchPage(source, range, asked, `early-${range.offset}.page`);
    // a page never taken fails unseen
    page.catch(() => undefined);
    waiting.set(range.offset, { range, page });
  }
  return {
    take(wanted, resultEnd) {
      const early = waiting.get(wanted.offset);
      // any other range would hold rows the download did not ask for there (its pages were cut shorter)
      if (early === undefined || (early.range.end !== wanted.end && (wanted.end !== resultEnd || early.range.end < resultEnd)))
        return undefined;
      waiting.delete(wanted.offset);
      return early.page;
    },
    async discard() {
      stop.abort();
      const left = [...waiting.values()];
      waiting.clear();
      await Promise.all(left.map(({ page }) => page.then((fetched) => rmSync(fetched.file, { force: true })).catch(() => undefined)));
    },
  };
}

/** Writes the file from its start (each attempt at a page calls this again). */
async function writeBody(body: AsyncIterable<Uint8Array>, file: string): Promise<void> {
  const handle = await open(file, 'w');
  // pieces are copied into one buffer rather than kept until written, so that they die young
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(WRITE_BYTES);
  let filled = 0;
  try {
    for await (const chunk of body) {
      for (let at = 0; at < chunk.length;) {
        const taken = Math.min(chunk.length - at, WRITE_BYTES - filled);
        buffer.set(chunk.subarray(at, at + taken), filled);
        filled += taken;
        at += taken;
        if (filled < WRITE_BYTES) continue;
        await handle.write(buffer, 0, filled);
        filled = 0;
      }
    }
    if (filled > 0) await handle.write(buffer, 0, filled);
  } finally {
    await handle.close();
    // no write of it is under way: each was awaited, or the one that failed has ended
    if (spareBuffers.length < SPARE_BUFFERS) spareBuffers.push(buffer);
  }
}
