import type {
  ChannelRequest,
  ContractError,
  Draft,
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
import type { Accounts } from '../accounts/accounts.svelte.ts';
import type { Drafts } from '../editor/drafts.svelte.ts';
import type { Api } from '../lib/bridge.ts';
import { isScratch, nextScratchId, scratchName, Scratches } from './scratch.svelte.ts';
import { searchQueries } from './search.ts';
import { readTabsState, Tabs } from './tabs.svelte.ts';

export type LoadState = 'loading' | 'ready' | 'failed';

const NO_ACCOUNT: ContractError = { code: 'not_found', message: 'There is no active account: add one in Accounts.' };
const TABS_SAVE_DELAY_MS = 300;

export interface DetailLoad {
  state: LoadState;
  error: ContractError | null;
}

function localOf(query: QueryDetail, before?: LocalQuery): LocalQuery {
  const { id, name, description, owner, tags, isPrivate, isArchived, sql } = query;
  return { id, name, description, owner, tags, isPrivate, isArchived, sql, isGone: false, createdAt: before?.createdAt ?? null, updatedAt: before?.updatedAt ?? null };
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
  /** New queries not created yet: an unfinished New query form, or ones waiting for the service. */
  newDrafts = $state.raw<Draft[]>([]);
  sync = $state.raw<SyncState | null>(null);
  listState = $state<LoadState>('loading');
  listError = $state.raw<ContractError | null>(null);
  filter = $state('');
  /** The query shown: the active tab's. */
  selectedId = $state<number | null>(null);
  readonly tabs = new Tabs();
  readonly scratches: Scratches;
  /** Details of the active account's queries, from disk first, then from the service. */
  #details = $state.raw<ReadonlyMap<number, QueryDetail>>(new Map());
  #loads = $state.raw<ReadonlyMap<number, DetailLoad>>(new Map());
  detail = $derived(this.selectedId === null ? null : (this.#details.get(this.selectedId) ?? null));
  #tabsTimer: ReturnType<typeof setTimeout> | undefined;
  /** How many times each new query's draft was kept or dropped, so a slow answer cannot undo a later call. */
  readonly #newDraftCalls = new Map<string, number>();

  /** The queries the filter finds (by name, tag or SQL), with the SQL line that matched. */
  matches = $derived(searchQueries(this.queries, this.filter));
  visibleQueries = $derived(this.matches.map((match) => match.query));

  constructor(api: Api, accounts: Accounts, drafts: Drafts) {
    this.#api = api;
    this.accounts = accounts;
    this.drafts = drafts;
    this.scratches = new Scratches(api);
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
    if (this.selectedId !== null) await this.loadQuery(this.selectedId);
  }

  /** After the active account changed: its own workspace, with the tabs it had open. */
  async showActiveAccount(): Promise<void> {
    this.selectedId = null;
    this.tabs.items = [];
    this.filter = '';
    this.#details = new Map();
    this.#loads = new Map();
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

  /** A tab's title: its query's name, or the scratch tab's. */
  tabName(tabId: number): string {
    if (isScratch(tabId)) return scratchName(tabId);
    return this.#details.get(tabId)?.name ?? this.queries.find((q) => q.id === tabId)?.name ?? `Query #${tabId}`;
  }

  detailOf(queryId: number): QueryDetail | null {
    return this.#details.get(queryId) ?? null;
  }

  loadOf(queryId: number): DetailLoad {
    return this.#loads.get(queryId) ?? { state: 'loading', error: null };
  }

  pendingOf(queryId: number): PendingEdit | null {
    return this.pending.find((edit) => edit.queryId === queryId) ?? null;
  }

  /** Shows the query in a tab (a preview unless `pin`), from disk at once, then the service's copy. */
  async select(queryId: number, pin = false): Promise<void> {
    if (!this.account) return;
    this.tabs.open(queryId, pin);
    this.selectedId = queryId;
    this.#saveTabs();
    if (isScratch(queryId)) await this.scratches.load(this.account.id, queryId);
    else await this.loadQuery(queryId);
  }

  /** A new scratch tab (New SQL): SQL to run without making it a query. */
  async newScratch(): Promise<void> {
    await this.select(nextScratchId(this.tabs.items.map((t) => t.queryId)), true);
  }

  /** Makes a scratch tab's SQL a query, shown in the tab's place. */
  async saveScratch(tabId: number, name: string): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const at = this.tabs.items.findIndex((t) => t.queryId === tabId);
    const sql = this.scratches.stateOf(account.id, tabId)?.sql ?? '';
    const answer = await this.create({ name, sql });
    if (answer.ok && this.account?.id === account.id) {
      this.close(tabId);
      if (at >= 0) this.move(answer.data.id, at);
    }
    return answer;
  }

  /** Keeps a tab (the user double-clicked it, or edited its query). */
  pin(queryId: number): void {
    if (!this.tabs.items.some((t) => t.queryId === queryId && !t.pinned)) return;
    this.tabs.pin(queryId);
    this.#saveTabs();
  }

  close(queryId: number): void {
    if (isScratch(queryId) && this.account) this.scratches.remove(this.account.id, queryId);
    const next = this.tabs.close(queryId);
    if (this.selectedId === queryId) this.selectedId = next;
    this.#saveTabs();
  }

  move(queryId: number, toIndex: number): void {
    this.tabs.move(queryId, toIndex);
    this.#saveTabs();
  }

  /** Reads the query: the copy on disk first (when not held yet), then the service's. */
  async loadQuery(queryId: number): Promise<void> {
    const account = this.account;
    if (!account) return;
    if (!this.#details.has(queryId)) {
      this.#setLoad(queryId, 'loading', null);
      const local = await this.#api.invoke('workspace:query', { accountId: account.id, queryId });
      if (this.account?.id !== account.id) return;
      if (local.ok && local.data) this.#remember(local.data.query);
    }
    if (this.#details.has(queryId)) this.#setLoad(queryId, 'ready', null);
    const answer = await this.#api.invoke('queries:get', { accountId: account.id, queryId });
    if (this.account?.id !== account.id) return;
    if (answer.ok) {
      this.#remember(answer.data);
      this.#setLoad(queryId, 'ready', null);
    } else if (!this.#details.has(queryId)) {
      this.#setLoad(queryId, 'failed', answer.error);
    }
  }

  /** Any query the account may read, listed or not (public queries of others). */
  async openById(queryId: number): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.#api.invoke('queries:get', { accountId: account.id, queryId });
    if (answer.ok) {
      this.#show(answer.data);
      return answer;
    }
    // Offline, a query fetched before is still there.
    const local = await this.#api.invoke('workspace:query', { accountId: account.id, queryId });
    if (!local.ok || !local.data) return answer;
    this.#show(local.data.query);
    return { ok: true, data: local.data.query };
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

  /**
   * Keeps a new query's form on disk (`later`: to be created as soon as the service answers);
   * null content removes it.
   */
  async keepNew(newId: string, content: { name: string; sql: string } | null, later = false): Promise<Result<unknown>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const key = { newId };
    const others = () => this.newDrafts.filter((d) => !('newId' in d.key && d.key.newId === newId));
    // Main stores the calls in their order; only the last one's answer may change what is shown.
    const call = (this.#newDraftCalls.get(newId) ?? 0) + 1;
    this.#newDraftCalls.set(newId, call);
    if (content === null) {
      this.newDrafts = others();
      return this.#api.invoke('workspace:discardDraft', { accountId: account.id, key });
    }
    const draft = { key, name: content.name, sql: content.sql, parameterValues: {}, baseVersion: null, createWhenOnline: later };
    const answer = await this.#api.invoke('workspace:saveDraft', { accountId: account.id, draft });
    const latest = this.#newDraftCalls.get(newId) === call;
    if (answer.ok && latest && this.account?.id === account.id) this.newDrafts = [...others(), { ...draft, updatedAt: answer.data.updatedAt }];
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
    await this.#restoreTabs(account.id);
  }

  /** The tabs open when the app last closed (or the account was left), each read from disk first. */
  async #restoreTabs(accountId: string): Promise<void> {
    const answer = await this.#api.invoke('ui:get', { accountId, key: 'tabs' });
    if (!answer.ok || this.account?.id !== accountId || this.tabs.items.length > 0) return;
    const saved = readTabsState(answer.data.value);
    this.tabs.items = saved.tabs;
    if (this.selectedId === null) this.selectedId = saved.active;
    await Promise.all(saved.tabs.map((tab) => (isScratch(tab.queryId) ? this.scratches.load(accountId, tab.queryId) : this.loadQuery(tab.queryId))));
  }

  #saveTabs(): void {
    const accountId = this.account?.id;
    if (!accountId) return;
    clearTimeout(this.#tabsTimer);
    this.#tabsTimer = setTimeout(() => {
      const value = { tabs: this.tabs.items.map((t) => ({ ...t })), active: this.selectedId };
      void this.#api.invoke('ui:set', { accountId, key: 'tabs', value });
    }, TABS_SAVE_DELAY_MS);
  }

  #setLoad(queryId: number, state: LoadState, error: ContractError | null): void {
    this.#loads = new Map(this.#loads).set(queryId, { state, error });
  }

  #apply(snapshot: WorkspaceSnapshot, opened: boolean): void {
    this.queries = snapshot.queries;
    this.queriesFetchedAt = snapshot.queriesFetchedAt;
    this.tables = snapshot.tables;
    this.pending = snapshot.pending;
    this.newDrafts = snapshot.drafts.filter((draft) => 'newId' in draft.key);
    this.sync = snapshot.sync;
    if (opened) this.drafts.adopt(snapshot.accountId, snapshot.drafts);
    this.listError = null;
    this.listState = 'ready';
  }

  /** A query created or opened by id: in a pinned tab. */
  #show(query: QueryDetail): void {
    this.#remember(query);
    this.#setLoad(query.id, 'ready', null);
    this.tabs.open(query.id, true);
    this.selectedId = query.id;
    this.#saveTabs();
    if (!this.queries.some((q) => q.id === query.id)) this.queries = [localOf(query), ...this.queries];
  }

  /** A dialog of a query's header asked for from elsewhere (the list's context menu), opened once the query shows. */
  requestedDialog = $state<{ queryId: number; dialog: 'details' | 'parameters' } | null>(null);

  /** Archives or unarchives, makes private or public: sent at once (offline, the answer says so). */
  async setFlags(queryId: number, flags: { archived?: boolean; isPrivate?: boolean }): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.#api.invoke('queries:setFlags', { accountId: account.id, queryId, ...flags });
    if (answer.ok && this.account?.id === account.id) this.#remember(answer.data);
    return answer;
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
