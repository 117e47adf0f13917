import { rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceClient, ServiceError } from '../service-client/index.ts';
import type { RowRange } from './page-ranges.ts';

// One CSV page of a download, its body streamed to a file as it arrives (never held as text); and
// the first pages of a download asked for before the result's status has answered, so that their
// round trip and the status's are one (see result-cache.ts).

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

export interface PageSource {
  client: ServiceClient;
  executionId: string;
  allowPartial: boolean;
  /** The folder the page files go to. */
  workDir: string;
}

export interface FetchedPage {
  file: string;
  /** The service's offset after the page; null after the last row. */
  nextOffset: number | null;
}

/** Asks for the rows of `range`; throws a DownloadFailure when the service did not send them. */
export async function fetchPage(source: PageSource, range: RowRange, signal: AbortSignal, name = `${range.offset}.csv`): Promise<FetchedPage> {
  const file = join(source.workDir, name);
  const page = await source.client.results.csvPageStream(
    { executionId: source.executionId, offset: range.offset, limit: range.end - range.offset, allowPartialResults: source.allowPartial, signal },
    (body) => writeBody(body, file),
  );
  if (!page.ok) throw new DownloadFailure(page.error);
  return { file, nextOffset: page.value.nextOffset };
}

/** Pages asked for before the download knew the result's size. */
export interface EarlyPages {
  /** The page asked for from `range.offset` with `range`'s size, if it was; each is taken once. */
  take(range: RowRange): Promise<FetchedPage> | undefined;
  /** Stops those not taken, and resolves once none of them writes any more (their files are removed). */
  discard(): Promise<void>;
}

/** Asks at once for `count` pages of `pageRows` rows from row `from`, before the result's size is known. */
export function startEarlyPages(source: PageSource, from: number, pageRows: number, count: number, signal: AbortSignal): EarlyPages {
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  const pages = new Map<number, { range: RowRange; fetched: Promise<FetchedPage> }>();
  for (let i = 0; i < count; i++) {
    const range = { offset: from + i * pageRows, end: from + (i + 1) * pageRows };
    // a name of their own: a page the download asks for itself never shares a file with one of these
    const fetched = fetchPage(source, range, both, `early-${range.offset}.csv`);
    // a page never taken fails unseen
    fetched.catch(() => undefined);
    pages.set(range.offset, { range, fetched });
  }
  return {
    take(range) {
      const page = pages.get(range.offset);
      // a result smaller than the page asked for ends within it, and the page holds just its rows
      if (page === undefined || page.range.end < range.end) return undefined;
      pages.delete(range.offset);
      return page.fetched;
    },
    async discard() {
      stop.abort();
      const left = [...pages.values()];
      pages.clear();
      for (const { fetched } of left) await fetched.then((page) => rmSync(page.file, { force: true })).catch(() => undefined);
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
