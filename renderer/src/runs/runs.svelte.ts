import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { ContractError, ExecutionUpdate, LatestResult, ParameterValues } from '$contract/index.ts';
import type { Substituted } from '../editor/substitution.ts';
import type { Api } from '../lib/bridge.ts';
import { isScratch } from '../queries/scratch.svelte.ts';
import { Run } from './run.svelte.ts';

/** Updates for executions not (yet) known: the first event can beat the run's own answer. */
const EARLY_LIMIT = 32;

function keyOf(accountId: string, queryId: number): string {
  return `${accountId}\u0000${queryId}`;
}

/**
 * The run shown for each query of each account (its latest, or one picked from its history), fed
 * by `execution:update` events; and why the last Run could not start, if it could not (the shown
 * run stays in place then).
 */
export class Runs {
  readonly #api: Api;
  readonly #byQuery = new SvelteMap<string, Run>();
  readonly #starting = new SvelteSet<string>();
  readonly #startFailures = new SvelteMap<string, ContractError>();
  readonly #byExecution = new Map<string, Run>();
  readonly #early = new Map<string, ExecutionUpdate>();
  /** Queries whose latest result was already asked for in this session. */
  readonly #askedLatest = new Set<string>();

  constructor(api: Api) {
    this.#api = api;
    api.on('execution:update', (update) => this.#receive(update));
  }

  latest(accountId: string | undefined, queryId: number | null): Run | null {
    if (accountId === undefined || queryId === null) return null;
    return this.#byQuery.get(keyOf(accountId, queryId)) ?? null;
  }

  isStarting(accountId: string | undefined, queryId: number | null): boolean {
    return accountId !== undefined && queryId !== null && this.#starting.has(keyOf(accountId, queryId));
  }

  /** Why the last Run of the query could not start; cleared by the next one that does. */
  startFailure(accountId: string | undefined, queryId: number | null): ContractError | null {
    if (accountId === undefined || queryId === null) return null;
    return this.#startFailures.get(keyOf(accountId, queryId)) ?? null;
  }

  /**
   * Runs the query as saved, or, with `asText`, the SQL of `ran` (the edited text or a selection,
   * its values put in) without saving it. `ran` maps an error's position back to the editor.
   */
  async start(
    accountId: string,
    queryId: number,
    parameters: ParameterValues = {},
    ran: Substituted | null = null,
    asText = false,
  ): Promise<void> {
    const key = keyOf(accountId, queryId);
    if (this.latest(accountId, queryId)?.isActive || this.#starting.has(key)) return;
    this.#starting.add(key);
    const answer =
      ran && asText
        ? await this.#api.invoke('executions:runSql', { accountId, queryId: isScratch(queryId) ? null : queryId, sql: ran.sql, parameters })
        : await this.#api.invoke('executions:run', { accountId, queryId, parameters });
    this.#starting.delete(key);
    if (!answer.ok) {
      this.#startFailures.set(key, answer.error);
      return;
    }
    this.#startFailures.delete(key);
    this.#follow(this.#put(new Run(accountId, queryId, parameters, false, ran?.toEditor ?? null)), answer.data);
  }

  /**
   * When a query is opened with nothing shown for it yet: its latest result (from the cache, the
   * runs main remembers, or the service's latest), preferring one run with `parameters`.
   */
  async showLatest(accountId: string, queryId: number, parameters: ParameterValues | undefined): Promise<void> {
    const key = keyOf(accountId, queryId);
    if (this.#byQuery.has(key) || this.#askedLatest.has(key)) return;
    this.#askedLatest.add(key);
    const answer = await this.#api.invoke('executions:latest', { accountId, queryId, parameters });
    if (!answer.ok || answer.data === null || this.#byQuery.has(key)) {
      this.#askedLatest.delete(key);
      return;
    }
    this.#adopt(accountId, queryId, answer.data);
  }

  /** Shows the service's latest result of the query, run with `parameters`, in place of a run (a max age allowed it). */
  useLatest(accountId: string, queryId: number, execution: ExecutionUpdate, parameters: ParameterValues): void {
    this.#startFailures.delete(keyOf(accountId, queryId));
    this.#adopt(accountId, queryId, { execution, parameters, isCached: false, source: 'service' });
  }

  /** Shows an earlier execution of a query (from its history, or a notification) as its run. */
  async show(accountId: string, queryId: number, executionId: string, parameters: ParameterValues | null = null): Promise<void> {
    const current = this.latest(accountId, queryId);
    if (current?.update?.executionId === executionId) return;
    const run = this.#put(new Run(accountId, queryId, parameters, false, null, true));
    const answer = await this.#api.invoke('executions:get', { accountId, executionId });
    if (answer.ok) this.#follow(run, answer.data);
    else run.failure = answer.error;
  }

  /**
   * The query's edited text was discarded: a run of that text (its result, or its error with a
   * place in a text that is gone) is no longer shown; the query's latest result is, when next opened.
   */
  forgetTextRun(accountId: string, queryId: number): void {
    const key = keyOf(accountId, queryId);
    const run = this.#byQuery.get(key);
    if (!run || run.toEditor === null || run.isActive) return;
    this.#byQuery.delete(key);
    this.#askedLatest.delete(key);
  }

  async cancel(run: Run): Promise<void> {
    const executionId = run.update?.executionId;
    if (!executionId || !run.isActive) return;
    run.cancelling = true;
    const answer = await this.#api.invoke('executions:cancel', { accountId: run.accountId, executionId });
    if (answer.ok) await this.#refresh(run);
    run.cancelling = false;
  }

  /** Events sent while the link was down are lost: ask for the state of every active run. */
  async refreshActive(): Promise<void> {
    await Promise.all([...this.#byQuery.values()].filter((run) => run.isActive).map((run) => this.#refresh(run)));
  }

  #adopt(accountId: string, queryId: number, latest: LatestResult): void {
    this.#follow(this.#put(new Run(accountId, queryId, latest.parameters, true)), latest.execution);
  }

  #put(run: Run): Run {
    this.#byQuery.set(keyOf(run.accountId, run.queryId), run);
    return run;
  }

  #follow(run: Run, update: ExecutionUpdate): void {
    const { executionId } = update;
    this.#byExecution.set(executionId, run);
    run.accept(update);
    const early = this.#early.get(executionId);
    this.#early.delete(executionId);
    if (early) run.accept(early);
  }

  async #refresh(run: Run): Promise<void> {
    const executionId = run.update?.executionId;
    if (!executionId) return;
    const answer = await this.#api.invoke('executions:get', { accountId: run.accountId, executionId });
    if (answer.ok) run.accept(answer.data);
  }

  #receive(update: ExecutionUpdate): void {
    const run = this.#byExecution.get(update.executionId);
    if (run) return run.accept(update);
    this.#early.set(update.executionId, update);
    if (this.#early.size > EARLY_LIMIT) this.#early.delete(this.#early.keys().next().value!);
  }
}
