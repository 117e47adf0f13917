import type { CacheStatus, ContractError, ExecutionListItem, RunComparison } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

/** The runs that can be compared: finished, with a result. */
export function comparableRuns(records: ExecutionListItem[]): ExecutionListItem[] {
  return records.filter((r) => r.isFinished && r.totalRowCount !== null);
}

/**
 * Two runs of a query compared in the cache: the runs not there yet are downloaded first (the
 * cache's own download, followed by its events), then compared, then again by the key picked.
 */
export class RunCompare {
  comparison = $state.raw<RunComparison | null>(null);
  error = $state.raw<ContractError | null>(null);
  /** Runs on their way into the cache, with how far each is. */
  downloading = $state.raw<CacheStatus[]>([]);
  busy = $state(false);
  key = $state('');
  readonly #api: Api;
  readonly #accountId: string;
  readonly #pair: { a: string; b: string };
  #stop: (() => void) | null = null;

  constructor(api: Api, accountId: string, pair: { a: string; b: string }) {
    this.#api = api;
    this.#accountId = accountId;
    this.#pair = pair;
  }

  /** Compares (by the key when one is picked), bringing the runs into the cache first when needed. */
  async run(): Promise<void> {
    this.busy = true;
    const answer = await this.#api.invoke('results:compare', {
      accountId: this.#accountId,
      ...this.#pair,
      ...(this.key ? { key: this.key } : {}),
    });
    this.busy = false;
    if (answer.ok) {
      this.comparison = answer.data;
      this.error = null;
      return;
    }
    const missing = (answer.error.details as { notCached?: string[] } | undefined)?.notCached;
    if (answer.error.code === 'not_found' && missing && this.downloading.length === 0) return this.#bring(missing);
    this.error = answer.error;
  }

  dispose(): void {
    this.#stop?.();
    this.#stop = null;
  }

  async #bring(ids: string[]): Promise<void> {
    const waiting = new Map<string, CacheStatus | null>(ids.map((id) => [id, null]));
    const settle = (status: CacheStatus) => {
      if (!waiting.has(status.executionId)) return;
      waiting.set(status.executionId, status);
      this.downloading = [...waiting.values()].filter((s): s is CacheStatus => s !== null && s.state === 'downloading');
      const ended = [...waiting.values()];
      // an interrupted download goes on by itself when the service answers again: it is waited for too
      const stuck = ended.find((s) => s !== null && s.state !== 'downloading' && s.state !== 'interrupted' && s.state !== 'cached');
      if (stuck) {
        this.dispose();
        this.downloading = [];
        this.error = { code: 'bad_request', message: stuckMessage(stuck) };
      } else if (ended.every((s) => s?.state === 'cached')) {
        this.dispose();
        this.downloading = [];
        void this.run();
      }
    };
    this.#stop = this.#api.on('results:cacheStatus', settle);
    for (const executionId of ids) {
      const started = await this.#api.invoke('results:cache', { accountId: this.#accountId, executionId });
      if (started.ok) settle(started.data);
      else return void ((this.error = started.error), this.dispose());
    }
  }
}

/** Why a run could not be brought into the cache, where a comparison reads it. */
function stuckMessage(status: CacheStatus): string {
  if (status.state === 'too_large') return 'A run is larger than the cache budget: a larger budget in Settings, Results cache, lets it in.';
  if (status.state === 'cancelled') return 'The download of a run into the cache was cancelled.';
  return status.error ?? 'A run could not be kept in the cache.';
}
