import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ok, type Result } from '../../contract/index.ts';
import { listEntries, readEntry, removeEntry } from '../cache/manifest.ts';
import type { ResultCache } from '../cache/result-cache.ts';
import type { ExecutionRecords } from '../executions/history.ts';
import { Attachments } from './attachments.ts';
import { localExecutionId, storeLocalResult } from './local-results.ts';
import { LOCAL_RESULT_PREFIX, nameTables, type LocalTable } from './local-tables.ts';
import { openSandbox, type SandboxTable } from './sandbox.ts';
import { located, LocalSqlRefused, prepareSelect, type LocalSqlError } from './statement-check.ts';
import { TableCopies } from './table-copies.ts';

// SQL over the result cache, on this computer only: nothing here reaches a service. A statement
// names cached results as tables (see local-tables.ts), runs in a sandbox that holds copies of
// those it names (sandbox.ts), and its answer is cached as a result of its own (local-results.ts).

export interface LocalSqlRequest {
  accountId: string;
  sql: string;
  /** The local result this run replaces (the tab's previous one), dropped once the new one is in. */
  replaces?: string | null;
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
  /** A folder of its own, in the cache's (copies, answers on their way, spill). */
  dir: string;
  now?: () => Date;
}

const fail = (error: LocalSqlError): { ok: false; error: LocalSqlError } => ({ ok: false, error });

export class LocalSql {
  readonly #options: LocalSqlOptions;
  #copies: TableCopies | null = null;
  readonly attachments: Attachments;

  constructor(options: LocalSqlOptions) {
    this.#options = options;
    this.attachments = new Attachments(join(options.dir, 'attached'));
  }

  /** The account's cached results as local SQL's tables. */
  async tables(accountId: string): Promise<LocalTable[]> {
    const { cache, history } = this.#options;
    await cache.usage(); // opens the cache when nothing has yet
    const entries = (await listEntries(cache.db)).filter((e) => e.accountId === accountId && !e.isPartial);
    const tables = nameTables(
      entries,
      history.all().filter((r) => r.accountId === accountId),
    );
    this.#tableCopies().prune(new Set((await listEntries(cache.db)).map((e) => e.tableName)));
    return tables;
  }

  async run(request: LocalSqlRequest): Promise<Result<LocalSqlAnswer, LocalSqlError>> {
    const { cache, dir } = this.#options;
    const tables = (await this.tables(request.accountId)).filter((t) => namesAny(request.sql, [t.name, ...t.aliases]));
    const executionId = localExecutionId();
    const outputs = join(dir, 'answers');
    mkdirSync(outputs, { recursive: true });
    const outputFile = join(outputs, `${executionId}.duckdb`);
    try {
      const sandboxed: SandboxTable[] = [];
      for (const table of tables)
        sandboxed.push({ names: [table.name, ...table.aliases], file: await this.#tableCopies().path(table.tableName) });
      await this.#answer(request, sandboxed, outputFile);
      const now = this.#options.now?.() ?? new Date();
      const entry = await storeLocalResult(cache.db, { accountId: request.accountId, executionId }, outputFile, now);
      await this.#dropReplaced(request);
      return ok({
        executionId,
        columns: entry.columns.map(({ name, type }) => ({ name, type })),
        rowCount: entry.rowCount,
        ranAt: entry.fetchedAt,
      });
    } catch (error) {
      if (error instanceof LocalSqlRefused) return fail(error.error);
      throw error;
    } finally {
      rmSync(outputFile, { force: true });
      rmSync(`${outputFile}.wal`, { force: true });
    }
  }

  /** Runs the statement in its sandbox, its answer written to `outputFile`. */
  async #answer(request: LocalSqlRequest, tables: SandboxTable[], outputFile: string): Promise<void> {
    const csvFiles = this.attachments.list(request.accountId).filter((csv) => namesAny(request.sql, [csv.name]));
    const sandbox = await located(request.sql, () => openSandbox(tables, csvFiles, outputFile, join(this.#options.dir, 'spill')));
    try {
      await prepareSelect(sandbox.connection, request.sql);
      // on a line of its own, so that DuckDB's positions are the statement's, a line further down
      const create = `CREATE TABLE ${sandbox.output}.main.data AS\n`;
      await located(request.sql, () => sandbox.connection.run(`${create}${request.sql.replace(/;\s*$/, '')}`), 1);
    } finally {
      sandbox.close();
    }
  }

  async #dropReplaced({ accountId, replaces }: LocalSqlRequest): Promise<void> {
    if (!replaces?.startsWith(LOCAL_RESULT_PREFIX)) return;
    const entry = await readEntry(this.#options.cache.db, accountId, replaces);
    if (entry !== null) await removeEntry(this.#options.cache.db, entry);
  }

  #tableCopies(): TableCopies {
    this.#copies ??= new TableCopies(this.#options.cache.db, join(this.#options.dir, 'copies'));
    return this.#copies;
  }
}

/** Whether `sql` names any of `names` (as a whole word, in any case, quoted or not). */
function namesAny(sql: string, names: string[]): boolean {
  const lower = sql.toLowerCase();
  return names.some((name) => new RegExp(`(^|[^a-z0-9_$])${name}($|[^a-z0-9_$])`).test(lower));
}
