import type { ContractError, PendingEdit, QueryDetail } from '$contract/index.ts';
import type { Workspace } from '../queries/workspace.svelte.ts';
import type { Drafts } from './drafts.svelte.ts';

/**
 * Editing the selected query's SQL: its draft, and saving it. The SQL a draft is compared with is
 * the edit waiting to be sent when there is one (saved offline), else the service's.
 */
export class Editing {
  readonly #workspace: Workspace;
  readonly drafts: Drafts;
  saving = $state(false);
  /** The last save's refusal, for the query it concerns. */
  failure = $state.raw<{ accountId: string; queryId: number; error: ContractError } | null>(null);

  constructor(workspace: Workspace) {
    this.#workspace = workspace;
    this.drafts = workspace.drafts;
  }

  /** The SQL as saved: on the service, or on this computer waiting to be sent. */
  savedSql(query: QueryDetail): string {
    return this.pendingOf(query)?.edit.sql ?? query.sql;
  }

  pendingOf(query: QueryDetail): PendingEdit | null {
    return this.#workspace.pendingOf(query.id);
  }

  sqlOf(accountId: string, query: QueryDetail): string {
    const saved = this.savedSql(query);
    return this.drafts.sql(accountId, query.id, saved) ?? saved;
  }

  isDirty(accountId: string, query: QueryDetail): boolean {
    return this.drafts.isDirty(accountId, query.id, this.savedSql(query));
  }

  edit(accountId: string, query: QueryDetail, text: string): void {
    this.drafts.setSql(accountId, query.id, text, this.savedSql(query), query.version);
  }

  /** Drops the unsaved SQL of a query (its tab closed with Don't save). */
  discard(accountId: string, query: QueryDetail): void {
    this.drafts.discardSql(accountId, query.id, this.savedSql(query));
  }

  errorFor(accountId: string | undefined, queryId: number | null): ContractError | null {
    const failure = this.failure;
    return failure && failure.accountId === accountId && failure.queryId === queryId ? failure.error : null;
  }

  /** Saves the query shown, or the one given (a tab closed with Save). */
  async save(queryId: number | null = this.#workspace.selectedId): Promise<void> {
    const accountId = this.#workspace.account?.id;
    const query = queryId === null ? null : this.#workspace.detailOf(queryId);
    if (!accountId || !query || this.saving) return;
    const saved = this.savedSql(query);
    const sql = this.drafts.sql(accountId, query.id, saved);
    if (sql === undefined) return;
    // An edit waiting to be sent was made from its own base version: stay on it.
    const baseVersion = this.pendingOf(query)?.baseVersion ?? query.version;
    this.saving = true;
    const answer = await this.#workspace.save(query.id, baseVersion, { sql });
    this.saving = false;
    if (!answer.ok) {
      this.failure = { accountId, queryId: query.id, error: answer.error };
      return;
    }
    this.failure = null;
    const outcome = answer.data;
    const nowSaved = outcome.status === 'saved' ? outcome.query.sql : (outcome.pending.edit.sql ?? saved);
    const version = outcome.status === 'saved' ? outcome.query.version : query.version;
    this.drafts.saved(accountId, query.id, sql, nowSaved, version);
  }
}
