import { rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { PageFormat, ServiceClient, ServiceError } from '../service-client/index.ts';
import type { RowRange } from './page-ranges.ts';

// One page of a download, its body streamed to a file as it arrives (never held as text): asked
// for as Parquet, which a service that can sends in fewer bytes than CSV and DuckDB loads for far
// less CPU, and kept as whichever of the two came (Dune's own service sends CSV). And the first
// page of a download asked for before the result's status has answered, so that its round trip
// and the status's are one (see result-cache.ts).

/**
 * A page's body goes to disk this much at a time: it comes in 16 KB pieces, and a write for each
 * (4,500 for the million-row demo result) took about as much of the app's CPU as the rest of the
 * fetching together.
 */
const WRITE_BYTES = 512 * 1024;

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
export async function fetchPage(source: PageSource, range: RowRange, signal: AbortSignal, name = `${range.offset}.page`): Promise<FetchedPage> {
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
  return { file, format: page.value.format, nextOffset: page.value.nextOffset };
}

/** The first page of a download, asked for before the download knew the result's size. */
export interface EarlyPage {
  /** The page, if `range` is the one asked for early (or within it); it is taken once. */
  take(range: RowRange): Promise<FetchedPage> | undefined;
  /** Stops it if not taken, and resolves once it writes no more (its file is removed). */
  discard(): Promise<void>;
}

/** Asks at once for the `range` of rows a download starts with, before the result's size is known. */
export function startEarlyPage(source: PageSource, range: RowRange, signal: AbortSignal): EarlyPage {
  const stop = new AbortController();
  // a name of its own: a page the download asks for itself never shares a file with this one
  let fetched: Promise<FetchedPage> | undefined = fetchPage(source, range, AbortSignal.any([signal, stop.signal]), `early-${range.offset}.page`);
  // a page never taken fails unseen
  fetched.catch(() => undefined);
  return {
    take(wanted) {
      // a result smaller than the page asked for ends within it, and the page holds just its rows
      if (fetched === undefined || wanted.offset !== range.offset || range.end < wanted.end) return undefined;
      const page = fetched;
      fetched = undefined;
      return page;
    },
    async discard() {
      stop.abort();
      const left = fetched;
      fetched = undefined;
      await left?.then((page) => rmSync(page.file, { force: true })).catch(() => undefined);
    },
  };
}

/** Writes the file from its start (each attempt at a page calls this again). */
async function writeBody(body: AsyncIterable<Uint8Array>, file: string): Promise<void> {
  const handle = await open(file, 'w');
  // pieces are copied into one buffer rather than kept until written, so that they die young
  const buffer = Buffer.allocUnsafe(WRITE_BYTES);
  let filled = 0;
  try {
    for await (const chunk of body) {
      for (let at = 0; at < chunk.length; ) {
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
  }
}
