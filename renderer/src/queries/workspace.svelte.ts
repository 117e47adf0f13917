import type {
  ChannelRequest,
  ContractError,
  LocalQuery,
  PendingEdit,
  QueryDetail,
  QueryEdit,
  Result,
  SaveOutcome,
  SyncState,
  TableSummary,
  WorkspaceSnapshot,
} from '../../../main/contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import type { Accounts } from '../accounts/accounts.svelte.ts';
import type { Drafts } from '../editor/drafts.svelte.ts';

export type LoadState = 'loading' | 'ready' | 'failed';

const NO_ACCOUNT: ContractError = { code: 'not_found', message: 'There is no active account.' };

function localOf(query: QueryDetail, before?: LocalQuery): LocalQuery {
  const { id, name, description, owner, tags, isPrivate, isArchived } = query;
  return { id, name, description, owner, tags, isPrivate, isArchived, isGone: false, createdAt: before?.createdAt ?? null, updatedAt: before?.updatedAt ?? null };
}

/**
 * The active account's workspace as main keeps it on disk: shown at once, then refreshed from the
 * service when it answers (main sends what changed as events). Also the query the user looks at.
 */
export class Workspace {
  readonly #api: Api;
  readonly accounts: Accounts;
  /** Unsaved edits, adopted from disk when the workspace opens. */
  readonly drafts: Drafts;
  account = $derived.by(() => this.accounts.active);
  queries = $state.raw<LocalQuery[]>([]);
  queriesFetchedAt = $state<string | null>(null);
  tables = $state.raw<TableSummary[]>([]);
  pending = $state.raw<PendingEdit[]>([]);
  sync = $state.raw<SyncState | null>(null);
  listState = $state<LoadState>('loading');
  listError = $state.raw<ContractError | null>(null);
  filter = $state('');
  selectedId = $state<number | null>(null);
  detailState = $state<LoadState>('ready');
  detailError = $state.raw<ContractError | null>(null);
  /** Details of the active account's queries, from disk first, then from the service. */
  #details = $state.raw<ReadonlyMap<number, QueryDetail>>(new Map());
  detail = $derived(this.selectedId === null ? null : (this.#details.get(this.selectedId) ?? null));

  visibleQueries = $derived.by(() => {
    const needle = this.filter.trim().toLocaleLowerCase();
    if (!needle) return this.queries;
    return this.queries.filter((query) => query.name.toLocaleLowerCase().includes(needle));
  });

  constructor(api: Api, accounts: Accounts, drafts: Drafts) {
    this.#api = api;
    this.accounts = accounts;
    this.drafts = drafts;
    api.on('workspace:changed', (snapshot) => {
      if (snapshot.accountId === this.account?.id) this.#apply(snapshot, false);
    });
    api.on('workspace:sync', (state) => {
      if (state.accountId === this.account?.id) this.sync = state;
    });
  }

  async load(): Promise<void> {
    this.listState = 'loading';
    const loaded = await this.accounts.load();
    if (!loaded.ok) return this.#listFailed(loaded.error);
    await this.#open();
    if (this.selectedId !== null) await this.select(this.selectedId);
  }

  /** After the active account changed: its own workspace, nothing selected. */
  async showActiveAccount(): Promise<void> {
    this.selectedId = null;
    this.filter = '';
    this.#details = new Map();
    this.queries = [];
    this.pending = [];
    this.sync = null;
    this.listState = 'loading';
    await this.#open();
  }

  async switchAccount(accountId: string): Promise<ContractError | null> {
    const refused = await this.accounts.setActive(accountId);
    if (!refused) await this.showActiveAccount();
    return refused;
  }

  /** Removing the active account makes Local active again: its workspace is shown then. */
  async removeAccount(accountId: string): Promise<ContractError | null> {
    const before = this.accounts.activeId;
    const answer = await this.accounts.remove(accountId);
    if (!answer.ok) return answer.error;
    if (this.accounts.activeId !== before) await this.showActiveAccount();
    return null;
  }

  /** Try again now: the button, or the network came back. */
  async refresh(): Promise<void> {
    const account = this.account;
    if (!account) return;
    const answer = await this.#api.invoke('workspace:refresh', { accountId: account.id });
    if (answer.ok && this.account?.id === account.id) this.sync = answer.data;
  }

  detailOf(queryId: number): QueryDetail | null {
    return this.#details.get(queryId) ?? null;
  }

  pendingOf(queryId: number): PendingEdit | null {
    return this.pending.find((edit) => edit.queryId === queryId) ?? null;
  }

  /** Shows the copy on disk at once, then the service's (when it answers). */
  async select(queryId: number): Promise<void> {
    const account = this.account;
    if (!account) return;
    this.selectedId = queryId;
    this.detailError = null;
    if (!this.#details.has(queryId)) {
      this.detailState = 'loading';
      const local = await this.#api.invoke('workspace:query', { accountId: account.id, queryId });
      if (local.ok && local.data && this.account?.id === account.id) this.#remember(local.data.query);
    }
    if (this.#details.has(queryId)) this.detailState = 'ready';
    const answer = await this.#api.invoke('queries:get', { accountId: account.id, queryId });
    if (this.account?.id !== account.id) return;
    if (answer.ok) {
      this.#remember(answer.data);
      if (this.selectedId === queryId) this.detailState = 'ready';
    } else if (!this.#details.has(queryId) && this.selectedId === queryId) {
      this.detailError = answer.error;
      this.detailState = 'failed';
    }
  }

  /** Any query the account may read, listed or not (public queries of others). */
  async openById(queryId: number): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.#api.invoke('queries:get', { accountId: account.id, queryId });
    if (answer.ok) this.#show(answer.data);
    return answer;
  }

  async create(fields: Omit<ChannelRequest<'queries:create'>, 'accountId'>): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.#api.invoke('queries:create', { accountId: account.id, ...fields });
    if (answer.ok) {
      this.queries = [localOf(answer.data), ...this.queries.filter((q) => q.id !== answer.data.id)];
      this.#show(answer.data);
    }
    return answer;
  }

  /** Saved, kept as pending (offline), or held as a conflict: main decides, nothing is dropped. */
  async save(queryId: number, baseVersion: number, edit: QueryEdit): Promise<Result<SaveOutcome>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.#api.invoke('queries:save', { accountId: account.id, queryId, baseVersion, edit });
    if (!answer.ok || this.account?.id !== account.id) return answer;
    const outcome = answer.data;
    if (outcome.status === 'saved') {
      this.#remember(outcome.query);
      this.pending = this.pending.filter((p) => p.queryId !== queryId);
    } else {
      this.pending = [...this.pending.filter((p) => p.queryId !== queryId), outcome.pending];
    }
    return answer;
  }

