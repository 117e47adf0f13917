// `npm run bench:service`: throughput and latency of the embedded service (in a process of its own)
// on a 1,000,000-row result, next to the same work done directly in DuckDB in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { DEMO_QUERIES } from '../main/service/seed/demo-queries.ts';
import { startServiceChild } from './service-child.ts';

const LARGE_QUERY_ID = 4;
const CLIENTS = 16;
const REQUESTS_PER_CLIENT = 20;
const FILTERS = "chain = 'base' and amount_usd > 5000";
const SORT_BY = 'amount_usd desc';
const DIRECT_FILTERED = `SELECT * FROM r WHERE chain = 'base' AND amount_usd > 5000 ORDER BY amount_usd DESC, rowid LIMIT 100 OFFSET ?`;
const MIXED_SECONDS = 60;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Thrown by a client's request to say that its time is up. */
class StopMixed extends Error {}

async function latencies(clients: number, perClient: number, one: (i: number) => Promise<void>) {
  const times: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < perClient; i++) {
        const started = performance.now();
        try {
          await one(c + i * clients);
        } catch (error) {
          if (error instanceof StopMixed) return;
          throw error;
        }
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p99: percentile(times, 99), perSecond: times.length / ((performance.now() - start) / 1000) };
}

/** What a client needs of a page to go on: the next page's address, and the rows it got. */
interface PageEnd {
  next: string | undefined;
  rows: number;
}

/**
 * A JSON page's row count and next address, read at its end: the body is not parsed, as parsing a
 * 30,000-row page in this process took about as long as the service took to write it, and that is
 * the client's work, not the service's (the references beside it write the text and read nothing).
 */
function jsonPageEnd(body: Buffer): PageEnd {
  const tail = body.subarray(Math.max(0, body.length - 4096)).toString();
  const next = /"next_uri":("(?:[^"\\]|\\.)*")\}$/.exec(tail);
  const rows = /"row_count":(\d+)/.exec(tail);
  if (!rows) throw new Error('a JSON page without its row count at its end');
  return { next: next ? (JSON.parse(next[1]!) as string) : undefined, rows: Number(rows[1]) };
}

function csvPageEnd(response: Response, body: Buffer): PageEnd {
  return {
    next: response.headers.get('x-dune-next-uri') ?? undefined,
    get rows() {
      let lines = 0;
      for (let at = body.indexOf(10); at !== -1; at = body.indexOf(10, at + 1)) lines++;
      return lines - 1;
    },
  };
}

/**
 * Pages through a result; the rows are counted once the time is taken, as counting is the client's
 * work. Also answers the CPU time the service and this client took meanwhile.
 */
async function pageThrough(first: string, key: string, end: (response: Response, body: Buffer) => PageEnd) {
  const start = performance.now();
  const [serviceCpu, clientCpu] = [service.cpuMillis(), process.cpuUsage()];
  let uri: string | undefined = first;
  const pages: { response: Response; body: Buffer }[] = [];
  while (uri) {
    const response = await fetch(uri, { headers: { 'x-dune-api-key': key } });
    if (response.status !== 200) throw new Error(`${uri}: HTTP ${response.status}`);
    const body = Buffer.from(await response.arrayBuffer());
    pages.push({ response, body });
    uri = end(response, body).next;
  }
  const seconds = (performance.now() - start) / 1000;
  const client = process.cpuUsage(clientCpu);
  const cpu = { service: service.cpuMillis() - serviceCpu, client: (client.user + client.system) / 1000 };
  const rows = pages.reduce((sum, page) => sum + end(page.response, page.body).rows, 0);
  if (rows !== 1_000_000) throw new Error(`paging read ${rows} rows of 1,000,000`);
  return { seconds, bytes: pages.reduce((sum, page) => sum + page.body.length, 0), cpu };
}

