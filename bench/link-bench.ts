// `npm run bench:link` (and the end of `npm run bench`): the download of the 1,000,000-row demo
// result into the app's cache over a simulated link (80 ms round trip, 100 Mbit/s shared), next
// to the official client's JSON and CSV reads over the same link, and the link's own time for the
// bytes each sent. The service compresses as the real one does for a client on another machine;
// the service and the link run in processes of their own, as they would be elsewhere.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuneClient } from '@duneanalytics/client-sdk';
import type { CacheStatus } from '../main/contract/index.ts';
import type { PageFormats } from '../main/core/cache/page-fetch.ts';
import { openResultCache } from '../main/core/cache/result-cache.ts';
import { createServiceClient, type ServiceClient } from '../main/core/service-client/index.ts';
import { finishedStatus } from './finished-execution.ts';
import { startLinkChild } from './link-child.ts';
import type { LinkOptions } from './link-proxy.ts';
import { recordPrinted } from './results-file.ts';
import { startServiceChild } from './service-child.ts';

// Everything printed from here on is this run's section of bench/RESULTS.md, written once it ends well.
const recording = recordPrinted('bench:link');

const LARGE_QUERY_ID = 4;
const PAGE_ROWS = 30_000;
const LINK: LinkOptions = { roundTripMs: 80, bitsPerSecond: 100e6 };
/**
 * The app's Parquet downloads, each into a new cache: the result's first (the service has written
 * none of its pages yet), then the median of the rest, with all of them.
 */
const DOWNLOAD_RUNS = 4;

const dir = mkdtempSync(join(tmpdir(), 'querydesk-link-bench-'));
const service = await startServiceChild(dir, ['--compression', 'always']);
const link = await startLinkChild(service.port, LINK);

/** Runs `work`, answering its time and the bytes the link carried to the client meanwhile. */
async function overLink<T>(work: () => Promise<T>): Promise<{ seconds: number; megabytes: number; value: T }> {
  const bytesBefore = await link.downBytes();
  const start = performance.now();
  const value = await work();
  const seconds = (performance.now() - start) / 1000;
  return { seconds, megabytes: ((await link.downBytes()) - bytesBefore) / 1e6, value };
}

/** When the pages' first and last bytes came, in seconds from `since` (performance.now()). */
interface PageBytes {
  since: number;
  first: number;
  last: number;
}

/** `client`, noting in `bytes` when each page's body began and ended (what the link gave) apart from what the app did after. */
function timingPages(client: ServiceClient, bytes: PageBytes): ServiceClient {
  const seconds = () => (performance.now() - bytes.since) / 1000;
  const csvPageStream: ServiceClient['results']['csvPageStream'] = (args, consume) =>
    client.results.csvPageStream(args, (body, headers) =>
      consume(
        (async function* () {
          for await (const chunk of body) {
            bytes.first = Math.min(bytes.first, seconds());
            yield chunk;
          }
          bytes.last = Math.max(bytes.last, seconds());
        })(),
        headers,
      ),
    );
  return { ...client, results: { ...client.results, csvPageStream } };
}

/** The link's time for that many bytes: their time on the line, and one round trip. */
const lineSeconds = (megabytes: number) => (megabytes * 8e6) / LINK.bitsPerSecond + LINK.roundTripMs / 1000;