  /** Ends a conflict (or a refused edit): send mine, take theirs, or copy mine to a new query. */
  async resolve(queryId: number, choice: 'mine' | 'theirs' | 'copy'): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.#api.invoke('queries:resolvePending', { accountId: account.id, queryId, choice });
    if (!answer.ok || this.account?.id !== account.id) return answer;
    this.pending = this.pending.filter((p) => p.queryId !== queryId);
    if (answer.data.id === queryId) this.#remember(answer.data);
    else this.#show(answer.data);
    return answer;
  }

  async #open(): Promise<void> {
    const account = this.account;
    if (!account) {
      this.queries = [];
      this.listState = 'ready';
      return;
    }
    const answer = await this.#api.invoke('workspace:open', { accountId: account.id });
    if (this.account?.id !== account.id) return;
    if (!answer.ok) return this.#listFailed(answer.error);
    this.#apply(answer.data, true);
  }

  #apply(snapshot: WorkspaceSnapshot, opened: boolean): void {
    this.queries = snapshot.queries;
    this.queriesFetchedAt = snapshot.queriesFetchedAt;
    this.tables = snapshot.tables;
    this.pending = snapshot.pending;
    this.sync = snapshot.sync;
    if (opened) this.drafts.adopt(snapshot.accountId, snapshot.drafts);
    this.listError = null;
    this.listState = 'ready';
  }

  #show(query: QueryDetail): void {
    this.#remember(query);
    this.selectedId = query.id;
    this.detailError = null;
    this.detailState = 'ready';
    if (!this.queries.some((q) => q.id === query.id)) this.queries = [localOf(query), ...this.queries];
  }

  #remember(query: QueryDetail): void {
    this.#details = new Map(this.#details).set(query.id, query);
    this.queries = this.queries.map((q) => (q.id === query.id ? localOf(query, q) : q));
  }

  #listFailed(error: ContractError): void {
    this.listError = error;
    this.listState = 'failed';
  }
}
