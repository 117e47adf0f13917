import type { Account, ContractError, QueryDetail, QuerySummary } from '../../../main/contract/index.ts';
import type { Api } from '../lib/bridge.ts';

export type LoadState = 'loading' | 'ready' | 'failed';

/** The active account, its queries, and the query the user is looking at. */
export class Workspace {
  readonly #api: Api;
  account = $state.raw<Account | null>(null);
  queries = $state.raw<QuerySummary[]>([]);
  listState = $state<LoadState>('loading');
  listError = $state.raw<ContractError | null>(null);
  filter = $state('');
  selectedId = $state<number | null>(null);
  detail = $state.raw<QueryDetail | null>(null);
  detailState = $state<LoadState>('ready');
  detailError = $state.raw<ContractError | null>(null);
  readonly #details = new Map<number, QueryDetail>();

  visibleQueries = $derived.by(() => {
    const needle = this.filter.trim().toLocaleLowerCase();
    if (!needle) return this.queries;
    return this.queries.filter((query) => query.name.toLocaleLowerCase().includes(needle));
  });

  constructor(api: Api) {
    this.#api = api;
  }

  async load(): Promise<void> {
    this.listState = 'loading';
    const accounts = await this.#api.invoke('accounts:list', {});
    if (!accounts.ok) return this.#listFailed(accounts.error);
    const { activeAccountId } = accounts.data;
    const account = accounts.data.accounts.find((a) => a.id === activeAccountId) ?? accounts.data.accounts[0] ?? null;
    this.account = account;
    if (!account) {
      this.queries = [];
      this.listState = 'ready';
      return;
    }
    const queries = await this.#api.invoke('queries:list', { accountId: account.id });
    if (!queries.ok) return this.#listFailed(queries.error);
    this.queries = queries.data.queries;
    this.listError = null;
    this.listState = 'ready';
    if (this.selectedId !== null) await this.select(this.selectedId);
  }

  /** Show what was fetched before at once (and while the host is unreachable), then refresh it. */
  async select(queryId: number): Promise<void> {
    const account = this.account;
    if (!account) return;
    this.selectedId = queryId;
    const known = this.#details.get(queryId) ?? null;
    this.detail = known;
    this.detailState = known ? 'ready' : 'loading';
    const answer = await this.#api.invoke('queries:get', { accountId: account.id, queryId });
    // The user may have moved on while this was loading.
    if (this.selectedId !== queryId) return;
    if (answer.ok) {
      this.#details.set(queryId, answer.data);
      this.detail = answer.data;
      this.detailError = null;
      this.detailState = 'ready';
    } else if (!known) {
      this.detailError = answer.error;
      this.detailState = 'failed';
    }
  }

  /** After the link to the host comes back: retry whatever failed while it was gone. */
  async recover(): Promise<void> {
    if (this.listState === 'failed') return this.load();
    if (this.detailState === 'failed' && this.selectedId !== null) return this.select(this.selectedId);
  }

  #listFailed(error: ContractError): void {
    this.listError = error;
    this.listState = 'failed';
  }
}
