import { join } from 'node:path';
import { ok, type Result } from '../../contract/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { listEntries, readEntry, removeEntry } from '../cache/manifest.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { ExecutionRecords } from '../executions/history.ts';
import { Attachments } from './attachments.ts';
import { localExecutionId, runIntoCache } from './local-results.ts';
import { LOCAL_RESULT_PREFIX, nameTables, type LocalTable } from './local-tables.ts';
import { Sandboxes, type Sandbox } from './sandbox.ts';
import { checkSelect, located, LocalSqlRefused, type LocalSqlError } from './statement-check.ts';

// SQL over the result cache, on this computer only: nothing here reaches a service. A statement
// names cached results as tables (see local-tables.ts), is judged in a sandbox (sandbox.ts,
// statement-check.ts), then runs in the cache's DuckDB, its answer cached as a result of its own
// (local-results.ts).

export interface LocalSqlRequest {
  accountId: string;
  sql: string;
  /** The local result this run replaces (the tab's previous one), dropped once the new one is in. */
  replaces?: string | null;
  /** The caller's name for this run, to cancel it by. */
  runId?: string;
}

export interface LocalSqlAnswer {
  executionId: string;
  columns: { name: string; type: string }[];
  rowCount: number;
  ranAt: string;
}

export interface LocalSqlOptions {
  cache: ResultCache;
  history: Pick<ExecutionRecords, 'all'>;
  /** A folder of its own, in the cache's: the attached CSV files. */
  dir: string;
  now?: () => Date;
}

const fail = (error: LocalSqlError): { ok: false; error: LocalSqlError } => ({ ok: false, error });

export class LocalSql {
  readonly #options: LocalSqlOptions;
  readonly attachments: Attachments;
  readonly #sandboxes = new Sandboxes();
  #closed = false;
  /** Runs under way that a caller named, by account and name. */
  readonly #running = new Map<string, AbortController>();

  constructor(options: LocalSqlOptions) {
    this.#options = options;
    this.attachments = new Attachments(join(options.dir, 'attached'));
  }

  /** The account's cached results as local SQL's tables. */
  async tables(accountId: string): Promise<LocalTable[]> {
    const { history } = this.#options;
    const entries = (await listEntries(await this.#db())).filter((e) => e.accountId === accountId && !e.isPartial);
    return nameTables(
      entries,
      history.all().filter((r) => r.accountId === accountId),
    );
  }

  /** Stops the run `runId` of the account; false when none such is under way. */
  cancel(accountId: string, runId: string): boolean {
    const running = this.#running.get(`${accountId}\u0000${runId}`);
    running?.abort();
    return running !== undefined;
  }

  async run(request: LocalSqlRequest): Promise<Result<LocalSqlAnswer, LocalSqlError>> {
    const key = request.runId === undefined ? null : `${request.accountId}\u0000${request.runId}`;
    const controller = new AbortController();
    if (key !== null) this.#running.set(key, controller);
    try {
      const answer = await this.#run(request, controller.signal);
      return controller.signal.aborted && !answer.ok ? fail({ message: 'The statement was cancelled.', cancelled: true }) : answer;
    } finally {
      if (key !== null && this.#running.get(key) === controller) this.#running.delete(key);
    }
  }

  async #run(request: LocalSqlRequest, signal: AbortSignal): Promise<Result<LocalSqlAnswer, LocalSqlError>> {
    const { accountId, sql } = request;
    const tables = (await this.tables(accountId)).filter((t) => namesAny(sql, [t.name, ...t.aliases]));
    const csvFiles = this.attachments.list(accountId).filter((csv) => namesAny(sql, [csv.name]));
    let sandbox: Sandbox | null = null;
    try {
      sandbox = await located(sql, () =>
        this.#sandboxes.open(
          tables.map((t) => ({ names: [t.name, ...t.aliases], columns: t.columns })),
          csvFiles,
        ),
      );
      await checkSelect(sandbox.connection, sql);
      const ids = { accountId, executionId: localExecutionId() };
      const sources = { tables: tables.map((t) => ({ names: [t.name, ...t.aliases], tableName: t.tableName })), csvFiles };
      const entry = await runIntoCache(await this.#db(), ids, sources, sql, { now: this.#options.now?.() ?? new Date(), signal });
      await this.#dropReplaced(request);
      return ok({
        executionId: ids.executionId,
        columns: entry.columns.map(({ name, type }) => ({ name, type })),
        rowCount: entry.rowCount,
        ranAt: entry.fetchedAt,
      });
    } catch (error) {
      if (error instanceof LocalSqlRefused) return fail(error.error);
      // cancelled before the statement started
      if (signal.aborted) return fail({ message: 'The statement was cancelled.', cancelled: true });
      throw error;
    } finally {
      const done = sandbox;
      // closed, and the next one started, once the answer is given: neither is in its way
      setImmediate(() => {
        done?.close();
        if (!this.#closed) this.#sandboxes.startSpare();
      });
    }
  }

  /** Once the work a run leaves after its answer (the next sandbox's start) is done. */
  async settled(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.#sandboxes.ready();
  }

  /** Closes the sandbox started ahead. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#sandboxes.close();
  }

  /** The cache's file, once the cache is open (opened by a first use, see opened-on-use.ts). */
  async #db(): Promise<CacheDb> {
    const { cache } = this.#options;
    try {
      return cache.db;
    } catch {
      await cache.usage();
      return cache.db;
    }
  }

  async #dropReplaced({ accountId, replaces }: LocalSqlRequest): Promise<void> {
    if (!replaces?.startsWith(LOCAL_RESULT_PREFIX)) return;
    const db = await this.#db();
    const entry = await readEntry(db, accountId, replaces);
    if (entry !== null) await removeEntry(db, entry);
  }
}

/** Whether `sql` names any of `names` (as a whole word, in any case, quoted or not). */
function namesAny(sql: string, names: string[]): boolean {
  const lower = sql.toLowerCase();
  return names.some((name) => new RegExp(`(^|[^a-z0-9_$])${name}($|[^a-z0-9_$])`).test(lower));
}