try {
  const client = createServiceClient({ baseUrl: link.origin, apiKey: service.key, serviceName: 'DUNE' });
  const executed = await createServiceClient({ baseUrl: service.baseUrl, apiKey: service.key, serviceName: 'DUNE' }).executions.execute({
    queryId: LARGE_QUERY_ID,
  });
  if (!executed.ok) throw new Error(executed.error.message);
  const executionId = executed.data.executionId;
  const totalRows = (await finishedStatus(client, executionId)).resultMetadata?.totalRowCount ?? 0;

  /**
   * The app's download into a new cache; as CSV, as from a service that does not offer Parquet (the
   * real one). The app knows the result's rows from the run it watched end, as here.
   */
  const download = async (pageFormats: PageFormats, attempt: number) => {
    let finished: (status: CacheStatus) => void = () => undefined;
    const cache = await openResultCache({
      dir: join(dir, `cache-${pageFormats}-${attempt}`),
      pageFormats,
      knownRowCount: () => totalRows,
      onStatus: (s) => s.state !== 'downloading' && finished(s),
    });
    const bytes: PageBytes = { since: performance.now(), first: Number.POSITIVE_INFINITY, last: 0 };
    const run = await overLink(async () => {
      const done = new Promise<CacheStatus>((resolve) => (finished = resolve));
      bytes.since = performance.now();
      const started = await cache.start('bench', timingPages(client, bytes), executionId, false);
      if (!started.ok) throw new Error(started.error.message);
      return done;
    });
    // a new download's Parquet pages are read in place once on disk, and folded into a table after
    await cache.folded();
    const folded = (performance.now() - bytes.since) / 1000;
    await cache.close();
    if (run.value.state !== 'cached') throw new Error(`download ended ${run.value.state}: ${run.value.error}`);
    return { ...run, bytes, folded };
  };
  // The app's Parquet downloads, each into a new cache: the first is what a user meets after a run
  // ends (the result's file not yet read by the service); the median of the later ones beside it.
  // The service keeps a result's CSV text after its first read: the CSV download is
  // run twice, the first while the service writes that text on the cores the app loads on, the
  // second from the text kept, as a service elsewhere would answer it.
  const runs: Awaited<ReturnType<typeof download>>[] = [];
  for (let run = 0; run < DOWNLOAD_RUNS; run++) runs.push(await download('parquet-or-csv', run));
  const first = runs[0]!;
  const later = runs.slice(1).sort((a, b) => a.seconds - b.seconds);
  const app = later[Math.floor(later.length / 2)]!;
  const appCsv = await download('csv', 0);
  const appCsvAgain = await download('csv', 1);

  // The official client is sent to the link wherever it would go (api.dune.com, or a next_uri
  // the service gave with its own address).
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) =>
    realFetch(
      String(input instanceof Request ? input.url : input)
        .replace('https://api.dune.com', link.origin)
        .replace(service.baseUrl, link.origin),
      init,
    );
  const sdk = new DuneClient(service.key);
  const json = await overLink(
    async () => (await sdk.exec.getLastExecutionResults(LARGE_QUERY_ID, { limit: PAGE_ROWS })).results.result?.rows.length ?? 0,
  );
  const csv = await overLink(async () => (await sdk.exec.getLastResultCSV(LARGE_QUERY_ID, { limit: PAGE_ROWS })).data.length);
  globalThis.fetch = realFetch;
  if (json.value !== 1_000_000) throw new Error(`the official client read ${json.value} rows`);

  const row = (label: string, run: { seconds: number; megabytes: number }, note: string) =>
    console.log(
      `${label.padEnd(62)} ${`${run.seconds.toFixed(2)} s`.padStart(9)}  ${`${run.megabytes.toFixed(1)} MB`.padStart(9)}   ${note}`,
    );
  console.log(
    `Download of 1,000,000 rows x 8 columns over a simulated link: ${LINK.roundTripMs} ms round trip, ${LINK.bitsPerSecond / 1e6} Mbit/s shared\n`,
  );
  const ofLink = (run: { seconds: number; megabytes: number }) =>
    `link's time for its bytes ${lineSeconds(run.megabytes).toFixed(2)} s: app takes ${(run.seconds / lineSeconds(run.megabytes)).toFixed(2)}x`;
  row("Download into the cache (the app, Parquet), the result's first", first, ofLink(first) + ' (goal 1.2x)');
  row(`  ... later ones (the median of ${later.length})`, app, ofLink(app));
  const ofJson = (run: { seconds: number }) => `; ${(json.seconds / run.seconds).toFixed(2)}x the official JSON read's speed`;
  row('  the same from a service without Parquet (CSV)', appCsv, ofLink(appCsv) + ofJson(appCsv));
  row("  ... again, the service's CSV text kept", appCsvAgain, ofLink(appCsvAgain) + ofJson(appCsvAgain));
  console.log(`  (the app's Parquet downloads in turn: ${runs.map((r) => `${r.seconds.toFixed(2)} s`).join(', ')})`);
  console.log(
    `  (each, the pages' first byte / last byte / cached, read in place / folded into a table: ${runs.map(({ bytes, seconds, folded }) => `${bytes.first.toFixed(2)} / ${bytes.last.toFixed(2)} / ${seconds.toFixed(2)} / ${folded.toFixed(2)} s`).join(', ')})`,
  );
  row('  official client, all JSON pages', json, `app is ${(json.seconds / app.seconds).toFixed(2)}x its speed`);
  row('  official client, all CSV pages', csv, `app is ${(csv.seconds / app.seconds).toFixed(2)}x its speed`);
  recording.save();
} finally {
  await link.close();
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
