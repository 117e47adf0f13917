// `npm run fuzz:service -- --requests N --seed S [--max-seconds T] [--concurrency C]`: the
// sandbox's writing statements, then random and mutated requests over every endpoint of the
// embedded service, on loopback; exits 1 on any 5xx, a crash, a file written by user SQL, or
// resident memory growing past the bound, printing the request that did it.
import { parseArgs } from 'node:util';
import { FLOOR_WINDOW, fuzzService } from './fuzz-run.ts';

const { values } = parseArgs({
  options: {
    // four windows of the memory that stays (FLOOR_WINDOW): the second half of the run is judged on its own
    requests: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
    'max-seconds': { type: 'string', default: '1800' },
    concurrency: { type: 'string', default: '4' },
  },
});
const number = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got '${values[name]}'`);
  return n;
};

const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const started = performance.now();
const report = await fuzzService({
  requests: number('requests'),
  seed: number('seed'),
  maxSeconds: number('max-seconds'),
  concurrency: Math.max(1, number('concurrency')),
  // a ceiling above the caches the service may fill (see fuzz-run.ts); what tells a leak is the second bound
  maxGrowthBytes: 1024 * MB,
  maxLateGrowthBytes: 256 * MB,
  maxPeakGrowthBytes: 1536 * MB,
  sandboxProbe: true,
  onProgress: (sent, rss) =>
    console.log(`${sent} requests sent in ${((performance.now() - started) / 1000).toFixed(0)} s; service memory ${mb(rss)}`),
});
console.log(`raw requests (fuzz-raw.ts): ${report.raw.length}, ${report.raw.filter((r) => r.ok).length} answered as they must`);
console.log(
  `requests sent: ${report.sent} in ${report.seconds.toFixed(1)} s (${(report.sent / report.seconds).toFixed(0)}/s), seed ${values.seed}`,
);
console.log(
  `statuses: ${Object.entries(report.statuses)
    .sort()
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ')}`,
);
console.log(`5xx: ${report.serverErrors}; crashed: ${report.crashed ? 'yes' : 'no'}`);
console.log(
  `sandbox: ${report.sandboxStatements} statements that once wrote files or read the host; files they changed: ${report.filesWritten}`,
);
const windows = Math.floor(report.sent / FLOOR_WINDOW);
const floor =
  windows === 0
    ? `no window of ${FLOOR_WINDOW} requests, so no memory that stays to judge`
    : `lowest of the last ${FLOOR_WINDOW} requests ${mb(report.floorRss)}` +
      (report.floorRssAtHalf > 0 ? ` (${mb(report.floorRssAtHalf)} at the middle of the run)` : '');
console.log(
  `service memory: ${mb(report.rssAfterSetup)} after setup, peak ${mb(report.peakRss)}, ${floor}, ${mb(report.rssAtEnd)} at the end`,
);
for (const problem of report.problems) {
  console.log(`\nrequest #${problem.index} (seed ${values.seed}): ${problem.request.method} ${problem.request.path}`);
  console.log(`  headers: ${JSON.stringify(problem.request.headers)}`);
  if (problem.request.body !== undefined) console.log(`  body: ${problem.request.body.slice(0, 500)}`);
  console.log(`  answer: ${problem.status ?? 'none'} ${problem.answer}`);
}
if (report.serviceErrors) console.log(`\nthe service's stderr:\n${report.serviceErrors}`);
process.exit(report.problems.length > 0 || report.crashed ? 1 : 0);
