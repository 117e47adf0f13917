import { SvelteMap } from 'svelte/reactivity';
import type { Api } from '../lib/bridge.ts';
import type { LaterWrites } from '../lib/later-writes.ts';

// A scratch tab (New SQL) holds SQL that runs without being a query. It shares the tabs, runs and
// views of queries, which are keyed by a number: scratch tabs take negative ones, as the service
// numbers its queries from 1.

export function isScratch(tabId: number): boolean {
  return tabId < 0;
}

// A local SQL tab (New local SQL) is a scratch tab whose SQL runs over the result cache, on this
// computer: its ids are the scratch ids from this one down.
const LOCAL_SQL_FIRST = -1_000_000;

export function isLocalSql(tabId: number): boolean {
  return tabId <= LOCAL_SQL_FIRST;
}

export function scratchName(tabId: number): string {
  return isLocalSql(tabId) ? `Local SQL ${LOCAL_SQL_FIRST - tabId + 1}` : `SQL ${-tabId}`;
}

/** The id for a new scratch tab: below every one open. */
export function nextScratchId(tabIds: number[]): number {
  return Math.min(0, ...tabIds.filter((id) => !isLocalSql(id))) - 1;
}

/** The id for a new local SQL tab: below every one open. */
export function nextLocalSqlId(tabIds: number[]): number {
  return Math.min(LOCAL_SQL_FIRST + 1, ...tabIds.filter(isLocalSql)) - 1;
}

export interface ScratchState {
  sql: string;
  /** Its last run, shown again when the tab comes back. */
  executionId: string | null;
}

const SAVE_DELAY_MS = 300;
export const SCRATCH_TEMPLATE = 'SELECT 1 AS answer';

function keyOf(accountId: string, tabId: number): string {
  return `${accountId}\u0000${tabId}`;
}

function uiKey(tabId: number): string {
  return `scratch:${-tabId}`;
}

function readState(value: unknown): ScratchState | null {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (typeof v.sql !== 'string') return null;
  return { sql: v.sql, executionId: typeof v.executionId === 'string' ? v.executionId : null };
}

/** The text and last run of each scratch tab, kept by main (per account) as it is typed. */
export class Scratches {
  readonly #api: Api;
  readonly #states = new SvelteMap<string, ScratchState>();
  readonly #later: LaterWrites;

  constructor(api: Api, later: LaterWrites) {
    this.#api = api;
    this.#later = later;
  }

  stateOf(accountId: string, tabId: number): ScratchState | null {
    return this.#states.get(keyOf(accountId, tabId)) ?? null;
  }

  /** Reads it from disk, once: a new tab starts with the template. */
  async load(accountId: string, tabId: number): Promise<ScratchState> {
    const held = this.stateOf(accountId, tabId);
    if (held) return held;
    const answer = await this.#api.invoke('ui:get', { accountId, key: uiKey(tabId) });
    const state = this.stateOf(accountId, tabId) ??
      (answer.ok ? readState(answer.data.value) : null) ?? { sql: SCRATCH_TEMPLATE, executionId: null };
    this.#put(accountId, tabId, state);
    return state;
  }

  edit(accountId: string, tabId: number, sql: string): void {
    this.#update(accountId, tabId, { sql });
  }

  /** Kept at once, with the text that ran: a run is seldom, and its tab must find it after any stop. */
  ran(accountId: string, tabId: number, executionId: string): void {
    this.#update(accountId, tabId, { executionId }, 0);
  }

  /** Forgets the tab, on disk too (it was closed, or saved as a query). */
  remove(accountId: string, tabId: number): void {
    const key = keyOf(accountId, tabId);
    this.#later.cancel(`scratch\u0000${key}`);
    this.#states.delete(key);
    void this.#api.invoke('ui:set', { accountId, key: uiKey(tabId), value: null });
  }

  #update(accountId: string, tabId: number, change: Partial<ScratchState>, delayMs = SAVE_DELAY_MS): void {
    const state = { ...(this.stateOf(accountId, tabId) ?? { sql: SCRATCH_TEMPLATE, executionId: null }), ...change };
    this.#put(accountId, tabId, state);
    this.#later.schedule(`scratch\u0000${keyOf(accountId, tabId)}`, delayMs, () => {
      const value = { ...(this.stateOf(accountId, tabId) ?? state) };
      void this.#api.invoke('ui:set', { accountId, key: uiKey(tabId), value });
    });
  }

  #put(accountId: string, tabId: number, state: ScratchState): void {
    this.#states.set(keyOf(accountId, tabId), state);
  }
}
