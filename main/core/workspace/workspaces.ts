import type { Draft, DraftKey, PendingEdit, QueryDetail, SyncState, TableSummary, WorkspaceSnapshot } from '../../contract/index.ts';
import { keyProblemOf } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { toQueryDetail } from '../queries/query-detail.ts';
import { isNetworkFailure, type ClientResult, type QueryListItem, type ServiceClient, type ServiceError } from '../service-client/index.ts';
import { accountDir, removeAccountDir } from './account-dirs.ts';
import { AccountSync, type Reach } from './account-sync.ts';
import { mergeCatalog, withDetail } from './catalog-merge.ts';
import { LocalStore } from './local-store.ts';
import { contractError, sendEdit } from './pending-edits.ts';

// Every account's local workspace: what the window shows first, kept on disk, and refreshed from
// the service when it answers (the list, the tables, then the edits waiting to be sent).

export interface WorkspacesOptions {
  dir: string;
  accounts: AccountRegistry;
  /** Sends `workspace:changed` and `workspace:sync` to the window. */
  onChanged: (snapshot: WorkspaceSnapshot) => void;
  onSync: (state: SyncState) => void;
  /** A save met a newer version on the service, from the window or sent in the background. */
  onConflict?: (accountId: string, pending: PendingEdit) => void;
  /** The account's tables as listed for the window. */
  readTables: (accountId: string, client: ServiceClient) => Promise<ClientResult<TableSummary[]>>;
  now?: () => Date;
}

const LIST_PAGE = 100;
// Details fetched per refresh for the list's SQL search; the rest come with the next refreshes.
const DETAILS_PER_REFRESH = 50;

async function listAllQueries(client: ServiceClient): Promise<ClientResult<QueryListItem[]>> {
  const queries: QueryListItem[] = [];
  for (;;) {
    const page = await client.queries.list({ limit: LIST_PAGE, offset: queries.length });
    if (!page.ok) return page;
    queries.push(...page.data.queries);
    if (page.data.queries.length === 0 || queries.length >= page.data.total) return { ok: true, data: queries };
  }
}

/** How a failure reads as the service's reachability: only a network failure means offline. */
export function reachOf(error: ServiceError | null): Reach {
  if (error === null || !(isNetworkFailure(error) || error.kind === 'bad_key')) return { status: 'online' };
  return { status: error.kind === 'bad_key' ? 'key_refused' : 'offline', reason: error.message };
}

export class Workspaces {
  readonly #options: WorkspacesOptions;
  readonly #now: () => Date;
  readonly #stores = new Map<string, LocalStore>();
  readonly #syncs = new Map<string, AccountSync>();

  constructor(options: WorkspacesOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
  }

