// `node bench/fuzz-floor.ts [--requests N] [--seed S]`: the service's resident memory under the
// project's own fuzz load (bench/probes/fuzz-run.ts, the service in a process of its own), at each
// 10,000 requests and a minute after the load stops, each beside its goal: the memory levels off
// within 300 MB of what it was after setup, and is back within 100 MB of it once idle.
// `measureFuzzFloor` is also called at the end of bench:footprint.
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { fuzzService } from './probes/fuzz-run.ts';

const MB = 1024 * 1024;
const EVERY = 10_000;
const IDLE_MILLIS = 60_000;
const LOAD_GOAL_BYTES = 300 * MB;
const IDLE_GOAL_BYTES = 100 * MB;

export interface FuzzFloorOptions {
  requests: number;
  seed: number;
  /** Where each line goes as it is measured; console.log by default. */
  print?: (line: string) => void;
}

export interface FuzzFloor {
  afterSetupBytes: number;
  /** The resident size at each EVERY requests sent. */
  samples: { requests: number; bytes: number }[];
  peakBytes: number;
  afterIdleBytes: number;
  /** Whether every sample is within the load's goal and the idle one within its own. */
  met: boolean;
  /** Requests answered 5xx, or the service crashed: the run's figures are then not the service's floor. */
  failed: boolean;
}

const mb = (bytes: number) => `${Math.round(bytes / MB)} MB`;
const over = (bytes: number, base: number) => `${bytes >= base ? '+' : ''}${Math.round((bytes - base) / MB)} MB`;

export async function measureFuzzFloor(options: FuzzFloorOptions): Promise<FuzzFloor> {
  const print = options.print ?? console.log;
  const samples: FuzzFloor['samples'] = [];
  let base = 0;
  const report = await fuzzService({
    requests: options.requests,
    seed: options.seed,
    maxSeconds: 24 * 60 * 60,
    concurrency: 4,
    // no bound stops the run: this measures the memory, the probe's own run judges it
    maxGrowthBytes: Number.POSITIVE_INFINITY,
    maxLateGrowthBytes: Number.POSITIVE_INFINITY,
    maxPeakGrowthBytes: Number.POSITIVE_INFINITY,
    sandboxProbe: false,
    idleAfterMillis: IDLE_MILLIS,
    onProgress: (sent, rss) => {
      const requests = Math.round(sent / EVERY) * EVERY;
      if (requests === 0 || samples.at(-1)?.requests === requests) return;
      samples.push({ requests, bytes: rss });
      if (base === 0) return;
      print(`  ${requests.toLocaleString('en')} requests: ${mb(rss)} (${over(rss, base)} over setup; goal <= +${mb(LOAD_GOAL_BYTES)})`);
    },
    onSetup: (rss) => {
      base = rss;
      print(`  after setup: ${mb(rss)}`);
    },
  });
  // the last thousand requests are sent after the last progress report
  const end = Math.round(report.sent / EVERY) * EVERY;
  if (!report.crashed && end > (samples.at(-1)?.requests ?? 0)) {
    samples.push({ requests: end, bytes: report.rssAtEnd });
    print(
      `  ${end.toLocaleString('en')} requests: ${mb(report.rssAtEnd)} (${over(report.rssAtEnd, base)} over setup; goal <= +${mb(LOAD_GOAL_BYTES)})`,
    );
  }
  const afterIdle = report.rssAfterIdle;
  print(
    `  ${IDLE_MILLIS / 1000} s after the load stopped: ${mb(afterIdle)} (${over(afterIdle, report.rssAfterSetup)} over setup; goal <= +${mb(IDLE_GOAL_BYTES)})`,
  );
  print(
    `  peak ${mb(report.peakRss)}; ${report.sent} requests, ${report.serverErrors} answered 5xx, crashed: ${report.crashed ? 'yes' : 'no'}`,
  );
  const failed = report.crashed || report.serverErrors > 0;
  const met =
    !failed &&
    samples.every((s) => s.bytes - report.rssAfterSetup <= LOAD_GOAL_BYTES) &&
    afterIdle - report.rssAfterSetup <= IDLE_GOAL_BYTES;
  return { afterSetupBytes: report.rssAfterSetup, samples, peakBytes: report.peakRss, afterIdleBytes: afterIdle, met, failed };
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const { values } = parseArgs({ options: { requests: { type: 'string', default: '200000' }, seed: { type: 'string', default: '1' } } });
  console.log(`the service's memory under ${Number(values.requests).toLocaleString('en')} fuzz requests (seed ${values.seed}):`);
  const floor = await measureFuzzFloor({ requests: Number(values.requests), seed: Number(values.seed) });
  console.log(floor.failed ? 'the run failed: see npm run fuzz:service' : floor.met ? 'goals met' : 'goals not met');
}
