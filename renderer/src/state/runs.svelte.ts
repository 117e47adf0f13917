import type { ExecutionUpdate } from '../../../main/contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import { Run } from './run.svelte.ts';

/** Updates for executions not (yet) known: the first event can beat the run's own answer. */
const EARLY_LIMIT = 32;

/** The latest run of each query, fed by `execution:update` events. */
export class Runs {
  readonly #api: Api;
  #byQuery = $state.raw<ReadonlyMap<number, Run>>(new Map());
  readonly #byExecution = new Map<string, Run>();
  readonly #early = new Map<string, ExecutionUpdate>();

  constructor(api: Api) {
    this.#api = api;
    api.on('execution:update', (update) => this.#receive(update));
  }

  latest(queryId: number | null): Run | null {
    return queryId === null ? null : (this.#byQuery.get(queryId) ?? null);
  }

  async start(accountId: string, queryId: number): Promise<void> {
    if (this.latest(queryId)?.isActive) return;
    const run = new Run(accountId, queryId);
    this.#byQuery = new Map(this.#byQuery).set(queryId, run);
    const answer = await this.#api.invoke('executions:run', { accountId, queryId });
    if (!answer.ok) {
      run.failure = answer.error;
      return;
    }
    const { executionId } = answer.data;
    this.#byExecution.set(executionId, run);
    run.accept(answer.data);
    const early = this.#early.get(executionId);
    this.#early.delete(executionId);
    if (early) run.accept(early);
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
