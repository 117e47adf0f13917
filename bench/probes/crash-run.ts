import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { seeded, type Random } from './random.ts';
import { startServiceProcess, type ServiceAccount, type ServiceProcess } from './service-process.ts';

// The service killed with SIGKILL in the middle of an execution, an upload, an insert or the
// making of the sample of Dune's tables, then started again on the same folder: what was committed
// reads the same, the interrupted work reads as failed or as never done, and nothing is left on disk.

export type CrashKind = 'execution' | 'upload' | 'insert' | 'sample';

// The sample's rows of ethereum.blocks, when it is whole.
const SAMPLE_BLOCKS = 21_600;

export interface CrashReport {
  rounds: number;
  kills: number;
  mismatches: string[];
  leftovers: string[];
  seconds: number;
}

const ACCOUNTS: ServiceAccount[] = [{ handle: 'pia', type: 'user', plan: 'premium', api_keys: ['key-pia'] }];
const KEY = { 'x-dune-api-key': 'key-pia' };
const ROWS = Buffer.from(Array.from({ length: 4096 }, (_, i) => `${i},row ${i}\\n`).join(''));
const KEPT_CSV = Array.from({ length: 1000 }, (_, i) => `${i},kept ${i}`).join('\n');

async function api(service: ServiceProcess, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${service.baseUrl}/api/v1${path}`, {
    method,
    headers: KEY,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

async function finished(service: ServiceProcess, executionId: string): Promise<any> {
  for (;;) {
    const status = await api(service, 'GET', `/execution/${executionId}/status`);
    if (status.is_execution_finished) return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function digest(service: ServiceProcess, sql: string): Promise<string> {
  const { execution_id: id } = await api(service, 'POST', '/sql/execute', { sql });
  await finished(service, id);
  const csv = await (await fetch(`${service.baseUrl}/api/v1/execution/${id}/results/csv?limit=100000`, { headers: KEY })).text();
  return createHash('sha256').update(csv).digest('hex');
}

/** Streams a body without end until the process dies (the request then fails, as expected). */
function endlessUpload(service: ServiceProcess, path: string, head: string, contentType: string, onBytes: (sent: number) => void): void {
  const { port } = new URL(service.baseUrl);
  const req = request({
    host: '127.0.0.1',
    port,
    path: `/api/v1${path}`,
    method: 'POST',
    headers: { ...KEY, 'content-type': contentType },
    agent: false,
  });
  req.on('error', () => undefined);
  req.on('response', (response) => response.resume());
  let sent = 0;
  req.write(head);
  const pump = () => {
    while (!req.destroyed) {
      sent += ROWS.length;
      onBytes(sent);
      if (!req.write(ROWS)) return void req.once('drain', pump);
    }
  };
  pump();
}

/** Waits until `ready` says so, then a random moment more, then kills the process. */
async function killWhen(service: ServiceProcess, random: Random, ready: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 20_000;
  while (!(await ready()) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  await new Promise((resolve) => setTimeout(resolve, random.int(0, 150)));
  await service.kill('SIGKILL');
}

/** What the folder holds once the service stopped: files nothing points to. */
/** The files of the folder that hold `text` as it is: a copy of the folder must give no API key away. */
export function filesHolding(dir: string, text: string): string[] {
  const bytes = Buffer.from(text);
  return (readdirSync(dir, { recursive: true }) as string[]).filter((name) => {
    const path = join(dir, name);
    return statSync(path).isFile() && readFileSync(path).includes(bytes);
  });
}

export async function leftoversIn(dataDir: string): Promise<string[]> {
  const found = readdirSync(join(dataDir, 'tmp')).map((name) => `tmp/${name}`);
  const instance = await DuckDBInstance.create(join(dataDir, 'service.duckdb'));
  const connection = await instance.connect();
  const completed = await connection.runAndReadAll(
    `SELECT id FROM executions WHERE state IN ('QUERY_STATE_COMPLETED', 'QUERY_STATE_COMPLETED_PARTIAL')`,
  );
  const kept = new Set(completed.getRowObjectsJS().map((row) => `${String(row.id)}.duckdb`));
  found.push(
    ...readdirSync(join(dataDir, 'results'))
      .filter((name) => !kept.has(name))
      .map((name) => `results/${name}`),
  );
  const files = new Set(
    (await connection.runAndReadAll('SELECT file FROM uploaded_tables')).getRowObjectsJS().map((row) => String(row.file)),
  );
  for (const name of readdirSync(join(dataDir, 'tables'))) {
    if (!files.has(name.replace(/\.wal$/, ''))) found.push(`tables/${name}`);
  }
  // the sample, once whole, is one file; a making cut short leaves nothing after a start
  const samples = join(dataDir, 'samples');
  if (existsSync(samples))
    found.push(
      ...readdirSync(samples)
        .filter((name) => !/^dune-sample-\d+\.duckdb$/.test(name))
        .map((name) => `samples/${name}`),
    );
  connection.closeSync();
  instance.closeSync();
  return found;
}

export async function crashService(options: { rounds: number; seed: number; kinds: CrashKind[] }): Promise<CrashReport> {
  const random = seeded(options.seed);
  const folder = mkdtempSync(join(tmpdir(), 'querydesk-crash-'));
  const dataDir = join(folder, 'data');
  const start = () => startServiceProcess({ folder, dataDir, accounts: ACCOUNTS, extraArgs: ['--rate-limit', 'off'] });
  const report: CrashReport = { rounds: 0, kills: 0, mismatches: [], leftovers: [], seconds: 0 };
  const began = performance.now();
  let service = await start();
  try {
    await api(service, 'POST', '/table/upload/csv', { table_name: 'kept', data: `n,label\n${KEPT_CSV}\n` });
    await api(service, 'POST', '/table/upload/csv', { table_name: 'grows', data: 'n,label\n0,first\n' });
    const { execution_id: done } = await api(service, 'POST', '/sql/execute', {
      sql: 'select range as n, md5(range::varchar) as h from range(20000)',
    });
    await finished(service, done);
    const committed = async () => ({
      kept: await digest(service, 'select * from dune.pia.dataset_kept order by n'),
      done: createHash('sha256')
        .update(await (await fetch(`${service.baseUrl}/api/v1/execution/${done}/results/csv`, { headers: KEY })).text())
        .digest('hex'),
    });
    const before = await committed();
    let grows = 1;

    for (let round = 0; round < options.rounds; round++) {
      for (const kind of options.kinds) {
        let interrupted: string | null = null;
        if (kind === 'sample') {
          // a sample made in an earlier round is removed first, so that this one is made again
          await service.kill('SIGTERM');
          rmSync(join(dataDir, 'samples'), { recursive: true, force: true });
          service = await start();
          interrupted = (await api(service, 'POST', '/sql/execute', { sql: 'select count(*) from ethereum.blocks' }))
            .execution_id as string;
          const samples = join(dataDir, 'samples');
          await killWhen(
            service,
            random,
            async () => existsSync(samples) && readdirSync(samples).some((name) => name.startsWith('making-')),
          );
        } else if (kind === 'execution') {
          const sql = random.pick([
            'select range as n, md5(range::varchar) as h from range(30000000)',
            'select sum(hash(range)) from range(3000000000)',
          ]);
          interrupted = (await api(service, 'POST', '/sql/execute', { sql })).execution_id as string;
          const id = interrupted;
          await killWhen(
            service,
            random,
            async () => (await api(service, 'GET', `/execution/${id}/status`)).state === 'QUERY_STATE_EXECUTING',
          );
        } else {
          let sent = 0;
          const goal = random.int(256 * 1024, 8 * 1024 * 1024);
          if (kind === 'upload')
            endlessUpload(
              service,
              '/table/upload/csv',
              '{"table_name":"inflight","data":"n,label\\n',
              'application/json',
              (n) => (sent = n),
            );
          else endlessUpload(service, '/table/pia/dataset_grows/insert', 'n,label\n', 'text/csv', (n) => (sent = n));
          await killWhen(service, random, async () => sent >= goal);
        }
        report.kills++;
        service = await start();
        const after = await committed();
        if (after.kept !== before.kept) report.mismatches.push(`round ${round} (${kind}): the kept table changed`);
        if (after.done !== before.done) report.mismatches.push(`round ${round} (${kind}): a finished result changed`);
        // an insert never finished is not there at all (each insert is whole or nothing)
        const rows = await api(service, 'POST', '/sql/execute', { sql: 'select count(*)::int as n from dune.pia.dataset_grows' });
        const count =
          (await finished(service, rows.execution_id)) &&
          (await api(service, 'GET', `/execution/${rows.execution_id}/results`)).result.rows[0].n;
        if (count !== grows) report.mismatches.push(`round ${round} (${kind}): the table inserted into has ${count} rows, not ${grows}`);
        const tables = await api(service, 'GET', '/tables');
        if (tables.tables.some((t: { full_name: string }) => t.full_name.endsWith('dataset_inflight'))) {
          report.mismatches.push(`round ${round} (${kind}): an upload cut short was published`);
        }
        if (interrupted) {
          const status = await api(service, 'GET', `/execution/${interrupted}/status`);
          if (status.state !== 'QUERY_STATE_FAILED')
            report.mismatches.push(`round ${round}: the interrupted execution reads ${status.state}`);
        }
        if (kind === 'sample') {
          // whole, made again if the kill came before it was
          const blocks = await api(service, 'POST', '/sql/execute', { sql: 'select count(*)::int as n from ethereum.blocks' });
          const made =
            (await finished(service, blocks.execution_id)) &&
            (await api(service, 'GET', `/execution/${blocks.execution_id}/results`)).result?.rows[0].n;
          if (made !== SAMPLE_BLOCKS)
            report.mismatches.push(`round ${round} (sample): ethereum.blocks has ${made} rows, not ${SAMPLE_BLOCKS}`);
        }
        grows = count;
        await service.kill('SIGTERM');
        report.leftovers.push(...(await leftoversIn(dataDir)).map((l) => `round ${round} (${kind}): ${l}`));
        report.leftovers.push(
          ...filesHolding(dataDir, KEY['x-dune-api-key']).map((f) => `round ${round} (${kind}): ${f} holds the API key as it is`),
        );
        service = await start();
      }
      report.rounds++;
    }
  } finally {
    report.seconds = (performance.now() - began) / 1000;
    await service.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
  return report;
}
