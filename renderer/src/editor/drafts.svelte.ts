import { SvelteMap } from 'svelte/reactivity';
import type { Draft, ParameterValues } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import type { LaterWrites } from '../lib/later-writes.ts';

/** Typing is sent to main at most this often; main has it on disk before it answers. */
const SAVE_DELAY_MS = 300;

function keyOf(accountId: string, queryId: number): string {
  return `${accountId}\u0000${queryId}`;
}

interface Held {
  sql: string;
  values: ParameterValues | null;
  baseVersion: number | null;
  /** The SQL differs from the saved SQL: parameter values alone are no edit of the query. */
  sqlEdited: boolean;
}

/**
 * Unsaved editor text and parameter values, per query of each account. Kept here for the UI and
 * on disk by main (within a second of typing, and at once as the window closes or its host
 * stops), so neither moving to another query nor a restart or a crash loses an edit.
 */
export class Drafts {
  readonly #api: Api;
  readonly #later: LaterWrites;
  readonly #held = new SvelteMap<string, Held>();

  constructor(api: Api, later: LaterWrites) {
    this.#api = api;
    this.#later = later;
  }

  /** The drafts main had on disk for an account (at start, or after switching to it). */
  adopt(accountId: string, drafts: Draft[]): void {
    for (const key of [...this.#held.keys()]) if (key.startsWith(`${accountId}\u0000`)) this.#held.delete(key);
    for (const draft of drafts) {
      if ('queryId' in draft.key)
        this.#held.set(keyOf(accountId, draft.key.queryId), {
          sql: draft.sql,
          values: Object.keys(draft.parameterValues).length > 0 ? draft.parameterValues : null,
          baseVersion: draft.baseVersion,
          sqlEdited: draft.sqlEdited ?? true,
        });
    }
  }

  /** The draft's text, when it differs from `saved`. */
  sql(accountId: string, queryId: number, saved: string): string | undefined {
    const held = this.#held.get(keyOf(accountId, queryId));
    return held && held.sql !== saved ? held.sql : undefined;
  }

  /** Whether the query has unsaved SQL (compared with what is saved, or waiting to be). */
  isDirty(accountId: string, queryId: number, saved: string): boolean {
    return this.sql(accountId, queryId, saved) !== undefined;
  }

  /** Unsaved SQL, for the list's marker (the saved text is not at hand there). */
  hasSqlEdit(accountId: string, queryId: number): boolean {
    return this.#held.get(keyOf(accountId, queryId))?.sqlEdited ?? false;
  }

  values(accountId: string, queryId: number): ParameterValues | null {
    return this.#held.get(keyOf(accountId, queryId))?.values ?? null;
  }

  /** Text equal to the saved SQL, with no values of its own, is no draft: main forgets it. */
  setSql(accountId: string, queryId: number, text: string, saved: string, baseVersion: number): void {
    const held = this.#held.get(keyOf(accountId, queryId));
    this.#put(accountId, queryId, { sql: text, values: held?.values ?? null, baseVersion, sqlEdited: text !== saved }, saved);
  }

  /** `null`: the values are the query's defaults again. */
  setValues(accountId: string, queryId: number, values: ParameterValues | null, saved: string, baseVersion: number): void {
    const held = this.#held.get(keyOf(accountId, queryId));
    const sql = held?.sql ?? saved;
    this.#put(accountId, queryId, { sql, values, baseVersion, sqlEdited: sql !== saved }, saved);
  }

  /** After a save: only what was sent is no longer a draft (typing may have gone on meanwhile). */
  saved(accountId: string, queryId: number, sent: string, saved: string, baseVersion: number): void {
    const held = this.#held.get(keyOf(accountId, queryId));
    if (!held) return;
    const sql = held.sql === sent ? saved : held.sql;
    this.#put(accountId, queryId, { ...held, sql, baseVersion, sqlEdited: sql !== saved }, saved);
  }

  discardSql(accountId: string, queryId: number, saved: string): void {
    const held = this.#held.get(keyOf(accountId, queryId));
    if (held) this.#put(accountId, queryId, { ...held, sql: saved, sqlEdited: false }, saved);
  }

  #put(accountId: string, queryId: number, held: Held, saved: string): void {
    const key = keyOf(accountId, queryId);
    const empty = held.sql === saved && held.values === null;
    if (empty) this.#held.delete(key);
    else this.#held.set(key, held);
    this.#later.schedule(`draft\u0000${key}`, SAVE_DELAY_MS, () => {
      void (empty
        ? this.#api.invoke('workspace:discardDraft', { accountId, key: { queryId } })
        : this.#api.invoke('workspace:saveDraft', {
            accountId,
            draft: {
              key: { queryId },
              sql: held.sql,
              parameterValues: held.values ?? {},
              baseVersion: held.baseVersion,
              sqlEdited: held.sqlEdited,
            },
          }));
    });
  }
}
