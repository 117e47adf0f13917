import { closeSync, openSync, readdirSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { leftoversIn } from './crash-run.ts';
import { startServiceProcess, type ServiceAccount, type ServiceProcess } from './service-process.ts';
import { makeSmallDisk } from './small-disk.ts';

// The service on a small filesystem of its own: a result larger than the disk fills it; another
// file fills it under a result being written; then that file keeps it full while the writing
// requests are sent, and goes, and the same requests are sent again. A full disk must fail with words saying so (an execution's
// error, or 507 for a request), leave no file behind, and be forgotten as soon as there is space.

export interface Answer {
  request: string;
  status: number;
  /** The error the service gave: the answer's, or the execution's. */
  error?: string;
}

export interface DiskFullReport {
  /** Why the probe did not run, when no small filesystem can be made here. */
  skipped: string | null;
  disk: string;
  /** The error of the execution whose result outgrew the disk. */
  resultError: string | null;
  /** The disk's free bytes before that execution and after it failed. */
  freeBefore: number;
  freeAfter: number;
  whileFull: Answer[];
  /** A result written while another file fills the disk: its state while the disk is full, how it ended, and when after space was freed. */
  filledWhileWriting: { stateWhileFull: string; ended: string; error: string | null; recordedMillis: number } | null;
  /** The first round of requests once space was freed. */
  afterFreed: Answer[];
  /** Rounds of requests until all of them succeeded, and the time from freeing space to then. */
  roundsToRecover: number;
  recoverMillis: number;
  leftovers: string[];
  problems: string[];
}

const ACCOUNTS: ServiceAccount[] = [{ handle: 'pia', type: 'user', plan: 'premium', api_keys: ['key-pia'] }];
const KEY = { 'x-dune-api-key': 'key-pia' };
export const DISK_FULL_WORDS = "the service's disk is full";
// Large enough to need fresh blocks of the disk, so that a full one refuses it.
const CSV_ROWS = Array.from({ length: 12_000 }, (_, i) => String(i)).join('\n');
// The rows of the result that outgrows the disk: about 5 MB of its file a million.
const ROWS_PER_MB = 200_000;
const RECOVERY_ROUNDS = 20;

async function call(
  service: ServiceProcess,
  method: string,
  path: string,
  body?: unknown,
  contentType?: string,
): Promise<{ status: number; json: any }> {
  const headers = contentType ? { ...KEY, 'content-type': contentType } : KEY;
  const text = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(`${service.baseUrl}/api/v1${path}`, { method, headers, body: text });
  const raw = await response.text();
  let json: any;
  try {
    json = JSON.parse(raw);
  } catch {
    json = { error: raw };
  }
  return { status: response.status, json };
}

async function finished(service: ServiceProcess, executionId: string): Promise<any> {
  for (;;) {
    const { json } = await call(service, 'GET', `/execution/${executionId}/status`);
    if (json.is_execution_finished) return json;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The writing requests, each once; an execution is followed to its end. */
async function writingRequests(service: ServiceProcess, round: string, completed: Set<string>): Promise<Answer[]> {
  const answer = (request: string, { status, json }: { status: number; json: any }): Answer =>
    status === 200 ? { request, status } : { request, status, error: String(json.error) };
  const answers = [
    answer('upload', await call(service, 'POST', '/table/upload/csv', { table_name: `up_${round}`, data: `n\n${CSV_ROWS}\n` })),
    answer('insert', await call(service, 'POST', '/table/pia/t1/insert', `n\n${CSV_ROWS}\n`, 'text/csv')),
    answer('create query', await call(service, 'POST', '/query', { name: `query ${round}`, query_sql: 'select 1 as one' })),
    answer(
      'create table',
      await call(service, 'POST', '/table/create', {
        namespace: 'pia',
        table_name: `t_${round}`,
        schema: [{ name: 'n', type: 'integer' }],
      }),
    ),
  ];
  const execute = await call(service, 'POST', '/sql/execute', { sql: `select ${round.length} as one` });
  if (execute.status !== 200) answers.push(answer('/sql/execute', execute));
  else {
    const status = await finished(service, execute.json.execution_id);
    if (status.state === 'QUERY_STATE_COMPLETED') completed.add(execute.json.execution_id);
    answers.push(
      status.state === 'QUERY_STATE_COMPLETED'
        ? { request: '/sql/execute', status: 200 }
        : { request: '/sql/execute', status: 200, error: `${status.state}: ${status.error?.message}` },
    );
  }
  return answers;
}

function filesUnder(dir: string, prefix: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

/** Files the running service keeps that nothing points to: temporary files, results of no completed execution, table files of no table. */
async function liveLeftovers(service: ServiceProcess, dataDir: string, completed: Set<string>): Promise<string[]> {
  const found = filesUnder(join(dataDir, 'tmp'), 'tmp/');
  found.push(
    ...readdirSync(join(dataDir, 'results'))
      .filter((name) => !completed.has(name.replace(/\.duckdb$/, '')))
      .map((name) => `results/${name}`),
  );
  const { json } = await call(service, 'GET', '/tables');
  const tableFiles = readdirSync(join(dataDir, 'tables'));
  if (tableFiles.length !== json.tables.length) found.push(`tables/: ${tableFiles.length} files for ${json.tables.length} tables`);
  return found;
}

function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return stats.bavail * stats.bsize;
}

/** Writes a file until the disk refuses more: 1 MB at a time, then 4 KB. */
export function fill(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [1024 * 1024, 4096]) {
      const block = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

// Rows that come slowly (a hash of a long text each), so that the disk fills while the result's file is still small.
const SLOW_ROWS_SQL = `select i, md5(repeat(i::varchar, 2000)) as h from range(100000000) t(i)`;
// How long the disk stays full under the failed result, for its end to be seen waiting for space.
const HELD_FULL_MILLIS = 2500;

/**
 * Another file fills the disk while a result is written: the result fails, and since its own file
 * freed too little, the disk stays full and the execution's end waits for space, written as soon
 * as the file goes.
 */
async function fillWhileWriting(
  service: ServiceProcess,
  dataDir: string,
  filler: string,
): Promise<NonNullable<DiskFullReport['filledWhileWriting']>> {
  const { json } = await call(service, 'POST', '/sql/execute', { sql: SLOW_ROWS_SQL });
  const id = json.execution_id as string;
  for (;;) {
    const { json: status } = await call(service, 'GET', `/execution/${id}/status`);
    if (status.state === 'QUERY_STATE_EXECUTING' && readdirSync(join(dataDir, 'results')).includes(`${id}.duckdb`)) break;
    if (status.is_execution_finished) throw new Error(`the slow result ended before the disk was filled: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  fill(filler);
  await new Promise((resolve) => setTimeout(resolve, HELD_FULL_MILLIS));
  const stateWhileFull = (await call(service, 'GET', `/execution/${id}/status`)).json.state as string;
  rmSync(filler);
  const freed = performance.now();
  const ended = await finished(service, id);
  return { stateWhileFull, ended: ended.state, error: ended.error?.message ?? null, recordedMillis: performance.now() - freed };
}

function judge(answers: Answer[], phase: string, problems: string[]): void {
  for (const a of answers) {
    if (a.status >= 500 && a.status !== 507) problems.push(`${phase}: ${a.request} answered ${a.status}: ${a.error}`);
    else if (a.error !== undefined && !a.error.includes(DISK_FULL_WORDS))
      problems.push(`${phase}: ${a.request} failed without saying the disk is full: ${a.status} ${a.error}`);
  }
}

export async function diskFullService(options: { megabytes: number }): Promise<DiskFullReport> {
  const report: DiskFullReport = {
    skipped: null,
    disk: '',
    resultError: null,
    freeBefore: 0,
    freeAfter: 0,
    filledWhileWriting: null,
    whileFull: [],
    afterFreed: [],
    roundsToRecover: 0,
    recoverMillis: 0,
    leftovers: [],
    problems: [],
  };
  const disk = makeSmallDisk(options.megabytes);
  if ('reason' in disk) return { ...report, skipped: disk.reason };
  report.disk = `${disk.kind}, ${options.megabytes} MB`;
  const dataDir = join(disk.dir, 'data');
  const filler = join(disk.dir, 'filler');
  let service: ServiceProcess | null = null;
  try {
    service = await startServiceProcess({ folder: disk.dir, dataDir, accounts: ACCOUNTS });
    const completed = new Set<string>();
    const made = await call(service, 'POST', '/table/create', {
      namespace: 'pia',
      table_name: 't1',
      schema: [{ name: 'n', type: 'integer' }],
    });
    if (made.status !== 200) throw new Error(`setup: table/create answered ${made.status}: ${JSON.stringify(made.json)}`);

    report.freeBefore = freeBytes(disk.dir);
    const rows = options.megabytes * ROWS_PER_MB * 2;
    const big = await call(service, 'POST', '/sql/execute', {
      sql: `select i, md5(i::varchar) || md5((i + 1)::varchar) as h from range(${rows}) t(i)`,
    });
    const status = await finished(service, big.json.execution_id);
    report.resultError = status.error?.message ?? null;
    if (status.state !== 'QUERY_STATE_FAILED' || !String(report.resultError).includes(DISK_FULL_WORDS)) {
      report.problems.push(`the result larger than the disk ended ${status.state}: ${report.resultError}`);
    }
    report.freeAfter = freeBytes(disk.dir);
    report.leftovers.push(...(await liveLeftovers(service, dataDir, completed)).map((l) => `after the result: ${l}`));

    report.filledWhileWriting = await fillWhileWriting(service, dataDir, filler);
    const filled = report.filledWhileWriting;
    if (filled.ended !== 'QUERY_STATE_FAILED' || !String(filled.error).includes(DISK_FULL_WORDS)) {
      report.problems.push(`the result written while the disk filled ended ${filled.ended}: ${filled.error}`);
    }
    report.leftovers.push(...(await liveLeftovers(service, dataDir, completed)).map((l) => `after the disk filled under a result: ${l}`));

    fill(filler);
    report.whileFull = await writingRequests(service, 'full', completed);
    judge(report.whileFull, 'while full', report.problems);
    report.leftovers.push(...(await liveLeftovers(service, dataDir, completed)).map((l) => `while full: ${l}`));

    rmSync(filler);
    const freed = performance.now();
    for (let round = 1; round <= RECOVERY_ROUNDS; round++) {
      const answers = await writingRequests(service, `freed${round}`, completed);
      if (round === 1) report.afterFreed = answers;
      if (answers.every((a) => a.status === 200 && a.error === undefined)) {
        report.roundsToRecover = round;
        report.recoverMillis = performance.now() - freed;
        break;
      }
    }
    if (report.roundsToRecover !== 1)
      report.problems.push(`after space was freed, requests failed for ${report.roundsToRecover || `more than ${RECOVERY_ROUNDS}`} rounds`);
    report.leftovers.push(...(await liveLeftovers(service, dataDir, completed)).map((l) => `after space was freed: ${l}`));

    const exited = await service.kill('SIGTERM');
    if (exited !== 0) report.problems.push(`the service exited with ${exited} when stopped: ${service.errors()}`);
    report.leftovers.push(...(await leftoversIn(dataDir)).map((l) => `after the service stopped: ${l}`));
  } catch (error) {
    // the service ended (a crash): what it said last tells why
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the service's last words: ${service?.errors()}`, {
      cause: error,
    });
  } finally {
    await service?.kill('SIGKILL');
    disk.remove();
  }
  return report;
}
