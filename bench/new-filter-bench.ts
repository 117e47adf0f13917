// The first page of a filter nobody asked before, in `npm run bench:service`: what a user meets on
// typing a new filter, alone and with 15 others asking at once (the same new filter, and each a
// different one), beside DuckDB alone running the same page queries at once in this process.
import type { DuckDBConnection } from '@duckdb/node-api';

const CLIENTS = 16;
/** Rounds of each measure, each with filters not asked before: the median round is shown. */
const ROUNDS = 5;
const SINGLE_GOAL = 1.5;
const CONCURRENT_GOAL = 3;

export interface NewFilterTarget {
  /** `/api/v1/execution/<id>/results`, the result's JSON pages. */
  resultsUrl: string;
  key: string;
  /** Connections to a DuckDB holding the same rows as the table `r`, one for each client. */
  direct: DuckDBConnection[];
}

/** A filter no request has used: the demo result's amounts have two decimals, so each threshold is new. */
let asked = 0;
function newThreshold(): number {
  asked++;
  return 5000 + asked / 1000;
}

const filterText = (threshold: number) => `chain = 'base' and amount_usd > ${threshold}`;
const DIRECT_PAGE = `SELECT * FROM r WHERE chain = 'base' AND amount_usd > ? ORDER BY amount_usd DESC, rowid LIMIT 100`;

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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Prints the slowest first page (median of the rounds) of each measure beside DuckDB alone's. */
export async function benchNewFilters({ resultsUrl, key, direct }: NewFilterTarget): Promise<void> {
  const servicePage = async (threshold: number) => {
    const query = new URLSearchParams({ filters: filterText(threshold), sort_by: 'amount_usd desc', limit: '100' });
    const response = await fetch(`${resultsUrl}?${query}`, { headers: { 'x-dune-api-key': key } });
    if (response.status !== 200) throw new Error(`a first filtered page: HTTP ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  const directPage = async (connection: DuckDBConnection, threshold: number) => {
    (await connection.runAndReadAll(DIRECT_PAGE, [threshold])).getRowObjectsJson();
  };
  // every connection, the client's and DuckDB's, has run the statement's kind once
  await together(CLIENTS, (i) => servicePage(newThreshold() + i));
  await together(CLIENTS, (i) => directPage(direct[i]!, 4000 + i));

  const measures: { label: string; count: number; same: boolean }[] = [
    { label: 'one user', count: 1, same: true },
    { label: `${CLIENTS} clients, the same new filter at once`, count: CLIENTS, same: true },
    { label: `${CLIENTS} clients, each a different new filter at once`, count: CLIENTS, same: false },
  ];
  console.log(`  the first page of a filter nobody asked before (100 rows, sorted; the slowest, median of ${ROUNDS} rounds):`);
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
    const [s, d] = [median(service), median(alone)];
    const goal = count === 1 ? SINGLE_GOAL : CONCURRENT_GOAL;
    console.log(
      `    ${label.padEnd(50)} service ${`${s.toFixed(1)} ms`.padStart(9)}, DuckDB alone ${`${d.toFixed(1)} ms`.padStart(8)}: ` +
        `${(s / d).toFixed(2)}x (goal ${goal}x; service ${spread(service)}, alone ${spread(alone)})`,
    );
  }
}

const spread = (values: number[]) => `${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)} ms`;
