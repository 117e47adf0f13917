// The first page of a filter nobody asked before, in `npm run bench:service`: what a user meets on
// typing a new filter, alone and with 15 others asking at once (the same new filter, and each a
// different one), beside DuckDB alone running the same page queries at once in this process. A
// user trying filter after filter under one sort is measured once the service has made that
// sort's view (sort-views.ts, in the background); the first filter under a sort, apart; the first
// page under a sort without a filter; and, before any view is made, the first filter without a
// sort, counted by the rows' sizes (row-sizes.ts). The first filters, under a sort and without
// one, are also set beside DuckDB alone's page and count run at once (the total the service
// answers), which have no goal of their own.
import type { DuckDBConnection } from '@duckdb/node-api';
import { median } from './timing.ts';

const CLIENTS = 16;
/** Rounds of each measure, each with filters not asked before: the median round is shown. */
const ROUNDS = 5;
const SINGLE_GOAL = 1.5;
const CONCURRENT_GOAL = 3;
const SORT = 'amount_usd desc';
/**
 * A sort for each round of the first filter under a sort, none asked before: each is asked once.
 * Every single column either way but SORT and UNFILTERED_SORTS, and sorts by two and three columns.
 */
const FIRST_SORTS = [
  'block_time desc',
  'fee desc',
  'bucket desc',
  'wallet desc',
  'id desc',
  'chain desc',
  'chain asc',
  'is_inbound desc',
  'is_inbound asc',
  'amount_usd asc',
  'chain asc, fee desc',
  'chain desc, amount_usd asc',
  'chain asc, wallet desc',
  'chain desc, bucket asc',
  'is_inbound asc, bucket desc',
  'is_inbound desc, wallet asc',
  'is_inbound asc, fee asc',
  'is_inbound desc, block_time desc',
  'bucket asc, id desc',
  'bucket desc, amount_usd asc',
  'bucket asc, chain desc',
  'wallet asc, id desc',
  'wallet desc, amount_usd desc',
  'wallet asc, fee desc',
  'fee desc, block_time asc',
  'fee asc, wallet desc',
  'fee desc, chain asc',
  'fee asc, bucket asc',
  'amount_usd asc, id desc',
  'block_time desc, chain asc',
  'id desc, fee asc',
  'chain asc, is_inbound desc, id asc',
  'is_inbound asc, chain desc, amount_usd desc',
];
/** The same for the first page under a sort without a filter, a user's first click on a column's header. */
const UNFILTERED_SORTS = ['block_time asc', 'fee asc', 'bucket asc', 'wallet asc', 'id asc'];
/** The service is settled when it took less than this share of a core over the last interval. */
const SETTLED = { cpuShare: 0.05, intervalMillis: 250, atMostMillis: 30_000 };

export interface NewFilterTarget {
  /** `/api/v1/execution/<id>/results`, the result's JSON pages. */
  resultsUrl: string;
  key: string;
  /** Connections to a DuckDB holding the same rows as the table `r`, one for each client. */
  direct: DuckDBConnection[];
  /** The CPU time the service has taken so far, in milliseconds. */
  serviceCpuMillis: () => number;
}

/** A filter no request has used: the demo result's amounts have two decimals, so each threshold is new. */
let asked = 0;
function newThreshold(): number {
  asked++;
  return 5000 + asked / 1000;
}

const filterText = (threshold: number) => `chain = 'base' and amount_usd > ${threshold}`;
const DIRECT_FILTER = `chain = 'base' AND amount_usd > ?`;
const directPageSql = (sort: string | null, filtered: boolean) =>
  `SELECT * FROM r${filtered ? ` WHERE ${DIRECT_FILTER}` : ''}${sort === null ? '' : ` ORDER BY ${sort}, rowid`} LIMIT 100`;

/** The time of each of `work`'s calls, all started at once. */
async function together(count: number, work: (i: number) => Promise<void>): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const start = performance.now();
      await work(i);
      return performance.now() - start;
    }),
  );
}

/** Waits until the service has done what it does in the background (at most SETTLED.atMostMillis). */
async function settled(cpuMillis: () => number): Promise<void> {
  const deadline = performance.now() + SETTLED.atMostMillis;
  for (let before = cpuMillis(); performance.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, SETTLED.intervalMillis));
    const now = cpuMillis();
    if (now - before < SETTLED.cpuShare * SETTLED.intervalMillis) return;
    before = now;
  }
}