const dataDir = mkdtempSync(join(tmpdir(), 'querydesk-bench-'));
// in a process of its own, as a service is to its clients: its memory is its own, and its event loop
// is not the clients' (the references below run in this one)
const service = await startServiceChild(dataDir);
const key = service.key;
const api = (path: string) => `${service.baseUrl}/api/v1${path}`;
try {
  const started = performance.now();
  const { execution_id: id } = (await (await fetch(api(`/query/${LARGE_QUERY_ID}/execute`), { method: 'POST', headers: { 'x-dune-api-key': key } })).json()) as { execution_id: string };
  for (;;) {
    const status = (await (await fetch(api(`/execution/${id}/status`), { headers: { 'x-dune-api-key': key } })).json()) as { is_execution_finished: boolean; state: string; result_metadata?: { total_row_count: number } };
    if (status.is_execution_finished) {
      if (!status.result_metadata) throw new Error(`execution ended as ${status.state}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const executeSeconds = (performance.now() - started) / 1000;
  const rows = 1_000_000;

  // Read once before the timing, in pages short enough to be written each time: the references
  // read a table already in memory, and the service's first read of a result takes it from the file.
  await pageThrough(api(`/execution/${id}/results/csv?limit=2000`), key, csvPageEnd);
  // The first read of a result in 30,000-row pages writes its text, which the second reads again.
  const jsonPages = () => pageThrough(api(`/execution/${id}/results?limit=30000`), key, (_, body) => jsonPageEnd(body));
  const csvPages = () => pageThrough(api(`/execution/${id}/results/csv?limit=30000`), key, csvPageEnd);
  const json = await jsonPages();
  const jsonAgain = await jsonPages();
  const csv = await csvPages();
  const csvAgain = await csvPages();

  const get = async (path: string) => {
    const response = await fetch(api(path), { headers: { 'x-dune-api-key': key } });
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
    await response.text();
  };
  const filteredPath = (i: number) =>
    `/execution/${id}/results?${new URLSearchParams({ filters: FILTERS, sort_by: SORT_BY, limit: '100', offset: String((i * 997) % 50_000) })}`;
  const rssBefore = service.residentBytes();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, service.residentBytes())), 20);
  // The first page of a filter is read alone (a top-N sort); the second makes the view, the filter
  // and the sort run once: the 16 clients page on from there.
  const timedGet = async (path: string) => {
    const start = performance.now();
    await get(path);
    return performance.now() - start;
  };
  const firstPageMs = await timedGet(filteredPath(0));
  const viewMadeMs = await timedGet(filteredPath(1));
  const served = await latencies(CLIENTS, REQUESTS_PER_CLIENT, (i) => get(filteredPath(i)));

  // status, plain pages, a query, the tables: what a room of clients asks all the time
  const mixedPaths = [
    () => `/execution/${id}/status`,
    () => `/execution/${id}/results?limit=100&offset=${Math.floor(Math.random() * 999_900)}`,
    () => `/query/${LARGE_QUERY_ID}`,
    () => '/tables',
  ];
  let mixedErrors = 0;
  const mixedEnd = performance.now() + MIXED_SECONDS * 1000;
  const mixed = await latencies(CLIENTS, Number.MAX_SAFE_INTEGER, async (i) => {
    if (performance.now() > mixedEnd) throw new StopMixed();
    await get(mixedPaths[i % mixedPaths.length]!()).catch(() => mixedErrors++);
  });
  clearInterval(sampler);

  // the same data and the same page queries, straight in DuckDB
  const direct = await DuckDBInstance.create(':memory:');
  const setup = await direct.connect();
  await setup.run(`CREATE TABLE r AS ${DEMO_QUERIES.find((q) => q.name === 'One million rows')!.sql}`);
  const connections: DuckDBConnection[] = await Promise.all(Array.from({ length: CLIENTS }, () => direct.connect()));
  const directStart = performance.now();
  for (let offset = 0; offset < rows; offset += 30_000) {
    (await setup.runAndReadAll(`SELECT * FROM r LIMIT 30000 OFFSET ${offset}`)).getRowObjectsJson();
  }
  const directPagingSeconds = (performance.now() - directStart) / 1000;
  const copyDir = mkdtempSync(join(tmpdir(), 'querydesk-bench-copy-'));
  const csvStart = performance.now();
  for (let offset = 0; offset < rows; offset += 30_000) {
    await setup.run(`COPY (SELECT * FROM r LIMIT 30000 OFFSET ${offset}) TO '${join(copyDir, `${offset}.csv`)}' (HEADER)`);
  }
  const directCsvSeconds = (performance.now() - csvStart) / 1000;
  rmSync(copyDir, { recursive: true, force: true });
  const jsonStart = performance.now();
  const jsonCpu = process.cpuUsage();
  for (let offset = 0; offset < rows; offset += 30_000) {
    await setup.runAndReadAll(`SELECT string_agg(to_json(p), ',') FROM (SELECT * FROM r LIMIT 30000 OFFSET ${offset}) p`);
  }
  const directJsonSeconds = (performance.now() - jsonStart) / 1000;
  const directJsonCpu = process.cpuUsage(jsonCpu);
  await setup.runAndReadAll(DIRECT_FILTERED, [0]);
  const straight = await latencies(CLIENTS, REQUESTS_PER_CLIENT, async (i) => {
    (await connections[i % CLIENTS]!.runAndReadAll(DIRECT_FILTERED, [(i * 997) % 50_000])).getRowObjectsJson();
  });

  const perSecond = (seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(`Querydesk service benchmark: 1,000,000 rows x 8 columns (executed and stored in ${executeSeconds.toFixed(1)} s)`);
  const paging = (read: { seconds: number; bytes: number }) =>
    `${perSecond(read.seconds)} rows/s (${(read.bytes / 1e6).toFixed(0)} MB in ${read.seconds.toFixed(2)} s)`;
  const cpu = (read: { cpu: { service: number; client: number } }) => `CPU: service ${read.cpu.service.toFixed(0)} ms, client ${read.cpu.client.toFixed(0)} ms`;
  console.log(`  JSON paging, 30,000-row pages, first read (writes the text): ${paging(json)}; ${cpu(json)}`);
  console.log(`                                 read again (text kept):      ${paging(jsonAgain)}`);
  console.log(`  CSV paging, 30,000-row pages, first read (writes the text):  ${paging(csv)}`);
  console.log(`                                read again (text kept):       ${paging(csvAgain)}`);
  const ratios = (reference: number, first: number, again: number) => `service at ${(reference / first).toFixed(2)}x of it first, ${(reference / again).toFixed(2)}x again`;
  console.log(`  DuckDB directly, same pages as JS objects: ${perSecond(directPagingSeconds)} rows/s -> ${ratios(directPagingSeconds, json.seconds, jsonAgain.seconds)}`);
  console.log(`  DuckDB directly, same pages as JSON text: ${perSecond(directJsonSeconds)} rows/s -> ${ratios(directJsonSeconds, json.seconds, jsonAgain.seconds)}`);
  console.log(`    (its CPU: ${((directJsonCpu.user + directJsonCpu.system) / 1000).toFixed(0)} ms, on DuckDB's threads; the service's first read shares the cores with its client)`);
  console.log(`  DuckDB directly, same pages COPY'd to CSV files: ${perSecond(directCsvSeconds)} rows/s -> ${ratios(directCsvSeconds, csv.seconds, csvAgain.seconds)}`);
  console.log(`  filtered + sorted 100-row page, ${CLIENTS} concurrent clients x ${REQUESTS_PER_CLIENT}:`);
  console.log(`    the filter's first page: ${ms(firstPageMs)}; the second, which makes the view: ${ms(viewMadeMs)}`);
  console.log(`    service, pages after the first: median ${ms(served.median)}, p99 ${ms(served.p99)}`);
  console.log(`    DuckDB directly: median ${ms(straight.median)}, p99 ${ms(straight.p99)}`);
  console.log(`    ratio service / direct: median ${(served.median / straight.median).toFixed(2)}x, p99 ${(served.p99 / straight.p99).toFixed(2)}x`);
  console.log(`  mixed reads (status, 100-row pages, a query, tables), ${CLIENTS} clients for ${MIXED_SECONDS} s:`);
  console.log(`    ${mixed.perSecond.toFixed(0)} requests/s, median ${ms(mixed.median)}, p99 ${ms(mixed.p99)}, ${mixedErrors} errors`);
  console.log(`  memory of the service while ${CLIENTS} clients page and read: peak ${((rssPeak - rssBefore) / 1e6).toFixed(0)} MB above its level before (${(rssBefore / 1e6).toFixed(0)} MB)`);
  for (const connection of [setup, ...connections]) connection.closeSync();
  direct.closeSync();
} finally {
  await service.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
