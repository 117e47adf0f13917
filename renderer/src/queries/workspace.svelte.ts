import type { ChannelRequest, ContractError, QueryDetail, QueryEdit, Result, SaveOutcome } from '$contract/index.ts';
import type { Accounts } from '../accounts/accounts.svelte.ts';
import type { Drafts } from '../editor/drafts.svelte.ts';
import type { Api } from '../lib/bridge.ts';
import type { LaterWrites } from '../lib/later-writes.ts';
import { LocalSqlRuns } from '../local-sql/local-sql-runs.svelte.ts';
import { localOf, QueryDetails, type DetailLoad } from './query-details.svelte.ts';
import { SavedTabs } from './saved-tabs.ts';
import { isScratch, nextLocalSqlId, nextScratchId, scratchName, Scratches } from './scratch.svelte.ts';
import { Tabs } from './tabs.svelte.ts';
import { WorkspaceLists } from './workspace-lists.svelte.ts';

const NO_ACCOUNT: ContractError = { code: 'not_found', message: 'There is no active account: add one in Accounts.' };

/**
 * The active account's workspace (its lists: see WorkspaceLists), and the queries the user opens
 * in tabs, reads and edits.
 */
export class Workspace extends WorkspaceLists {
  /** The query shown: the active tab's. */
  selectedId = $state<number | null>(null);
  readonly tabs = new Tabs();
  readonly scratches: Scratches;
  /** Local SQL tabs' runs and the tables they may name. */
  readonly localSql: LocalSqlRuns;
  readonly #details = new QueryDetails();
  detail = $derived(this.selectedId === null ? null : this.#details.get(this.selectedId));
  readonly #savedTabs: SavedTabs;

  constructor(api: Api, accounts: Accounts, drafts: Drafts, later: LaterWrites) {
    super(api, accounts, drafts);
    this.scratches = new Scratches(api, later);
    this.localSql = new LocalSqlRuns(api);
    this.#savedTabs = new SavedTabs(api, later);
  }

  async load(): Promise<void> {
    this.listState = 'loading';
    const loaded = await this.accounts.load();
    if (!loaded.ok) return this.listFailed(loaded.error);
    await this.#open();
    if (this.selectedId !== null) await this.loadQuery(this.selectedId);
  }

  /** After the active account changed: its own workspace, with the tabs it had open. */
  async showActiveAccount(): Promise<void> {
    this.selectedId = null;
    this.tabs.items = [];
    this.filter = '';
    this.#details.clear();
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

  /** A tab's title: its query's name, or the scratch tab's. */
  tabName(tabId: number): string {
    if (isScratch(tabId)) return scratchName(tabId);
    return this.#details.get(tabId)?.name ?? this.queries.find((q) => q.id === tabId)?.name ?? `Query #${tabId}`;
  }

  detailOf(queryId: number): QueryDetail | null {
    return this.#details.get(queryId);
  }

  loadOf(queryId: number): DetailLoad {
    return this.#details.loadOf(queryId);
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

  /** A new local SQL tab: DuckDB's SQL over the cached results, on this computer. */
  async newLocalSql(): Promise<void> {
    await this.select(nextLocalSqlId(this.tabs.items.map((t) => t.queryId)), true);
  }

  /** A new scratch tab holding SQL that ran, with that run shown (a run of no query, from the history). */
  async openScratchRun(sql: string, executionId: string): Promise<void> {
    const account = this.account;
    if (!account) return;
    const tabId = nextScratchId(this.tabs.items.map((t) => t.queryId));
    this.scratches.edit(account.id, tabId, sql);
    this.scratches.ran(account.id, tabId, executionId);
    await this.select(tabId, true);
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
      this.#details.setLoad(queryId, 'loading', null);
      const local = await this.api.invoke('workspace:query', { accountId: account.id, queryId });
      if (this.account?.id !== account.id) return;
      if (local.ok && local.data) this.#remember(local.data.query);
    }
    if (this.#details.has(queryId)) this.#details.setLoad(queryId, 'ready', null);
    const answer = await this.api.invoke('queries:get', { accountId: account.id, queryId });
    if (this.account?.id !== account.id) return;
    if (answer.ok) {
      this.#remember(answer.data);
      this.#details.setLoad(queryId, 'ready', null);
    } else if (!this.#details.has(queryId)) {
      this.#details.setLoad(queryId, 'failed', answer.error);
    }
  }

  /** Any query the account may read, listed or not (public queries of others). */
  async openById(queryId: number): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.api.invoke('queries:get', { accountId: account.id, queryId });
    if (answer.ok) {
      this.#show(answer.data);
      return answer;
    }
    // Offline, a query fetched before is still there.
    const local = await this.api.invoke('workspace:query', { accountId: account.id, queryId });
    if (!local.ok || !local.data) return answer;
    this.#show(local.data.query);
    return { ok: true, data: local.data.query };
  }

  async create(fields: Omit<ChannelRequest<'queries:create'>, 'accountId'>): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.api.invoke('queries:create', { accountId: account.id, ...fields });
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
    const answer = await this.api.invoke('queries:save', { accountId: account.id, queryId, baseVersion, edit });
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
    return this.newQueries.keep(account.id, newId, content, later, () => this.account?.id === account.id);
  }

  /** Ends a conflict (or a refused edit): send mine, take theirs, or copy mine to a new query. */
  async resolve(queryId: number, choice: 'mine' | 'theirs' | 'copy'): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.api.invoke('queries:resolvePending', { accountId: account.id, queryId, choice });
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
    const answer = await this.api.invoke('workspace:open', { accountId: account.id });
    if (this.account?.id !== account.id) return;
    if (!answer.ok) return this.listFailed(answer.error);
    this.apply(answer.data, true);
    await this.#restoreTabs(account.id);
  }

