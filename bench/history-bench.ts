// `npm run bench:history` (and the end of `npm run bench`): the run history of 100,000 runs, as the
// app keeps it (core/executions/history.ts): opening its log, and the history panel's search,
// beside a plain scan of the same records' JSON text in the same run; then the usage page's month
// (usage-page.ts), and its opening in Chromium (usage-browser.ts).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionRecord } from '../main/contract/index.ts';
import { prepareHistorySearch, searchHistory, searchWords } from '../main/core/executions/history-search.ts';
import { openExecutionRecords } from '../main/core/executions/history.ts';
import { recordPrinted } from './results-file.ts';
import { median } from './timing.ts';
import { benchUsagePageInChromium } from './usage-browser.ts';
import { benchUsagePage } from './usage-page.ts';

const recording = recordPrinted('bench:history');

const RUNS = 100_000;
const QUERIES = 60;
const SEARCH_GOAL_MS = 100;
const FIRST_SEARCH = 'failed';
const SEARCHES = ['transfers', 'chain=base', 'failed', 'needle 4711', '2026-03-14 completed', 'select', 'zzz nothing'];
const CHAINS = ['ethereum', 'base', 'arbitrum', 'optimism', 'polygon'];
const STATES = ['QUERY_STATE_COMPLETED', 'QUERY_STATE_COMPLETED', 'QUERY_STATE_COMPLETED', 'QUERY_STATE_FAILED', 'QUERY_STATE_CANCELLED'];

/** A run of one of the saved queries (their text repeats, as in use), or one in ten a scratch tab's own SQL. */
function run(i: number): ExecutionRecord {
  const query = i % QUERIES;
  const scratch = i % 10 === 0;
  const day = new Date(Date.UTC(2026, 0, 1) + i * 90_000).toISOString();
  const state = STATES[i % STATES.length]!;
  const rows = (i * 37) % 50_000;
  return {
    accountId: i % 7 === 0 ? 'work' : 'local',
    executionId: `01JEXECUTION${String(i).padStart(10, '0')}`,
    queryId: scratch ? 0 : query + 1,
    parameters: scratch ? {} : { chain: CHAINS[i % CHAINS.length]!, min_usd: String((i % 9) * 1000) },
    state,
    isFinished: true,
    submittedAt: day,
    endedAt: new Date(Date.parse(day) + 1_000 + (i % 5_000)).toISOString(),
    error: state === 'QUERY_STATE_FAILED' ? { type: 'syntax', message: `line ${i % 40}: mismatched input` } : null,
    totalRowCount: rows,
    result: {
      columnNames: ['day', 'chain', 'volume'],
      columnTypes: ['date', 'varchar', 'double'],
      totalRowCount: rows,
      totalBytes: rows * 40,
      executionTimeMillis: 900,
    },
    ...(scratch
      ? { sql: `select 'needle ${i}' as what, count(*) from dex.trades where block_time > now() - interval '${i % 30}' day` }
      : {
          queryName: `Token transfers and volume ${query}`,
          querySql: `-- daily volume of query ${query}\nselect date_trunc('day', block_time) as day, chain, sum(amount_usd) as volume\nfrom dex.trades\nwhere chain = '{{chain}}' and amount_usd >= {{min_usd}}\ngroup by 1, 2\norder by 1`,
        }),
  };
}

function timed(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

const dir = mkdtempSync(join(tmpdir(), 'querydesk-history-bench-'));
try {
  const log = join(dir, 'runs.jsonl');
  // oldest first, as the app appends them
  writeFileSync(log, Array.from({ length: RUNS }, (_, i) => `${JSON.stringify(run(i))}\n`).join(''));
  const names = (id: string) => (id === 'work' ? 'Dune at work' : 'Local');

  let history = openExecutionRecords(dir);
  const opens = [timed(() => (history = openExecutionRecords(dir)))];
  opens.push(
    timed(() => (history = openExecutionRecords(dir))),
    timed(() => (history = openExecutionRecords(dir))),
  );
  const records = history.all();
  if (records.length !== RUNS) throw new Error(`the history holds ${records.length} runs of ${RUNS}`);

  const searchIn = (runs: readonly ExecutionRecord[], text: string) =>
    searchHistory(runs, { words: searchWords(text), limit: 200, accountName: names });
  const search = (text: string) => searchIn(records, text);
  // a word in no query's name or SQL needs every run's own words: made as the panel opens, else by
  // the first search (runs read afresh have none made)
  const unprepared = openExecutionRecords(dir).all();
  const firstUnprepared = timed(() => searchIn(unprepared, FIRST_SEARCH));
  const preparing = performance.now();
  await prepareHistorySearch(records);
  const prepared = performance.now() - preparing;
  const first = timed(() => search(FIRST_SEARCH));
  const times = SEARCHES.map((text) => median([1, 2, 3, 4, 5].map(() => timed(() => search(text)))));
  // the reference: each record's JSON text, lower-cased, scanned for every word, as a plain filter would
  const scan = (text: string) => {
    const words = searchWords(text);
    return records.filter((r) => {
      const json = JSON.stringify(r).toLowerCase();
      return words.every((w) => json.includes(w));
    });
  };
  const reference = SEARCHES.map((text) => median([1, 2, 3].map(() => timed(() => scan(text)))));
  const slowest = Math.max(...times);

  console.log(
    `Run history: ${RUNS.toLocaleString('en-US')} runs of ${QUERIES} queries and scratch tabs, ${(statSync(log).size / 1e6).toFixed(1)} MB of log; 2 cores shared.\n`,
  );
  console.log(`Open the log (median of 3)                          ${median(opens).toFixed(0).padStart(6)} ms`);
  const met = (ms: number) => `goal ${SEARCH_GOAL_MS} ms: ${ms <= SEARCH_GOAL_MS ? 'met' : 'NOT met'}`;
  console.log(`Each run's words, made as the panel opens            ${prepared.toFixed(1).padStart(6)} ms   in turns of 5,000 runs`);
  console.log(`First search typed after, "${FIRST_SEARCH}"                    ${first.toFixed(1).padStart(6)} ms   ${met(first)}`);
  console.log(`  typed before the panel had made them               ${firstUnprepared.toFixed(1).padStart(6)} ms`);
  for (const [i, text] of SEARCHES.entries()) {
    const found = search(text).total.toLocaleString('en-US');
    const label = `  "${text}" (${found} runs)`;
    console.log(
      `${label.padEnd(52)} ${times[i]!.toFixed(1).padStart(6)} ms   a scan of each run's JSON ${reference[i]!.toFixed(1)} ms: ${(times[i]! / reference[i]!).toFixed(2)}x`,
    );
  }
  console.log(`Slowest search (median of 5 each)                   ${slowest.toFixed(1).padStart(6)} ms   ${met(slowest)}`);
  await benchUsagePage(dir, history);
  await benchUsagePageInChromium();
  recording.save();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
