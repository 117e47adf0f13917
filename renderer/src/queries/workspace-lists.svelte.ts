import type { ContractError, Draft, LocalQuery, PendingEdit, SyncState, TableSummary, WorkspaceSnapshot } from '$contract/index.ts';
import type { Accounts } from '../accounts/accounts.svelte.ts';
import type { Drafts } from '../editor/drafts.svelte.ts';
import type { Api } from '../lib/bridge.ts';
import { NewQueryDrafts } from './new-query-drafts.svelte.ts';
import type { LoadState } from './query-details.svelte.ts';
import { searchQueries } from './search.ts';

/**
 * The active account's lists as main keeps them on disk (queries, tables, pending edits, new
 * queries' drafts, sync state): shown at once, then refreshed from the service when it answers
 * (main sends what changed as events).
 */
export class WorkspaceLists {
  protected readonly api: Api;
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
  protected readonly newQueries: NewQueryDrafts;

  /** The queries the filter finds (by name, tag or SQL), with the SQL line that matched. */
  matches = $derived(searchQueries(this.queries, this.filter));
  visibleQueries = $derived(this.matches.map((match) => match.query));

  constructor(api: Api, accounts: Accounts, drafts: Drafts) {
    this.api = api;
    this.accounts = accounts;
    this.drafts = drafts;
    this.newQueries = new NewQueryDrafts(api);
    api.on('workspace:changed', (snapshot) => {
      if (snapshot.accountId === this.account?.id) this.apply(snapshot, false);
    });
    api.on('workspace:sync', (state) => {
      if (state.accountId === this.account?.id) this.sync = state;
    });
  }

  /** New queries not created yet: an unfinished New query form, or ones waiting for the service. */
  get newDrafts(): Draft[] {
    return this.newQueries.drafts;
  }

  /** Try again now: the button, or the network came back. */
  async refresh(): Promise<void> {
    const account = this.account;
    if (!account) return;
    const answer = await this.api.invoke('workspace:refresh', { accountId: account.id });
    if (answer.ok && this.account?.id === account.id) this.sync = answer.data;
  }

  pendingOf(queryId: number): PendingEdit | null {
    return this.pending.find((edit) => edit.queryId === queryId) ?? null;
  }

  protected apply(snapshot: WorkspaceSnapshot, opened: boolean): void {
    this.queries = snapshot.queries;
    this.queriesFetchedAt = snapshot.queriesFetchedAt;
    this.tables = snapshot.tables;
    this.pending = snapshot.pending;
    this.newQueries.drafts = snapshot.drafts.filter((draft) => 'newId' in draft.key);
    this.sync = snapshot.sync;
    if (opened) this.drafts.adopt(snapshot.accountId, snapshot.drafts);
    this.listError = null;
    this.listState = 'ready';
  }

  protected listFailed(error: ContractError): void {
    this.listError = error;
    this.listState = 'failed';
  }
}
