import type { DuckDBConnection } from '@duckdb/node-api';
import type { Plan } from '../accounts/account-store.ts';
import { explainOfflineRange } from '../dunesql/offline-range.ts';
import { DialectError, type Rewritten } from '../dunesql/rewrite.ts';
import type { ResultStore } from '../results/result-store.ts';
import { diskFullMessage, isDiskFull, writeWhileDiskFull } from '../storage/disk-full.ts';
import { addMillis, millisBetween, nowIso } from '../time.ts';
import { overBudgetMessage, timeLimitMessage } from './budget-messages.ts';
import { STATE, UNFINISHED_STATES, type ExecutionStore } from './execution-store.ts';
import type { PlanLimits } from './plan-limits.ts';
import { EXECUTION_FAILED, sqlError, sqlErrorAt } from './sql-error.ts';
import type { Reservation, Sandbox, Sandboxes } from './sql-sandbox.ts';
import { StatementRefused } from './statement-refused.ts';
import { streamResult } from './stream-result.ts';
import { turnOrder } from './turn-order.ts';

export interface Job {
  executionId: string;
  /** Who started it: its slots and queue. */
  accountId: number;
  /** The starter's plan: its limits bound the execution. */
  plan: Plan;
  /**
   * Whose private tables the SQL may read besides every public one: the starter's own when it
   * runs its own query, none when it runs another context's (whose results others may read).
   */
  privateTablesOf: number | null;
  sql: string;
}

interface Running {
  job: Job;
  reservation: Reservation;
  connection: DuckDBConnection | null;
  cancelled: boolean;
  /** Stopped for running past its plan's time limit rather than cancelled by its context. */
  timedOut: boolean;
  done: Promise<void> | null;
  /** The SQL as DuckDB runs it (DuneSQL rewritten), once rewritten: errors are located through it. */
  ran: Rewritten | null;
}

export interface ExecutorOptions {
  executions: ExecutionStore;
  results: ResultStore;
  /** Where user SQL runs: a DuckDB per execution with the tables its context may read, no file access. */
  sandboxes: Sandboxes;
  slotsPerAccount: number;
  /**
   * How many executions run at once in the whole service. Each holds a thread of libuv's pool
   * while DuckDB works (and a long query holds it for as long as it runs); kept below the pool's
   * size, so that every other request, a cancel included, still finds a thread.
   */
  runningLimit: number;
  /**
   * Whether one execution may run past `runningLimit`, of a context that runs nothing while every
   * slot is taken: executions are never stopped to make room, so without it a context that filled
   * the slots with long statements kept every other context waiting until one of them ended.
   */
  newcomerSlot: boolean;
  retentionMillis: number;
  limits: Record<Plan, PlanLimits>;
}

/**
 * Runs executions in DuckDB, at most `runningLimit` at once (one more for a context that runs
 * nothing, see `newcomerSlot`) and each account at most `slotsPerAccount`; the others wait their turn (see turnOrder: a context running fewer goes
 * first, so no context keeps the others out), as does every one behind an execution whose memory
 * and spill the service's budget cannot give yet. A result is streamed from the SQL database into
 * its own table.
 */
export class Executor {
  #options: ExecutorOptions;
  #waiting: Job[] = [];
  #running = new Map<string, Running>();
  #finished = new Set<Promise<void>>();
  #closed = false;

  constructor(options: ExecutorOptions) {
    this.#options = options;
  }

