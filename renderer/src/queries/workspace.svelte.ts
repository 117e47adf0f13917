import type { ChannelRequest, ContractError, QueryDetail, QuerySummary, Result } from '../../../main/contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import type { Accounts } from '../accounts/accounts.svelte.ts';

export type LoadState = 'loading' | 'ready' | 'failed';
export type QueryChanges = Omit<ChannelRequest<'queries:update'>, 'accountId' | 'queryId'>;

function summaryOf(query: QueryDetail, before?: QuerySummary): QuerySummary {
  const { id, name, description, owner, tags } = query;
  return { id, name, description, owner, tags, createdAt: before?.createdAt ?? null, updatedAt: before?.updatedAt ?? null };
}

/** The active account's queries, and the query the user is looking at. */
export class Workspace {
  readonly #api: Api;
  readonly accounts: Accounts;
  account = $derived.by(() => this.accounts.active);
  queries = $state.raw<QuerySummary[]>([]);
  listState = $state<LoadState>('loading');
  listError = $state.raw<ContractError | null>(null);
  filter = $state('');
  selectedId = $state<number | null>(null);
  detail = $state.raw<QueryDetail | null>(null);
  detailState = $state<LoadState>('ready');
  detailError = $state.raw<ContractError | null>(null);
  /** Details fetched for the active account, shown at once when a query is selected again. */
  #details = new Map<number, QueryDetail>();

  visibleQueries = $derived.by(() => {
    const needle = this.filter.trim().toLocaleLowerCase();
    if (!needle) return this.queries;
    return this.queries.filter((query) => query.name.toLocaleLowerCase().includes(needle));
  });

  constructor(api: Api, accounts: Accounts) {
    this.#api = api;
    this.accounts = accounts;
  }

  async load(): Promise<void> {
    this.listState = 'loading';
    const loaded = await this.accounts.load();
    if (!loaded.ok) return this.#listFailed(loaded.error);
    await this.#loadQueries();
    if (this.selectedId !== null) await this.select(this.selectedId);
  }

  /** After the active account changed: its own queries, nothing selected. */
  async showActiveAccount(): Promise<void> {
    this.selectedId = null;
    this.detail = null;
    this.filter = '';
    this.#details = new Map();
    this.queries = [];
    this.listState = 'loading';
    await this.#loadQueries();
  }

  async switchAccount(accountId: string): Promise<ContractError | null> {
    const refused = await this.accounts.setActive(accountId);
    if (!refused) await this.showActiveAccount();
    return refused;
  }

  /** Removing the active account makes Local active again: its queries are shown then. */
  async removeAccount(accountId: string): Promise<ContractError | null> {
    const before = this.accounts.activeId;
    const answer = await this.accounts.remove(accountId);
    if (!answer.ok) return answer.error;
    if (this.accounts.activeId !== before) await this.showActiveAccount();
    return null;
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
    if (this.selectedId !== queryId || this.account?.id !== account.id) return;
    if (answer.ok) {
      this.#remember(answer.data);
      this.detailError = null;
      this.detailState = 'ready';
    } else if (!known) {
      this.detailError = answer.error;
      this.detailState = 'failed';
    }
  }

  /** Any query the account may read, listed or not (public queries of others). */
  async openById(queryId: number): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: { code: 'not_found', message: 'There is no active account.' } };
    const answer = await this.#api.invoke('queries:get', { accountId: account.id, queryId });
    if (answer.ok) this.#show(answer.data);
    return answer;
  }

  async create(fields: Omit<ChannelRequest<'queries:create'>, 'accountId'>): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: { code: 'not_found', message: 'There is no active account.' } };
    const answer = await this.#api.invoke('queries:create', { accountId: account.id, ...fields });
    if (answer.ok) {
      this.queries = [summaryOf(answer.data), ...this.queries];
      this.#show(answer.data);
    }
    return answer;
  }

  async save(queryId: number, changes: QueryChanges): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: { code: 'not_found', message: 'There is no active account.' } };
    const answer = await this.#api.invoke('queries:update', { accountId: account.id, queryId, ...changes });
    if (answer.ok && this.account?.id === account.id) {
      this.#remember(answer.data);
      this.queries = this.queries.map((query) => (query.id === queryId ? summaryOf(answer.data, query) : query));
    }
    return answer;
  }

  /** After the link to the host comes back: retry whatever failed while it was gone. */
  async recover(): Promise<void> {
    if (this.listState === 'failed') return this.load();
    if (this.detailState === 'failed' && this.selectedId !== null) return this.select(this.selectedId);
  }

  async #loadQueries(): Promise<void> {
    const account = this.account;
    if (!account) {
      this.queries = [];
      this.listState = 'ready';
      return;
    }
    const answer = await this.#api.invoke('queries:list', { accountId: account.id });
    if (this.account?.id !== account.id) return;
    if (!answer.ok) return this.#listFailed(answer.error);
    this.queries = answer.data.queries;
    this.listError = null;
    this.listState = 'ready';
  }

  #show(query: QueryDetail): void {
    this.selectedId = query.id;
    this.detailError = null;
    this.detailState = 'ready';
    this.#remember(query);
  }

  #remember(query: QueryDetail): void {
    this.#details.set(query.id, query);
    if (this.selectedId === query.id) this.detail = query;
  }

  #listFailed(error: ContractError): void {
    this.listError = error;
    this.listState = 'failed';
  }
}
