// The usage page's figure for `npm run bench:history`: a month of 10,000 runs, each with its reads
// and downloads, beside two months before it, opened from the record and added up by day and by
// query as the page asks (core's usage:report handler, names from the same history).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionRecords } from '../main/core/executions/history.ts';
import { usageHandlers } from '../main/core/handlers/usage.ts';
import { localDay } from '../main/core/usage/local-day.ts';
import type { UsageEvent } from '../main/core/usage/usage-event.ts';
import { openUsageLog } from '../main/core/usage/usage-log.ts';
import { UsageSettingsState } from '../main/core/usage/usage-settings.ts';
import { median } from './timing.ts';

const RUNS_A_MONTH = 10_000;
const MONTHS = 3;
const QUERIES = 60;
export const PAGE_GOAL_MS = 300;
/** Each run's events: its execution, a first grid page, the cache download in pages. */
const READS_A_RUN = 4;

/** `month` counts from January 2026 (it may pass December). */
function eventsOfRun(month: number, i: number): UsageEvent[] {
  const at = Date.UTC(2026, month, 1, 8) + Math.floor((i / RUNS_A_MONTH) * 27 * 86_400_000);
  const executionId = `01JUSAGE${month}${String(i).padStart(10, '0')}`;
  const queryId = i % 10 === 0 ? 0 : (i % QUERIES) + 1;
  const rows = (i * 37) % 50_000;
  const event = (kind: UsageEvent['kind'], n: number, datapoints: number, bytes: number): UsageEvent => ({
    id: `${month}.${i}.${n}`,
    kind,
    accountId: i % 7 === 0 ? 'work' : 'local',
    executionId,
    queryId: kind === 'execution' ? queryId : null,
    at: new Date(at + n * 1_000).toISOString(),
    datapoints,
    bytes,
  });
  return [
    event('execution', 0, 0, 0),
    event('read', 1, Math.min(rows, 200) * 3, Math.min(rows, 200) * 40),
    ...Array.from({ length: READS_A_RUN - 2 }, (_, n) => event('download', n + 2, Math.ceil(rows / 2) * 3, Math.ceil(rows / 2) * 30)),
  ];
}

/** Writes a month of 10,000 runs' events (`month` from January 2026) as the app keeps them; answers how many. */
export function writeUsageMonth(dir: string, month: number): number {
  const lines: string[] = [];
  for (let i = 0; i < RUNS_A_MONTH; i++) for (const event of eventsOfRun(month, i)) lines.push(JSON.stringify(event));
  writeFileSync(join(dir, `usage-${localDay(new Date(Date.UTC(2026, month, 15))).slice(0, 7)}.jsonl`), `${lines.join('\n')}\n`);
  return lines.length;
}

export async function benchUsagePage(dir: string, history: ExecutionRecords): Promise<void> {
  let events = 0;
  for (let month = 0; month < MONTHS; month++) events += writeUsageMonth(dir, month);
  const settings = new UsageSettingsState({ read: () => ({ confirmDatapoints: 1_000_000, rates: {} }), write: () => undefined });
  settings.change('local', { rates: { perDatapoint: 0.00001, perExecution: 1, unit: 'credits' } });

  const report = async (usage: ReturnType<typeof openUsageLog>) => {
    const handlers = usageHandlers({ usage, settings, history, now: () => new Date(Date.UTC(2026, 2, 20)) });
    const start = performance.now();
    const answer = await handlers['usage:report']({ accountId: 'local', month: '2026-03' });
    if (!answer.ok) throw new Error(answer.error.message);
    return { ms: performance.now() - start, days: answer.data.byDay.length };
  };
  // a month's file is read at its first report, not at the app's start
  const firsts: number[] = [];
  for (let n = 0; n < 3; n++) firsts.push((await report(openUsageLog(dir))).ms);
  const usage = openUsageLog(dir);
  await report(usage);
  const reports: number[] = [];
  let days = 0;
  for (let n = 0; n < 5; n++) {
    const { ms, days: reported } = await report(usage);
    reports.push(ms);
    days = reported;
  }
  const page = median(reports);
  console.log(
    `\nUsage page: ${MONTHS} months of ${RUNS_A_MONTH.toLocaleString('en-US')} runs, ${events.toLocaleString('en-US')} events in the record, a file a month.`,
  );
  const first = median(firsts);
  const met = (ms: number) => `goal ${PAGE_GOAL_MS} ms: ${ms <= PAGE_GOAL_MS ? 'met' : 'NOT met'}`;
  console.log(`First opening, its month read (median of 3)          ${first.toFixed(0).padStart(6)} ms   ${met(first)}`);
  console.log(`A month's report, ${days} days (median of 5)               ${page.toFixed(1).padStart(6)} ms   ${met(page)}`);
}
