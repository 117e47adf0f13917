import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rawRound, type RawOutcome } from './fuzz-raw.ts';
import { fuzzRequest, type FuzzRequest } from './fuzz-requests.ts';
import { buildWorld, FREE_KEY, FUZZ_ACCOUNTS } from './fuzz-world.ts';
import { seeded } from './random.ts';
import { probeSandbox } from './sandbox-writes.ts';
import { startServiceProcess } from './service-process.ts';

// Sends random requests to the service, a few at a time, and stops at the first answer that says
// the service failed (a 5xx), a crash, or memory that kept growing. A leak shows in the memory that
// stays: the lowest resident size over each window of requests, since a run of the million-row
// query or an upload lifts the size for a moment by hundreds of MB, and gives it back. The service
// fills bounded caches as its data grows (a DuckDB per context, results read lately, its allocator's
// pages) and then stays level, while a leak goes on growing with the requests: besides a ceiling,
// the memory that stays may grow little over the second half of a run.

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** Stops early, with what was sent, once this has passed. */
  maxSeconds: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Growth of the memory that stays (the lowest resident size of a window) over the size after setup that counts as a leak. */
  maxGrowthBytes: number;
  /** Growth of the memory that stays from the middle of the run to its end that counts as a leak (runs of two windows or more). */
  maxLateGrowthBytes: number;
  /** Growth of the resident size at any moment that counts as unbounded. */
  maxPeakGrowthBytes: number;
  /** Told every 1000 requests how many were sent and the service's resident memory then. */
  onProgress?: (sent: number, rss: number) => void;
  /** Told the service's resident memory once the world is built, before the raw and random requests. */
  onSetup?: (rss: number) => void;
  /** First sends, from a free key, the statements that once wrote files or read the host (see sandbox-writes.ts). */
  sandboxProbe: boolean;
  /** After the load, how long the service is left idle before its resident size is read again (`rssAfterIdle`); 0 by default. */
  idleAfterMillis?: number;
}

export interface FuzzProblem {
  index: number;
  request: FuzzRequest;
  status: number | null;
  answer: string;
}

export interface FuzzReport {
  sent: number;
  statuses: Record<string, number>;
  serverErrors: number;
  crashed: boolean;
  seconds: number;
  rssAfterSetup: number;
  peakRss: number;
  /** The lowest resident size of the last full window of requests (0 when the run was shorter than a window). */
  floorRss: number;
  /** The same, of the window that ended at or after the middle of the run (0 when there was none before the last). */
  floorRssAtHalf: number;
  rssAtEnd: number;
  /** The resident size `idleAfterMillis` after the load stopped (0 when not asked for, or after a crash). */
  rssAfterIdle: number;
  problems: FuzzProblem[];
  /** The sandbox probe's statements sent, and the files they changed. */
  sandboxStatements: number;
  filesWritten: number;
  /** The service's last stderr lines, kept when a request got a 5xx or the service logged an internal error. */
  serviceErrors: string;
  /** The fixed requests written on sockets (fuzz-raw.ts), sent before the random ones; the failed ones are problems too. */
  raw: RawOutcome[];
}

const REQUEST_TIMEOUT_MS = 30_000;
// Short, so that the raw requests' slow and refused bodies are done with in a few seconds
const BODY_IDLE_TIMEOUT = '1s';
const MEMORY_SAMPLE_EVERY = 200;
export const FLOOR_WINDOW = 5000;

