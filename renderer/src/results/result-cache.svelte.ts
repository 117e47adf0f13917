import type { CacheStatus, ContractError } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import { resultIds, type ResultSource } from './result-source.ts';

/**
 * The cache's copy of one result: asks main to download it whole (it answers at once, progress
 * comes as events), follows that download, and cancels it on request.
 */
export class ResultCacheTracker {
  status = $state.raw<CacheStatus | null>(null);
  /** The service could not be reached the last time it was asked. */
  offline = $state(false);
  error = $state.raw<ContractError | null>(null);
  readonly #api: Api;
  readonly #ids: { accountId: string; executionId: string };
  #allowPartial = false;

  constructor(source: ResultSource) {
    this.#api = source.api;
    this.#ids = resultIds(source);
  }

  /** Follows this result's cache events and starts the download; returns the unsubscribe. */
  start(allowPartial: boolean): () => void {
    const stop = this.#api.on('results:cacheStatus', (status) => {
      if (status.accountId === this.#ids.accountId && status.executionId === this.#ids.executionId) this.status = status;
    });
    this.#allowPartial = allowPartial;
    this.download();
    return stop;
  }

  /** Asks main for the result whole again: after a cancel, a failure, or an eviction. */
  download(): void {
    void this.#api.invoke('results:cache', { ...this.#ids, allowPartial: this.#allowPartial }).then((answer) => this.#take(answer));
  }

  async cancel(): Promise<void> {
    this.#take(await this.#api.invoke('results:cacheCancel', this.#ids));
  }

  /** Where the cache stands, asked of main alone: what is cached stays readable offline. */
  async #refresh(): Promise<void> {
    const answer = await this.#api.invoke('results:cacheStatus', this.#ids);
    if (answer.ok) this.status = answer.data;
  }

  #take(answer: { ok: true; data: CacheStatus } | { ok: false; error: ContractError }): void {
    if (answer.ok) {
      this.status = answer.data;
      this.offline = false;
      this.error = null;
      return;
    }
    this.error = answer.error;
    if (answer.error.code === 'unreachable' || answer.error.code === 'timeout') {
      this.offline = true;
      void this.#refresh();
    }
  }
}