  store(accountId: string): LocalStore {
    let store = this.#stores.get(accountId);
    if (!store) {
      store = new LocalStore(accountDir(this.#options.dir, accountId));
      this.#stores.set(accountId, store);
    }
    return store;
  }

  snapshot(accountId: string): WorkspaceSnapshot {
    const store = this.store(accountId);
    const catalog = store.catalog();
    const tables = store.tables();
    return {
      accountId,
      queries: catalog.queries,
      queriesFetchedAt: catalog.fetchedAt,
      tables: tables.tables,
      tablesFetchedAt: tables.fetchedAt,
      drafts: store.drafts(),
      pending: store.pending(),
      sync: this.#sync(accountId).state,
    };
  }

  /** From disk at once; the refresh goes on in the background. */
  open(accountId: string): WorkspaceSnapshot {
    const snapshot = this.snapshot(accountId);
    void this.#sync(accountId).refresh();
    return snapshot;
  }

  refresh(accountId: string): Promise<SyncState> {
    return this.#sync(accountId).refresh();
  }

  networkBack(): void {
    for (const sync of this.#syncs.values()) sync.networkBack();
  }

  /** What a call made for the user found: an open workspace's state follows it. */
  observe(accountId: string, error: ServiceError | null): void {
    this.#syncs.get(accountId)?.observe(reachOf(error));
  }

  recordQuery(accountId: string, query: QueryDetail, addToList: boolean): void {
    const store = this.store(accountId);
    store.writeQuery(query, this.#now().toISOString());
    const catalog = store.catalog();
    const queries = withDetail(catalog.queries, query, addToList);
    if (queries !== catalog.queries) store.writeCatalog({ ...catalog, queries });
  }

  recordList(accountId: string, listed: QueryListItem[]): void {
    const store = this.store(accountId);
    const kept = new Set([
      ...store.pending().map((edit) => edit.queryId),
      ...store.drafts().flatMap((draft) => ('queryId' in draft.key ? [draft.key.queryId] : [])),
    ]);
    store.writeCatalog({ queries: mergeCatalog(store.catalog().queries, listed, kept), fetchedAt: this.#now().toISOString() });
  }

  recordTables(accountId: string, tables: TableSummary[]): void {
    this.store(accountId).writeTables(tables, this.#now().toISOString());
  }

  saveDraft(accountId: string, draft: Omit<Draft, 'updatedAt'>): string {
    const updatedAt = this.#now().toISOString();
    this.store(accountId).writeDraft({ ...draft, updatedAt });
    return updatedAt;
  }

  discardDraft(accountId: string, key: DraftKey): void {
    this.store(accountId).removeDraft(key);
  }

  pendingOf(accountId: string, queryId: number): PendingEdit | undefined {
    return this.store(accountId)
      .pending()
      .find((edit) => edit.queryId === queryId);
  }

  /** Puts (or replaces) the query's edit waiting to be sent; null removes it. */
  setPending(accountId: string, queryId: number, edit: PendingEdit | null): void {
    const store = this.store(accountId);
    const others = store.pending().filter((p) => p.queryId !== queryId);
    const was = store.pending().find((p) => p.queryId === queryId);
    store.writePending(edit === null ? others : [...others, edit]);
    if (edit?.state === 'conflict' && was?.state !== 'conflict') this.#options.onConflict?.(accountId, edit);
  }

  /** Tells the window what changed on disk. */
  changed(accountId: string): void {
    if (this.#syncs.has(accountId)) this.#options.onChanged(this.snapshot(accountId));
  }

  /** The account is gone: its timers stop and its folder goes, and nothing else. */
  async forget(accountId: string): Promise<void> {
    this.#syncs.get(accountId)?.dispose();
    this.#syncs.delete(accountId);
    this.#stores.delete(accountId);
    await removeAccountDir(this.#options.dir, accountId);
  }

  dispose(): void {
    for (const sync of this.#syncs.values()) sync.dispose();
    this.#syncs.clear();
  }

  #sync(accountId: string): AccountSync {
    let sync = this.#syncs.get(accountId);
    if (!sync) {
      sync = new AccountSync({
        accountId,
        attempt: () => this.#attempt(accountId),
        onChange: (state) => {
          this.#options.onSync(state);
          // After each attempt, the window gets what it refreshed, with the state it ended in.
          if (state.status !== 'checking') this.changed(accountId);
        },
        now: this.#now,
      });
      this.#syncs.set(accountId, sync);
    }
    return sync;
  }

  /** One refresh: the list, the tables, then the waiting edits, stopping at the first network failure. */
  async #attempt(accountId: string): Promise<Reach> {
    const entry = this.#options.accounts.get(accountId);
    if (entry === null) return { status: 'offline', reason: 'The account was removed.' };
    if (entry.client === null) return { status: 'key_refused', reason: keyProblemOf(entry).message };
    const { client } = entry;
    const listed = await listAllQueries(client);
    if (!listed.ok && reachOf(listed.error).status !== 'online') return reachOf(listed.error);
    if (listed.ok) this.recordList(accountId, listed.data);
    const tables = await this.#options.readTables(accountId, client);
    if (!tables.ok && reachOf(tables.error).status !== 'online') return reachOf(tables.error);
    if (tables.ok) this.recordTables(accountId, tables.data);
    const sent = await this.#sendWaiting(accountId, client);
    const created = sent.status === 'online' ? await this.#createWaiting(accountId, client) : sent;
    if (created.status !== 'online') return created;
    // the list is shown now; the SQL for its search follows
    this.changed(accountId);
    return this.#fetchDetails(accountId, client);
  }

  /**
   * The SQL of listed queries whose detail is not on disk yet (or changed since), so that the
   * list's search finds text in the SQL offline too; a batch per refresh, written at once.
   */
  async #fetchDetails(accountId: string, client: ServiceClient): Promise<Reach> {
    const store = this.store(accountId);
    const missing = store
      .catalog()
      .queries.filter((query) => !query.isGone && query.sql == null)
      .slice(0, DETAILS_PER_REFRESH);
    const fetched: QueryDetail[] = [];
    let reach: Reach = { status: 'online' };
    for (const query of missing) {
      const read = await client.queries.get(query.id);
      if (!read.ok && isNetworkFailure(read.error)) {
        reach = reachOf(read.error);
        break;
      }
      if (read.ok) fetched.push(toQueryDetail(read.data));
    }
    if (fetched.length > 0) {
      const now = this.#now().toISOString();
      let { queries } = store.catalog();
      for (const query of fetched) {
        store.writeQuery(query, now);
        queries = withDetail(queries, query, false);
      }
      store.writeCatalog({ ...store.catalog(), queries });
    }
    return reach;
  }

  /** New queries the user asked to create while offline, oldest first. */
  async #createWaiting(accountId: string, client: ServiceClient): Promise<Reach> {
    const store = this.store(accountId);
    const waiting = store
      .drafts()
      .filter((draft) => 'newId' in draft.key && draft.createWhenOnline === true)
      .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    for (const draft of waiting) {
      const created = await client.queries.create({ name: draft.name?.trim() || 'Untitled query', querySql: draft.sql });
      const read = created.ok ? await client.queries.get(created.data) : created;
      if (!read.ok && isNetworkFailure(read.error)) return reachOf(read.error);
      if (read.ok) {
        this.recordQuery(accountId, toQueryDetail(read.data), true);
        store.removeDraft(draft.key);
      } else {
        store.writeDraft({ ...draft, createWhenOnline: false, refusal: read.error.message });
      }
    }
    return { status: 'online' };
  }

  async #sendWaiting(accountId: string, client: ServiceClient): Promise<Reach> {
    const waiting = this.store(accountId)
      .pending()
      .filter((edit) => edit.state === 'waiting')
      .sort((a, b) => a.savedAt.localeCompare(b.savedAt));
    for (const edit of waiting) {
      const outcome = await sendEdit(client, edit.queryId, edit.baseVersion, edit.edit);
      if (outcome.kind === 'unreachable') return reachOf(outcome.error);
      if (outcome.kind === 'saved') {
        this.setPending(accountId, edit.queryId, null);
        this.recordQuery(accountId, outcome.query, false);
      } else if (outcome.kind === 'conflict') {
        this.setPending(accountId, edit.queryId, { ...edit, state: 'conflict', theirs: outcome.theirs });
      } else {
        this.setPending(accountId, edit.queryId, { ...edit, state: 'refused', error: contractError(outcome.error) });
      }
    }
    return { status: 'online' };
  }
}
