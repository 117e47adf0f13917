import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServiceProcess, type ServiceAccount, type ServiceProcess } from './service-process.ts';

// Long executions of other contexts against one context's reads: the reads (the query list, a
// result page, a status, a cancel) must still be answered while the long executions run, and
// every long execution must end when cancelled. A second part runs memory-heavy queries from
// several contexts at once and follows the service's resident memory and spill files.

/** A cross join that runs for hours unless stopped, with next to no memory. */
export const LONG_SQL = 'SELECT count(*) AS n FROM range(1000000) a, range(1000000) b WHERE a.range * b.range = 7';
/** A sort of about 640 MB of text: more than a context's memory, so it spills. */
export const HEAVY_SQL =
  'SELECT count(*) AS n, max(r) AS m FROM (SELECT row_number() OVER (ORDER BY t) AS r FROM (SELECT md5(range::varchar) || md5((range + 1)::varchar) AS t FROM range(10000000)))';

const READER = 'reader';
const KEY = (handle: string) => ({ 'x-dune-api-key': `key-${handle}` });

export interface Latencies {
  count: number;
  /** Reads that got no answer within the read timeout. */
  unanswered: number;
  median: number;
  p99: number;
  max: number;
}

export interface StarveReport {
  idle: Latencies;
  busy: Latencies;
  /** The cancel of the reader's own long execution while the others run: millis, null when unanswered. */
  cancelMillis: number | null;
  cancelledState: string | null;
  /** The long executions' states just before the busy reads and just after them. */
  longBefore: string[];
  longAfter: string[];
  /** Their states once each was cancelled and had finished. */
  longEnded: string[];
}

export interface ResourceReport {
  peakRssBytes: number;
  peakSpillBytes: number;
  /** Each heavy execution's end: its state and, when it failed, its message. */
  outcomes: string[];
  seconds: number;
}

