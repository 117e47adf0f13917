import { SvelteMap } from 'svelte/reactivity';
import type { ContractError, ExecutionUpdate, LocalSqlResult, LocalSqlTable } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import { Run } from '../runs/run.svelte.ts';

// Local SQL tabs' runs: each answer is a cached result, shown below the editor as a run of the tab
// that completed, so that the result panel (grid, chart, profile, pivot, export) reads it as any
// other. A statement refused or failed is a failed run, with where in its text when DuckDB said,
// marked in the editor as the other editors mark a run's error.

export interface LocalSqlSources {
  tables: LocalSqlTable[];
  attached: { name: string; bytes: number }[];
}

const keyOf = (accountId: string, tabId: number) => `${accountId}\u0000${tabId}`;

type Outcome = Pick<ExecutionUpdate, 'executionId' | 'state' | 'error' | 'result'>;

/** The run a local statement is shown as: under way, or finished with its answer (or its error). */
function finished(accountId: string, tabId: number, elapsedMs: number, outcome: Outcome, isFinished = true): Run {
  const run = new Run(accountId, tabId, null);
  const at = new Date().toISOString();
  run.accept({
    accountId,
    queryId: null,
    isFinished,
    queuePosition: null,
    submittedAt: at,
    startedAt: at,
    endedAt: isFinished ? at : null,
    expiresAt: null,
    elapsedMs: Math.round(elapsedMs),
    ...outcome,
  });
  return run;
}

function answered(accountId: string, tabId: number, answer: LocalSqlResult, elapsedMs: number): Run {
  return finished(accountId, tabId, elapsedMs, {
    executionId: answer.executionId,
    state: 'QUERY_STATE_COMPLETED',
    error: null,
    result: {
      columnNames: answer.columns.map((c) => c.name),
      columnTypes: answer.columns.map((c) => c.type),
      totalRowCount: answer.rowCount,
      totalBytes: 0,
      executionTimeMillis: Math.round(elapsedMs),
    },
  });
}

function failed(accountId: string, tabId: number, error: ContractError, elapsedMs: number): Run {
  if (error.code === 'cancelled')
    return finished(accountId, tabId, elapsedMs, { executionId: '', state: 'QUERY_STATE_CANCELLED', error: null, result: null });
  const place = (error.details ?? {}) as { line?: number; column?: number };
  return finished(accountId, tabId, elapsedMs, {
    executionId: '',
    state: 'QUERY_STATE_FAILED',
    error: { type: 'Local SQL', message: error.message, line: place.line, column: place.column },
    result: null,
  });
}

export class LocalSqlRuns {
  readonly #api: Api;
  readonly #runs = new SvelteMap<string, Run>();
  /** The name main knows each tab's run under way by, to cancel it. */
  readonly #runIds = new Map<string, string>();
  #runCount = 0;
  /** The answer still cached while a failed run is shown. */
  readonly #kept = new Map<string, string>();
  readonly #sources = new SvelteMap<string, LocalSqlSources>();

  constructor(api: Api) {
    this.#api = api;
  }

  latest(accountId: string, tabId: number): Run | null {
    return this.#runs.get(keyOf(accountId, tabId)) ?? null;
  }

  sources(accountId: string): LocalSqlSources | null {
    return this.#sources.get(accountId) ?? null;
  }

  /** Reads the cached results (and attached files) the account's local SQL may name. */
  async loadSources(accountId: string): Promise<void> {
    const answer = await this.#api.invoke('localsql:tables', { accountId });
    if (answer.ok) this.#sources.set(accountId, answer.data);
  }

  /** Runs `sql`; answers the new result's execution id, or null when it failed (the run says why). */
  async run(accountId: string, tabId: number, sql: string): Promise<string | null> {
    const key = keyOf(accountId, tabId);
    if (this.#runIds.has(key)) return null;
    const runId = `${tabId}:${++this.#runCount}`;
    this.#runIds.set(key, runId);
    const started = performance.now();
    // the answer shown before, dropped from the cache once the new one is in (a failure keeps it)
    const replaces = this.#runs.get(key)?.update?.executionId || (this.#kept.get(key) ?? null);
    const underWay: Outcome = { executionId: '', state: 'QUERY_STATE_EXECUTING', error: null, result: null };
    this.#runs.set(key, finished(accountId, tabId, 0, underWay, false));
    try {
      const answer = await this.#api.invoke('localsql:run', { accountId, sql, replaces, runId });
      const elapsed = performance.now() - started;
      if (!answer.ok) {
        if (replaces) this.#kept.set(key, replaces);
        this.#runs.set(key, failed(accountId, tabId, answer.error, elapsed));
        return null;
      }
      this.#kept.delete(key);
      this.#runs.set(key, answered(accountId, tabId, answer.data, elapsed));
      return answer.data.executionId;
    } finally {
      this.#runIds.delete(key);
    }
  }

  /** Stops the tab's run under way. */
  async cancel(run: Run): Promise<void> {
    const runId = this.#runIds.get(keyOf(run.accountId, run.queryId));
    if (runId === undefined) return;
    run.cancelling = true;
    await this.#api.invoke('localsql:cancel', { accountId: run.accountId, runId });
  }

  /** Shows a tab's last answer again (after a restart), read from the cache. */
  async show(accountId: string, tabId: number, executionId: string): Promise<void> {
    const key = keyOf(accountId, tabId);
    if (this.#runs.has(key)) return;
    const page = await this.#api.invoke('results:getRows', { accountId, executionId, startRow: 0, endRow: 1 });
    if (!page.ok || this.#runs.has(key)) return;
    const ranAt = page.data.fromCache?.fetchedAt ?? new Date().toISOString();
    const answer = { executionId, columns: page.data.columns, rowCount: page.data.totalRowCount, ranAt };
    this.#runs.set(key, answered(accountId, tabId, answer, 0));
  }
}