  /** The tabs open when the app last closed (or the account was left), each read from disk first. */
  async #restoreTabs(accountId: string): Promise<void> {
    const saved = await this.#savedTabs.read(accountId);
    if (!saved || this.account?.id !== accountId || this.tabs.items.length > 0) return;
    this.tabs.items = saved.tabs;
    if (this.selectedId === null) this.selectedId = saved.active;
    await Promise.all(
      saved.tabs.map((tab) => (isScratch(tab.queryId) ? this.scratches.load(accountId, tab.queryId) : this.loadQuery(tab.queryId))),
    );
  }

  #saveTabs(): void {
    const accountId = this.account?.id;
    if (!accountId) return;
    this.#savedTabs.saveLater(accountId, () => ({ tabs: this.tabs.items, active: this.selectedId }));
  }

  /** A query created or opened by id: in a pinned tab. */
  #show(query: QueryDetail): void {
    this.#remember(query);
    this.#details.setLoad(query.id, 'ready', null);
    this.tabs.open(query.id, true);
    this.selectedId = query.id;
    this.#saveTabs();
    if (!this.queries.some((q) => q.id === query.id)) this.queries = [localOf(query), ...this.queries];
  }

  /** A dialog of a query's header asked for from elsewhere (the list's context menu), opened once the query shows. */
  requestedDialog = $state<{ queryId: number; dialog: 'details' | 'parameters' | 'versions' } | null>(null);

  /** Archives or unarchives, makes private or public: sent at once (offline, the answer says so). */
  async setFlags(queryId: number, flags: { archived?: boolean; isPrivate?: boolean }): Promise<Result<QueryDetail>> {
    const account = this.account;
    if (!account) return { ok: false, error: NO_ACCOUNT };
    const answer = await this.api.invoke('queries:setFlags', { accountId: account.id, queryId, ...flags });
    if (answer.ok && this.account?.id === account.id) this.#remember(answer.data);
    return answer;
  }

  #remember(query: QueryDetail): void {
    this.#details.remember(query);
    this.queries = this.queries.map((q) => (q.id === query.id ? localOf(query, q) : q));
  }
}