async function api(
  service: ServiceProcess,
  handle: string,
  method: string,
  path: string,
  body?: unknown,
  timeoutMs = 60_000,
): Promise<any> {
  const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
    method,
    headers: KEY(handle),
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

const run = async (service: ServiceProcess, handle: string, sql: string) =>
  (await api(service, handle, 'POST', '/sql/execute', { sql })).execution_id as string;
const status = (service: ServiceProcess, handle: string, id: string) => api(service, handle, 'GET', `/execution/${id}/status`);

async function finished(service: ServiceProcess, handle: string, id: string): Promise<any> {
  for (;;) {
    const body = await status(service, handle, id);
    if (body.is_execution_finished) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until none of them is PENDING any more, or until it is clear some stay queued. */
async function settled(service: ServiceProcess, runs: { handle: string; id: string }[]): Promise<void> {
  const until = Date.now() + 5_000;
  while (Date.now() < until) {
    const states = await Promise.all(runs.map((r) => status(service, r.handle, r.id).catch(() => null)));
    if (states.every((s) => s !== null && s.state !== 'QUERY_STATE_PENDING')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function describeState(body: any): string {
  return body.queue_position === undefined ? body.state : `${body.state} (queue position ${body.queue_position})`;
}

function figures(millis: (number | null)[]): Latencies {
  const answered = millis.filter((m): m is number => m !== null).sort((a, b) => a - b);
  const at = (q: number) => answered[Math.min(answered.length - 1, Math.floor(q * answered.length))] ?? NaN;
  return { count: millis.length, unanswered: millis.length - answered.length, median: at(0.5), p99: at(0.99), max: answered.at(-1) ?? NaN };
}

/** `rounds` rounds of the reader's reads, one after another: each read's millis, null when unanswered. */
async function timeReads(service: ServiceProcess, resultId: string, rounds: number, timeoutMs: number): Promise<(number | null)[]> {
  const paths = ['/queries?limit=10', `/execution/${resultId}/results?limit=100`, `/execution/${resultId}/status`];
  const millis: (number | null)[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const path of paths) {
      const began = performance.now();
      try {
        await api(service, READER, 'GET', path, undefined, timeoutMs);
        millis.push(performance.now() - began);
      } catch {
        millis.push(null);
      }
    }
  }
  return millis;
}

function accounts(handles: string[], plan: ServiceAccount['plan']): ServiceAccount[] {
  return handles.map((handle) => ({ handle, type: 'user', plan, api_keys: [`key-${handle}`] }));
}

/** `long` contexts each start a long execution; the reader's reads are timed before and while they run. */
export async function starveService(options: {
  long: number;
  rounds: number;
  readTimeoutMs: number;
  extraArgs?: string[];
}): Promise<StarveReport> {
  const folder = mkdtempSync(join(tmpdir(), 'querydesk-starve-'));
  const others = Array.from({ length: options.long }, (_, i) => `long${i}`);
  const service = await startServiceProcess({
    folder,
    dataDir: join(folder, 'data'),
    // the reader lists queries (a plus plan's endpoint); the others run on the smallest budget
    accounts: [...accounts([READER], 'plus'), ...accounts(others, 'free')],
    extraArgs: ['--rate-limit', 'off', ...(options.extraArgs ?? [])],
  });
  try {
    await api(service, READER, 'POST', '/query', { name: 'a query to list', query_sql: 'SELECT 1 AS one' });
    const resultId = await run(service, READER, 'SELECT range AS n, md5(range::varchar) AS h FROM range(10000)');
    await finished(service, READER, resultId);
    const idle = figures(await timeReads(service, resultId, options.rounds, options.readTimeoutMs));

    const runs = await Promise.all(others.map(async (handle) => ({ handle, id: await run(service, handle, LONG_SQL) })));
    await settled(service, runs);
    const statesOf = async () =>
      (await Promise.all(runs.map((r) => status(service, r.handle, r.id).catch(() => null)))).map((s) =>
        s ? describeState(s) : 'no answer',
      );
    const longBefore = await statesOf();
    const busy = figures(await timeReads(service, resultId, options.rounds, options.readTimeoutMs));
    const longAfter = await statesOf();

    let cancelMillis: number | null = null;
    let cancelledState: string | null = null;
    try {
      const own = await run(service, READER, LONG_SQL);
      const began = performance.now();
      await api(service, READER, 'POST', `/execution/${own}/cancel`, undefined, options.readTimeoutMs);
      cancelMillis = performance.now() - began;
      cancelledState = (await finished(service, READER, own)).state;
    } catch {
      // unanswered: reported as null
    }

    await Promise.all(runs.map((r) => api(service, r.handle, 'POST', `/execution/${r.id}/cancel`).catch(() => undefined)));
    const longEnded = await Promise.all(
      runs.map(async (r) => {
        try {
          return ((await Promise.race([finished(service, r.handle, r.id), new Promise((_, reject) => setTimeout(reject, 30_000))])) as any)
            .state as string;
        } catch {
          return 'not finished 30 s after its cancel';
        }
      }),
    );
    return { idle, busy, cancelMillis, cancelledState, longBefore, longAfter, longEnded };
  } finally {
    await Promise.race([service.kill('SIGKILL'), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    rmSync(folder, { recursive: true, force: true });
  }
}

function bytesUnder(folder: string): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return 0;
  }
  for (const name of entries) {
    const path = join(folder, name);
    try {
      const stat = statSync(path);
      total += stat.isDirectory() ? bytesUnder(path) : stat.blocks * 512;
    } catch {
      // removed while counted
    }
  }
  return total;
}

/** `contexts` contexts of `plan` each run HEAVY_SQL at once; the service's peak memory and spill are followed. */
export async function loadService(options: {
  contexts: number;
  plan: ServiceAccount['plan'];
  extraArgs?: string[];
}): Promise<ResourceReport> {
  const folder = mkdtempSync(join(tmpdir(), 'querydesk-load-'));
  const handles = Array.from({ length: options.contexts }, (_, i) => `heavy${i}`);
  const dataDir = join(folder, 'data');
  const service = await startServiceProcess({
    folder,
    dataDir,
    accounts: accounts(handles, options.plan),
    extraArgs: ['--rate-limit', 'off', ...(options.extraArgs ?? [])],
  });
  const began = performance.now();
  let peakSpillBytes = 0;
  const sampler = setInterval(() => (peakSpillBytes = Math.max(peakSpillBytes, bytesUnder(join(dataDir, 'tmp')))), 200);
  try {
    const ids = await Promise.all(handles.map((handle) => run(service, handle, HEAVY_SQL)));
    const ends = await Promise.all(ids.map((id, i) => finished(service, handles[i]!, id)));
    const outcomes = ends.map((end) => (end.error ? `${end.state}: ${end.error.message}` : end.state));
    return { peakRssBytes: service.memory().peak, peakSpillBytes, outcomes, seconds: (performance.now() - began) / 1000 };
  } finally {
    clearInterval(sampler);
    await Promise.race([service.kill('SIGKILL'), new Promise((resolve) => setTimeout(resolve, 5_000))]);
    rmSync(folder, { recursive: true, force: true });
  }
}
