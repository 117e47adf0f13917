function keyOf(accountId: string, queryId: number): string {
  return `${accountId}\u0000${queryId}`;
}

/** Unsaved SQL, one draft per query of each account, so moving to another query never loses an edit. */
export class Drafts {
  #sql = $state.raw<ReadonlyMap<string, string>>(new Map());

  get(accountId: string, queryId: number): string | undefined {
    return this.#sql.get(keyOf(accountId, queryId));
  }

  has(accountId: string, queryId: number): boolean {
    return this.#sql.has(keyOf(accountId, queryId));
  }

  /** Text equal to the saved SQL is no draft: undoing back to it clears the dirty marker. */
  set(accountId: string, queryId: number, text: string, saved: string): void {
    const key = keyOf(accountId, queryId);
    if (text === saved) {
      if (this.#sql.has(key)) this.discard(accountId, queryId);
      return;
    }
    this.#sql = new Map(this.#sql).set(key, text);
  }

  discard(accountId: string, queryId: number): void {
    const next = new Map(this.#sql);
    next.delete(keyOf(accountId, queryId));
    this.#sql = next;
  }
}