  /** After `close`, jobs are not taken: they stay PENDING and read as FAILED after the next start. */
  submit(job: Job): void {
    if (this.#closed) return;
    this.#waiting.push(job);
    this.#pump();
  }

  /** Its place in the order the executions waiting in the service start, 1 for the next; null when not waiting. */
  queuePosition(executionId: string): number | null {
    const index = this.#inTurn().findIndex((j) => j.executionId === executionId);
    return index < 0 ? null : index + 1;
  }

  busySlots(accountId: number): number {
    return this.#runningPerAccount().get(accountId) ?? 0;
  }

  /** How many of the account's executions wait to start. */
  waitingOf(accountId: number): number {
    return this.#waiting.filter((j) => j.accountId === accountId).length;
  }

  /** True when the execution was still waiting or running and is now cancelled. */
  async cancel(executionId: string): Promise<boolean> {
    const { executions, retentionMillis } = this.#options;
    const now = nowIso();
    const expiresAt = addMillis(now, retentionMillis);
    const waiting = this.#waiting.findIndex((j) => j.executionId === executionId);
    if (waiting >= 0) this.#waiting.splice(waiting, 1);
    const running = this.#running.get(executionId);
    if (running) {
      stop(running);
      return executions.cancel(executionId, now, now, expiresAt);
    }
    const execution = await executions.get(executionId);
    if (!execution || !UNFINISHED_STATES.includes(execution.state)) return false;
    const endedAt = execution.state === STATE.executing ? now : null;
    return executions.cancel(executionId, now, endedAt, expiresAt);
  }

  /** Stops taking work, interrupts what runs, and waits for it to wind down. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#waiting = [];
    for (const running of this.#running.values()) stop(running);
    await Promise.all(this.#finished);
  }

  #runningPerAccount(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const { job } of this.#running.values()) counts.set(job.accountId, (counts.get(job.accountId) ?? 0) + 1);
    return counts;
  }

  #inTurn(): Job[] {
    return turnOrder(this.#waiting, this.#runningPerAccount());
  }

  #pump(): void {
    const { sandboxes, slotsPerAccount, runningLimit, newcomerSlot, limits } = this.#options;
    // the order holds while this fills slots (see turnOrder), and puts a context running nothing first
    for (const job of this.#inTurn()) {
      const busy = this.busySlots(job.accountId);
      const newcomer = newcomerSlot && busy === 0 && this.#running.size === runningLimit;
      if (this.#running.size >= runningLimit && !newcomer) return;
      if (busy >= slotsPerAccount) continue;
      const reservation = sandboxes.reserve(job.privateTablesOf, limits[job.plan]);
      // the service's memory or spill is taken: no one overtakes the first that waits for it
      if (!reservation) return;
      this.#waiting.splice(this.#waiting.indexOf(job), 1);
      const running: Running = { job, reservation, connection: null, cancelled: false, timedOut: false, done: null, ran: null };
      this.#running.set(job.executionId, running);
      const run = this.#run(running).catch((error: unknown) => {
        console.error(`[service] execution ${job.executionId} could not be recorded:`, error);
      });
      const done = run.finally(() => {
        this.#running.delete(job.executionId);
        this.#finished.delete(done);
        this.#pump();
      });
      running.done = done;
      this.#finished.add(done);
    }
  }

  async #run(running: Running): Promise<void> {
    const { executions, sandboxes, retentionMillis } = this.#options;
    const { executionId, plan } = running.job;
    const startedAt = nowIso();
    let marked = false;
    try {
      marked = await executions.markExecuting(executionId, startedAt);
    } finally {
      if (!marked) sandboxes.forgo(running.reservation);
    }
    if (!marked) return;
    const limit = this.#options.limits[plan].timeLimitMillis;
    const timer = setTimeout(() => {
      running.timedOut = true;
      stop(running);
    }, limit);
    try {
      await this.#execute(running, startedAt);
    } finally {
      clearTimeout(timer);
    }
    if (running.timedOut) {
      const endedAt = nowIso();
      await writeWhileDiskFull(
        () => this.#closed,
        () =>
          executions.fail(executionId, endedAt, addMillis(endedAt, retentionMillis), {
            type: EXECUTION_FAILED,
            message: timeLimitMessage(plan, limit),
          }),
      );
    }
  }

  async #execute(running: Running, startedAt: string): Promise<void> {
    const { executions, sandboxes, retentionMillis } = this.#options;
    const { executionId, sql, plan } = running.job;
    const submittedAt = (await executions.get(executionId))?.submittedAt ?? startedAt;
    let sandbox: Sandbox | null = null;
    try {
      sandbox = await sandboxes.open(running.reservation, sql);
      running.connection = sandbox.connection;
      if (running.cancelled) return;
      const stored = await streamResult(running.connection, {
        executionId,
        sql,
        capBytes: this.#options.limits[plan].resultBytes,
        results: this.#options.results,
        hidePaths: (text) => sandboxes.hidePaths(text),
        cancelled: () => running.cancelled,
        rewritten: (ran) => (running.ran = ran),
      });
      if (!stored) return;
      const endedAt = nowIso();
      const state = stored.truncated ? STATE.completedPartial : STATE.completed;
      const finished = await executions.complete(executionId, state, endedAt, addMillis(endedAt, retentionMillis), {
        ...stored,
        pendingMillis: millisBetween(submittedAt, startedAt),
        executionMillis: millisBetween(startedAt, endedAt),
      });
      if (!finished) await this.#options.results.drop(executionId);
      else void this.#options.results.ready(executionId);
    } catch (error) {
      if (running.cancelled) return;
      // a result stored before its record failed (a full disk) is no one's; gone first, its space frees the record's
      await this.#options.results.drop(executionId).catch((dropError: unknown) => {
        console.error(`[service] the result of execution ${executionId} could not be dropped:`, dropError);
      });
      const endedAt = nowIso();
      const message = sandboxes.hidePaths(error instanceof Error ? error.message : String(error));
      const overBudget = overBudgetMessage(message, plan, this.#options.limits[plan]);
      const detail = isDiskFull(error)
        ? { type: EXECUTION_FAILED, message: diskFullMessage('the execution could not write its rows') }
        : error instanceof StatementRefused || overBudget
          ? { type: EXECUTION_FAILED, message: overBudget ?? message }
          : error instanceof DialectError
            ? sqlErrorAt(error.message, sql, error.offset)
            : sqlError(explainOfflineRange(message), sql, running.ran ?? undefined);
      await writeWhileDiskFull(
        () => this.#closed,
        () => executions.fail(executionId, endedAt, addMillis(endedAt, retentionMillis), detail),
      );
    } finally {
      // no interrupt may reach a closed connection
      running.connection = null;
      sandbox?.close();
    }
  }
}

// An interrupt only reaches a statement that is running: one sent while the run is between
// steps (connecting, preparing) would be lost, so it is repeated until the run has stopped.
const INTERRUPT_REPEAT_MILLIS = 50;

function stop(running: Running): void {
  running.cancelled = true;
  running.connection?.interrupt();
  const timer = setInterval(() => running.connection?.interrupt(), INTERRUPT_REPEAT_MILLIS);
  void running.done?.finally(() => clearInterval(timer));
}
