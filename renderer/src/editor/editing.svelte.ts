import type { ContractError, QueryDetail } from '../../../main/contract/index.ts';
import { Drafts } from './drafts.svelte.ts';
import type { Workspace } from '../queries/workspace.svelte.ts';

/** Editing the selected query's SQL: its draft, and saving it (a PATCH of the SQL alone). */
export class Editing {
  readonly #workspace: Workspace;
  readonly drafts = new Drafts();
  saving = $state(false);
  /** The last save's refusal, for the query it concerns. */
  failure = $state.raw<{ accountId: string; queryId: number; error: ContractError } | null>(null);

  constructor(workspace: Workspace) {
    this.#workspace = workspace;
  }

  sqlOf(accountId: string, query: QueryDetail): string {
    return this.drafts.get(accountId, query.id) ?? query.sql;
  }

  edit(accountId: string, query: QueryDetail, text: string): void {
    this.drafts.set(accountId, query.id, text, query.sql);
  }

  errorFor(accountId: string | undefined, queryId: number | null): ContractError | null {
    const failure = this.failure;
    return failure && failure.accountId === accountId && failure.queryId === queryId ? failure.error : null;
  }

  async save(): Promise<void> {
    const accountId = this.#workspace.account?.id;
    const query = this.#workspace.detail;
    if (!accountId || !query || this.saving) return;
    const sql = this.drafts.get(accountId, query.id);
    if (sql === undefined) return;
    this.saving = true;
    const answer = await this.#workspace.save(query.id, { sql });
    this.saving = false;
    if (!answer.ok) {
      this.failure = { accountId, queryId: query.id, error: answer.error };
      return;
    }
    this.failure = null;
    // Typing may have gone on while it saved: only what was sent is no longer a draft.
    const now = this.drafts.get(accountId, query.id);
    if (now !== undefined) this.drafts.set(accountId, query.id, now, answer.data.sql);
  }
}
