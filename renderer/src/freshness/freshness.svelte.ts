import { SvelteMap, SvelteSet } from 'svelte/reactivity';
import type { ContractError, ExecutionUpdate, ParameterValues, PinState } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import { reuseDecision, type ReuseDecision } from './reuse.ts';

// What the window knows of freshness (issue 36): each query's max age and the service's latest
// result for the values last asked about, and which results are pinned. Main keeps both on disk.

export interface QueryFreshness {
  maxAgeMinutes: number | null;
  latest: ExecutionUpdate | null;
  /** The values `latest` is the latest of. */
  latestFor: ParameterValues;
}

const keyOf = (accountId: string, id: number | string) => `${accountId}\u0000${id}`;

export class Freshness {
  readonly #api: Api;
  readonly #queries = new SvelteMap<string, QueryFreshness>();
  readonly #pins = new SvelteMap<string, PinState>();
  /** Executions Run used instead of starting one. */
  readonly #reused = new SvelteSet<string>();
  /** The last load asked per query: an earlier answer arriving after it is dropped. */
  readonly #asking = new Map<string, number>();
  #asked = 0;

  constructor(api: Api) {
    this.#api = api;
  }

  of(accountId: string, queryId: number): QueryFreshness | null {
    return this.#queries.get(keyOf(accountId, queryId)) ?? null;
  }

  /** Asks main for the query's max age and (with one) the service's latest result for `parameters`. */
  async load(accountId: string, queryId: number, parameters: ParameterValues): Promise<QueryFreshness | null> {
    const key = keyOf(accountId, queryId);
    const asked = ++this.#asked;
    this.#asking.set(key, asked);
    const answer = await this.#api.invoke('freshness:query', { accountId, queryId, parameters });
    if (!answer.ok || this.#asking.get(key) !== asked) return null;
    const known = { ...answer.data, latestFor: parameters };
    this.#queries.set(key, known);
    return known;
  }

  /** Whether Run would use the latest result now, from what was last loaded. */
  decision(accountId: string, queryId: number, parameters: ParameterValues, now: number): ReuseDecision {
    const known = this.of(accountId, queryId);
    if (known === null) return { reuse: false };
    return reuseDecision({ ...known, parameters, now });
  }

  async setMaxAge(accountId: string, queryId: number, minutes: number | null, parameters: ParameterValues): Promise<ContractError | null> {
    const answer = await this.#api.invoke('freshness:setMaxAge', { accountId, queryId, maxAgeMinutes: minutes });
    if (!answer.ok) return answer.error;
    await this.load(accountId, queryId, parameters);
    return null;
  }

  markReused(executionId: string): void {
    this.#reused.add(executionId);
  }

  wasReused(executionId: string): boolean {
    return this.#reused.has(executionId);
  }

  pinOf(accountId: string, executionId: string): PinState | null {
    return this.#pins.get(keyOf(accountId, executionId)) ?? null;
  }

  async loadPin(accountId: string, executionId: string): Promise<void> {
    const answer = await this.#api.invoke('freshness:pinState', { accountId, executionId });
    if (answer.ok) this.#pins.set(keyOf(accountId, executionId), answer.data);
  }

  async setPinned(accountId: string, executionId: string, pinned: boolean): Promise<ContractError | null> {
    const answer = await this.#api.invoke('freshness:pin', { accountId, executionId, pinned });
    if (!answer.ok) return answer.error;
    this.#pins.set(keyOf(accountId, executionId), answer.data);
    return null;
  }
}
