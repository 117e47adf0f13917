import { SvelteMap } from 'svelte/reactivity';
import type { ContractError, LocalQuery, QueryDetail } from '$contract/index.ts';

export type LoadState = 'loading' | 'ready' | 'failed';

export interface DetailLoad {
  state: LoadState;
  error: ContractError | null;
}

/** A query's entry in the list, from its details (`before`: the entry it replaces). */
export function localOf(query: QueryDetail, before?: LocalQuery): LocalQuery {
  const { id, name, description, owner, tags, isPrivate, isArchived, sql } = query;
  return {
    id,
    name,
    description,
    owner,
    tags,
    isPrivate,
    isArchived,
    sql,
    isGone: false,
    createdAt: before?.createdAt ?? null,
    updatedAt: before?.updatedAt ?? null,
  };
}

/** Details of the active account's queries, from disk first, then from the service, and how far each has loaded. */
export class QueryDetails {
  readonly #details = new SvelteMap<number, QueryDetail>();
  readonly #loads = new SvelteMap<number, DetailLoad>();

  get(queryId: number): QueryDetail | null {
    return this.#details.get(queryId) ?? null;
  }

  has(queryId: number): boolean {
    return this.#details.has(queryId);
  }

  loadOf(queryId: number): DetailLoad {
    return this.#loads.get(queryId) ?? { state: 'loading', error: null };
  }

  remember(query: QueryDetail): void {
    this.#details.set(query.id, query);
  }

  setLoad(queryId: number, state: LoadState, error: ContractError | null): void {
    this.#loads.set(queryId, { state, error });
  }

  clear(): void {
    this.#details.clear();
    this.#loads.clear();
  }
}