/** Prints the slowest first page (median of the rounds) of each measure beside DuckDB alone's. */
export async function benchNewFilters({ resultsUrl, key, direct, serviceCpuMillis }: NewFilterTarget): Promise<void> {
  /** A threshold of null asks for the page without a filter, a sort of null without a sort. */
  const servicePage = async (threshold: number | null, sort: string | null = SORT) => {
    const query = new URLSearchParams({
      limit: '100',
      ...(sort === null ? {} : { sort_by: sort }),
      ...(threshold === null ? {} : { filters: filterText(threshold) }),
    });
    const response = await fetch(`${resultsUrl}?${query}`, { headers: { 'x-dune-api-key': key } });
    if (response.status !== 200) throw new Error(`a first page: HTTP ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const directPage = async (connection: DuckDBConnection, threshold: number | null, sort: string | null = SORT) => {
    const sql = directPageSql(sort, threshold !== null);
    (await (threshold === null ? connection.runAndReadAll(sql) : connection.runAndReadAll(sql, [threshold]))).getRowObjectsJson();
  };
  const directCounted = async (threshold: number, sort: string | null = null) => {
    await Promise.all([
      directPage(direct[0]!, threshold, sort),
      direct[1]!.runAndReadAll(`SELECT count(*) FROM r WHERE ${DIRECT_FILTER}`, [threshold]),
    ]);
  };
  const print = (label: string, service: number[], alone: number[], goal: number | null) => {
    const [s, d] = [median(service), median(alone)];
    console.log(
      `    ${label.padEnd(50)} service ${`${s.toFixed(1)} ms`.padStart(9)}, DuckDB alone ${`${d.toFixed(1)} ms`.padStart(8)}: ` +
        `${(s / d).toFixed(2)}x (${goal === null ? 'no goal' : `goal ${goal}x`}; service ${spread(service)}, alone ${spread(alone)})`,
    );
  };
  console.log(`  the first page of a filter nobody asked before (100 rows; the slowest, median of ${ROUNDS} rounds):`);
  // before any sort's view is made, whose count would serve every filter: in rounds, each a new filter
  await servicePage(newThreshold(), null);
  await directCounted(newThreshold());
  const unsorted: number[][] = [[], [], []];
  for (let round = 0; round < ROUNDS; round++) {
    const threshold = newThreshold();
    unsorted[0]!.push(...(await together(1, () => servicePage(threshold, null))));
    unsorted[1]!.push(...(await together(1, () => directPage(direct[0]!, threshold, null))));
    unsorted[2]!.push(...(await together(1, () => directCounted(threshold))));
  }
  print('one user, the first filter, no sort', unsorted[0]!, unsorted[1]!, null);
  print('  the same beside DuckDB alone counting it too', unsorted[0]!, unsorted[2]!, null);

  // every connection, the client's and DuckDB's, has run the statement's kind once; and the
  // filters under SORT have had the service make its view
  await together(CLIENTS, (i) => servicePage(newThreshold() + i));
  await together(CLIENTS, (i) => directPage(direct[i]!, 4000 + i));
  await settled(serviceCpuMillis);

  /**
   * One user's first page under each of `sorts`, none asked before, beside DuckDB alone's page and,
   * for a filter, beside DuckDB alone's page and count at once.
   */
  const firstUnder = async (sorts: string[], filtered: boolean): Promise<[number[], number[], number[]]> => {
    const times: [number[], number[], number[]] = [[], [], []];
    for (const sort of sorts) {
      const threshold = filtered ? newThreshold() : null;
      times[0].push(...(await together(1, () => servicePage(threshold, sort))));
      times[1].push(...(await together(1, () => directPage(direct[0]!, threshold, sort))));
      if (threshold !== null) times[2].push(...(await together(1, () => directCounted(threshold, sort))));
    }
    return times;
  };
  // a sort each round: the time of a new sort's page is as much the sort's as the service's, so
  // this measure has more rounds than the others
  const [underService, underAlone, underCounted] = await firstUnder(FIRST_SORTS, true);
  print(`one user, the first filter under a sort, ${FIRST_SORTS.length} sorts`, underService, underAlone, SINGLE_GOAL);
  print('  the same beside DuckDB alone counting it too', underService, underCounted, null);
  const [unfilteredService, unfilteredAlone] = await firstUnder(UNFILTERED_SORTS, false);
  print('one user, the first page under a sort, no filter', unfilteredService, unfilteredAlone, null);

  const measures: { label: string; count: number; same: boolean }[] = [
    { label: 'one user, under a sort filtered before', count: 1, same: true },
    { label: `${CLIENTS} clients, the same new filter at once`, count: CLIENTS, same: true },
    { label: `${CLIENTS} clients, each a different new filter at once`, count: CLIENTS, same: false },
  ];
  for (const { label, count, same } of measures) {
    const service: number[] = [];
    const alone: number[] = [];
    // in turns, so that both meet the same load on the shared cores
    for (let round = 0; round < ROUNDS; round++) {
      const thresholds = Array.from({ length: count }, (_, i) => (same && i > 0 ? 0 : newThreshold()));
      const of = (i: number) => (same ? thresholds[0]! : thresholds[i]!);
      service.push(Math.max(...(await together(count, (i) => servicePage(of(i))))));
      alone.push(Math.max(...(await together(count, (i) => directPage(direct[i]!, of(i))))));
    }
    print(label, service, alone, count === 1 ? SINGLE_GOAL : CONCURRENT_GOAL);
  }
}

const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)} ms`;