async function send(baseUrl: string, request: FuzzRequest): Promise<{ status: number; answer: string }> {
  const response = await fetch(baseUrl + request.path, {
    method: request.method,
    headers: request.headers,
    body: request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, answer: (await response.text()).slice(0, 500) };
}

export async function fuzzService(options: FuzzOptions): Promise<FuzzReport> {
  const folder = mkdtempSync(join(tmpdir(), 'querydesk-fuzz-'));
  const service = await startServiceProcess({
    folder,
    dataDir: join(folder, 'data'),
    accounts: FUZZ_ACCOUNTS,
    extraArgs: ['--rate-limit', 'off', '--body-idle-timeout', BODY_IDLE_TIMEOUT],
  });
  const report: FuzzReport = {
    sent: 0,
    statuses: {},
    serverErrors: 0,
    crashed: false,
    seconds: 0,
    rssAfterSetup: 0,
    peakRss: 0,
    floorRss: 0,
    floorRssAtHalf: 0,
    rssAtEnd: 0,
    rssAfterIdle: 0,
    problems: [],
    sandboxStatements: 0,
    filesWritten: 0,
    serviceErrors: '',
    raw: [],
  };
  let crashed = false;
  void service.exited.then(() => (crashed = true));
  const started = performance.now();
  try {
    const world = await buildWorld(service.baseUrl);
    if (options.sandboxProbe) {
      const probe = await probeSandbox(service.baseUrl, join(folder, 'data'), FREE_KEY);
      report.sandboxStatements = probe.sent;
      report.filesWritten = probe.problems.filter((p) => p.sql === null).length;
      for (const { sql, answer } of probe.problems) {
        const request = {
          method: 'POST',
          path: '/api/v1/sql/execute',
          headers: { 'x-dune-api-key': FREE_KEY },
          body: JSON.stringify({ sql }),
        };
        report.problems.push({ index: -1, request, status: null, answer });
      }
    }
    report.rssAfterSetup = service.memory().rss;
    options.onSetup?.(report.rssAfterSetup);
    report.raw = await rawRound(service.baseUrl, world);
    for (const [index, outcome] of report.raw.entries()) {
      if (outcome.status !== null && outcome.status >= 500) report.serverErrors++;
      if (!outcome.ok)
        report.problems.push({
          index,
          request: { method: 'RAW', path: outcome.name, headers: {} },
          status: outcome.status,
          answer: outcome.answer,
        });
    }
    // a client gone halfway, or a malformed request, is no internal error of the service's
    if (/internal error|could not answer/.test(service.errors())) {
      report.problems.push({
        index: -1,
        request: { method: 'RAW', path: 'the raw requests', headers: {} },
        status: null,
        answer: 'the service logged an internal error',
      });
      report.serviceErrors = service.errors();
    }
    const deadline = started + options.maxSeconds * 1000;
    let next = 0;
    let windowFloor = Number.POSITIVE_INFINITY;
    const stop = () => crashed || report.problems.length > 0 || performance.now() > deadline;
    const worker = async () => {
      while (next < options.requests && !stop()) {
        const index = next++;
        // each request from its own generator: request N is the same whatever ran before it
        const request = fuzzRequest(seeded(options.seed * 1_000_003 + index), world);
        let outcome: { status: number | null; answer: string };
        try {
          outcome = await send(service.baseUrl, request);
        } catch (error) {
          outcome = { status: null, answer: String(error) };
        }
        report.sent++;
        const key = String(outcome.status ?? 'no answer');
        report.statuses[key] = (report.statuses[key] ?? 0) + 1;
        if (outcome.status === null || outcome.status >= 500) {
          if (outcome.status !== null) report.serverErrors++;
          report.problems.push({ index, request, ...outcome });
        }
        // counted from 1, so that the last request of a run closes its last window
        const count = index + 1;
        if (count % MEMORY_SAMPLE_EVERY === 0 && !crashed) {
          const { rss } = service.memory();
          report.peakRss = Math.max(report.peakRss, rss);
          windowFloor = Math.min(windowFloor, rss);
          if (count % 1000 === 0) options.onProgress?.(report.sent, rss);
          if (rss - report.rssAfterSetup > options.maxPeakGrowthBytes) {
            report.problems.push({
              index,
              request,
              status: null,
              answer: `resident memory grew by ${rss - report.rssAfterSetup} bytes at once`,
            });
          }
          if (count % FLOOR_WINDOW === 0) {
            report.floorRss = windowFloor;
            windowFloor = Number.POSITIVE_INFINITY;
            if (report.floorRssAtHalf === 0 && count >= options.requests / 2 && count + FLOOR_WINDOW <= options.requests)
              report.floorRssAtHalf = report.floorRss;
            const late = report.floorRssAtHalf > 0 ? report.floorRss - report.floorRssAtHalf : 0;
            if (report.floorRss - report.rssAfterSetup > options.maxGrowthBytes) {
              const answer = `the memory that stays grew by ${report.floorRss - report.rssAfterSetup} bytes (the lowest resident size of the last ${FLOOR_WINDOW} requests)`;
              report.problems.push({ index, request, status: null, answer });
            } else if (late > options.maxLateGrowthBytes) {
              const answer = `the memory that stays grew by ${late} bytes since the middle of the run (the lowest resident size of the last ${FLOOR_WINDOW} requests), and still grows`;
              report.problems.push({ index, request, status: null, answer });
            }
          }
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    report.crashed = crashed;
    if (!crashed) {
      const memory = service.memory();
      report.rssAtEnd = memory.rss;
      report.peakRss = Math.max(report.peakRss, memory.peak);
    }
    if (!crashed && options.idleAfterMillis) {
      await new Promise((resolve) => setTimeout(resolve, options.idleAfterMillis));
      if (!crashed) report.rssAfterIdle = service.memory().rss;
    }
  } finally {
    if (report.serverErrors > 0 || crashed) report.serviceErrors ||= service.errors();
    report.seconds = (performance.now() - started) / 1000;
    if (!crashed) await service.kill();
    rmSync(folder, { recursive: true, force: true });
  }
  return report;
}
