import { SvelteSet } from 'svelte/reactivity';
import { DEFAULT_CONFIRM_DATAPOINTS, NO_RATES, type ContractError, type UsageRates, type UsageSettings } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

/**
 * The confirm size and each account's rates as main keeps them, and what was agreed to this
 * session: a result read once after asking is not asked about again, nor is anything once the
 * person said not to ask until the app restarts.
 */
export class UsageState {
  confirmDatapoints = $state(DEFAULT_CONFIRM_DATAPOINTS);
  #rates = $state<Record<string, UsageRates>>({});
  /** Set from the dialog: no more asking until the window is opened again. */
  askNoMore = $state(false);
  readonly #agreed = new SvelteSet<string>();
  readonly #warmed = new Set<string>();
  /** Accounts whose settings came from main: until then, whether to ask is not known. */
  readonly #loaded = new SvelteSet<string>();
  readonly #api: Api;

  constructor(api: Api) {
    this.#api = api;
  }

  loaded(accountId: string): boolean {
    return this.#loaded.has(accountId);
  }

  rates(accountId: string): UsageRates {
    return this.#rates[accountId] ?? NO_RATES;
  }

  async load(accountId: string): Promise<void> {
    if (this.#loaded.has(accountId)) return;
    const answer = await this.#api.invoke('usage:settings', { accountId });
    if (answer.ok) this.#take(accountId, answer.data);
  }

  async change(accountId: string, changes: Partial<UsageSettings>): Promise<ContractError | null> {
    const answer = await this.#api.invoke('usage:settings', { accountId, ...changes });
    if (!answer.ok) return answer.error;
    this.#take(accountId, answer.data);
    return null;
  }

  /**
   * Whether reading this many datapoints of this result asks first. Never on the embedded Local
   * service (`isLocal`): it bills nothing, and asking there only stood between the analyst and the rows.
   */
  asks(key: string, datapoints: number, isLocal: boolean): boolean {
    return !isLocal && !this.askNoMore && datapoints > this.confirmDatapoints && !this.#agreed.has(key);
  }

  /**
   * Has main read this month's usage record before the usage page asks for it: the account menu,
   * which offers the page, calls this once the window is idle. The first read of a month is most of
   * the page's first opening; once read, main keeps its sums.
   */
  warm(accountId: string): void {
    if (this.#warmed.has(accountId)) return;
    this.#warmed.add(accountId);
    void this.#api.invoke('usage:report', { accountId, month: monthOf(new Date()) });
  }

  agree(key: string, askNoMore: boolean): void {
    this.#agreed.add(key);
    if (askNoMore) this.askNoMore = true;
  }

  #take(accountId: string, settings: UsageSettings): void {
    this.confirmDatapoints = settings.confirmDatapoints;
    this.#rates = { ...this.#rates, [accountId]: settings.rates };
    this.#loaded.add(accountId);
  }
}

const states = new WeakMap<Api, UsageState>();

/** A month as the usage record names it, `YYYY-MM`, in local time. */
export function monthOf(day: Date): string {
  return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}`;
}

/** The window's one usage state (one per bridge to main). */
export function usageState(api: Api): UsageState {
  let state = states.get(api);
  if (state === undefined) states.set(api, (state = new UsageState(api)));
  return state;
}
