// `npm run starve:service -- [--long 4] [--rounds 30] [--read-timeout 15] [--heavy 5] [--plan free] [--running N]`:
// one context's reads timed with nothing running, then while `--long` other contexts each run a
// long execution (`--running` of them at once, the service's default when not given); then `--heavy` contexts run memory-heavy queries at once while the service's
// peak memory and spill are followed (`--heavy 0` skips that). Exits 1 when a read or a cancel
// went unanswered, or a long execution did not end when cancelled.
import { parseArgs } from 'node:util';
import { loadService, starveService, type Latencies } from './starve-run.ts';

const { values } = parseArgs({
  options: {
    long: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '30' },
    'read-timeout': { type: 'string', default: '15' },
    heavy: { type: 'string', default: '5' },
    plan: { type: 'string', default: 'free' },
    running: { type: 'string' },
  },
});
const number = (name: 'long' | 'rounds' | 'read-timeout' | 'heavy' | 'running') => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got '${values[name]}'`);
  return n;
};
const plan = values.plan;
if (plan !== 'free' && plan !== 'plus' && plan !== 'premium') throw new Error(`--plan must be free, plus or premium, got '${plan}'`);

const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (what: string, l: Latencies) =>
  `${what}: ${l.count} reads, median ${ms(l.median)}, p99 ${ms(l.p99)}, max ${ms(l.max)}, unanswered ${l.unanswered}`;

const running = values.running === undefined ? [] : ['--running-executions', String(number('running'))];
const report = await starveService({
  long: number('long'),
  rounds: number('rounds'),
  readTimeoutMs: number('read-timeout') * 1000,
  extraArgs: running,
});
console.log(line('reads, nothing running', report.idle));
console.log(line(`reads, ${number('long')} long executions of other contexts`, report.busy));
console.log(
  `cancel of the reader's own long execution: ${report.cancelMillis === null ? 'no answer' : ms(report.cancelMillis)}, then ${report.cancelledState ?? 'unknown'}`,
);
console.log(`long executions before the reads: ${report.longBefore.join(', ')}`);
console.log(`long executions after the reads: ${report.longAfter.join(', ')}`);
console.log(`long executions once cancelled: ${report.longEnded.join(', ')}`);
let failed = report.busy.unanswered > 0 || report.cancelMillis === null || report.longEnded.some((s) => s !== 'QUERY_STATE_CANCELLED');

const heavy = number('heavy');
if (heavy > 0) {
  const load = await loadService({ contexts: heavy, plan });
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `${heavy} ${plan} contexts running a memory-heavy query each (${load.seconds.toFixed(1)} s): peak RSS ${mb(load.peakRssBytes)}, peak spill ${mb(load.peakSpillBytes)}`,
  );
  for (const outcome of load.outcomes) console.log(`  ${outcome}`);
  failed ||= load.outcomes.some((o) => !/^QUERY_STATE_(COMPLETED|FAILED)/.test(o));
}
process.exit(failed ? 1 : 0);
