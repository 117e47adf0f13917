import type { Draft, Result } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

/** New queries not created yet: an unfinished New query form, or ones waiting for the service. */
export class NewQueryDrafts {
  readonly #api: Api;
  drafts = $state.raw<Draft[]>([]);
  /** How many times each new query's draft was kept or dropped, so a slow answer cannot undo a later call. */
  readonly #calls = new Map<string, number>();

  constructor(api: Api) {
    this.#api = api;
  }

  /**
   * Keeps a new query's form on disk (`later`: to be created as soon as the service answers);
   * null content removes it. `stillShown`: whether the account is still the one shown when main answers.
   */
  async keep(
    accountId: string,
    newId: string,
    content: { name: string; sql: string } | null,
    later: boolean,
    stillShown: () => boolean,
  ): Promise<Result<unknown>> {
    const key = { newId };
    const others = () => this.drafts.filter((d) => !('newId' in d.key && d.key.newId === newId));
    // Main stores the calls in their order; only the last one's answer may change what is shown.
    const call = (this.#calls.get(newId) ?? 0) + 1;
    this.#calls.set(newId, call);
    if (content === null) {
      this.drafts = others();
      return this.#api.invoke('workspace:discardDraft', { accountId, key });
    }
    const draft = { key, name: content.name, sql: content.sql, parameterValues: {}, baseVersion: null, createWhenOnline: later };
    const answer = await this.#api.invoke('workspace:saveDraft', { accountId, draft });
    const latest = this.#calls.get(newId) === call;
    if (answer.ok && latest && stillShown()) this.drafts = [...others(), { ...draft, updatedAt: answer.data.updatedAt }];
    return answer;
  }
}
