// The sample of Dune's tables in `npm run bench:service`: how long a fresh data folder takes to
// have them (the first query that names one makes them), whether a service whose data folder
// holds them starts as fast as one whose does not, and what DuneSQL costs over them: the demo's
// join of transfers with tokens and prices by day, beside the same query written in DuckDB's SQL.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { DUNE_SAMPLE_QUERIES } from '../main/service/seed/demo-queries.ts';
import { startServiceChild } from './service-child.ts';
import { median } from './timing.ts';

const STARTS = 7;
const QUERY_RUNS = 15;
const DUNESQL_GOAL = 1.2;
const READY_GOAL_SECONDS = 5;
const START_GOAL_MILLIS = 100;

/** Runs `sql` to its end; the milliseconds the service says it executed for. */
async function runSql(baseUrl: string, key: string, sql: string): Promise<number> {
  const headers = { 'x-dune-api-key': key, 'content-type': 'application/json' };
  const run = (await (await fetch(`${baseUrl}/api/v1/sql/execute`, { method: 'POST', headers, body: JSON.stringify({ sql }) })).json()) as {
    execution_id: string;
  };
  for (;;) {
    const status = (await (await fetch(`${baseUrl}/api/v1/execution/${run.execution_id}/status`, { headers })).json()) as {
      is_execution_finished: boolean;
      state: string;
      result_metadata?: { execution_time_millis: number };
    };
    if (status.is_execution_finished) {
      if (status.state !== 'QUERY_STATE_COMPLETED') throw new Error(`${sql}: ${status.state}`);
      return status.result_metadata?.execution_time_millis ?? Number.NaN;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The demo's DuneSQL join, and the same in DuckDB's SQL: bytes as DuckDB's blob literals
const DUNESQL = DUNE_SAMPLE_QUERIES[0]!.sql;
const DIRECT = DUNESQL.replace(/0x([0-9a-f]{40})/g, (_, hex: string) => `'${hex.replace(/../g, (pair) => `\\x${pair}`)}'::BLOB`);

/** The medians of the two forms' execution times, run in turns. */
async function duneSqlBeside(baseUrl: string, key: string): Promise<{ dune: number; direct: number }> {
  const dune: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < QUERY_RUNS; i++) {
    dune.push(await runSql(baseUrl, key, DUNESQL));
    direct.push(await runSql(baseUrl, key, DIRECT));
  }
  return { dune: median(dune), direct: median(direct) };
}

/** Milliseconds from starting the service's process to its listening. */
async function startMillis(dir: string): Promise<number> {
  const start = performance.now();
  const service = await startServiceChild(dir);
  const took = performance.now() - start;
  await service.stop();
  return took;
}

const signed = (millis: number) => `${millis >= 0 ? '+' : ''}${millis.toFixed(0)}`;

/** Measures in folders of its own under `dir`, and prints its lines. */
export async function benchSampleTables(dir: string): Promise<void> {
  const service = await startServiceChild(dir);
  const query = 'select count(*) from tokens.erc20';
  let readySeconds: number;
  let readyCpuMillis: number;
  let againMillis: number;
  let joined: { dune: number; direct: number };
  try {
    let start = performance.now();
    const cpu = service.cpuMillis();
    await runSql(service.baseUrl, service.key, query);
    readySeconds = (performance.now() - start) / 1000;
    // the machine's other work lengthens the wall time; the CPU the service took does not move with it
    readyCpuMillis = service.cpuMillis() - cpu;
    start = performance.now();
    await runSql(service.baseUrl, service.key, query);
    againMillis = performance.now() - start;
    joined = await duneSqlBeside(service.baseUrl, service.key);
  } finally {
    await service.stop();
  }
  // the same data folder, with the sample and (as before there was one) without it, in turns, so
  // that the machine's drift falls on both alike
  const samples = join(dir, 'service', 'samples');
  const aside = join(dir, 'samples-aside');
  const withTimes: number[] = [];
  const withoutTimes: number[] = [];
  const withSampleStart = async () => withTimes.push(await startMillis(dir));
  const withoutSampleStart = async () => {
    renameSync(samples, aside);
    withoutTimes.push(await startMillis(dir));
    // the service made an empty samples folder: the sample goes back in its place
    renameSync(samples, join(dir, 'samples-empty'));
    renameSync(aside, samples);
  };
  for (let i = 0; i < STARTS; i++) {
    // which one starts first takes turns too
    for (const start of i % 2 === 0 ? [withSampleStart, withoutSampleStart] : [withoutSampleStart, withSampleStart]) await start();
  }
  const [withSample, withoutSample] = [median(withTimes), median(withoutTimes)];
  console.log(
    `  sample of Dune's tables on a fresh data folder, made by the first query naming one: ready in ${readySeconds.toFixed(2)} s (goal ${READY_GOAL_SECONDS} s; the service's CPU meanwhile ${readyCpuMillis} ms); the same query once made: ${againMillis.toFixed(0)} ms`,
  );
  console.log(
    `  service start to listening, median of ${STARTS}: ${withSample.toFixed(0)} ms with the sample in its data folder, ` +
      `${withoutSample.toFixed(0)} ms without (${signed(withSample - withoutSample)} ms; goal +${START_GOAL_MILLIS} ms)`,
  );
  const ratio = joined.dune / joined.direct;
  console.log(
    `  DuneSQL join of transfers, tokens and prices by day over the sample, median of ${QUERY_RUNS} executions: ${joined.dune.toFixed(0)} ms; ` +
      `written in DuckDB's SQL ${joined.direct.toFixed(0)} ms: ${ratio.toFixed(2)}x (goal ${DUNESQL_GOAL}x)${ratio > DUNESQL_GOAL ? '  OVER' : ''}`,
  );
}
