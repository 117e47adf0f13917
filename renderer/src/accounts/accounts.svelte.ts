import type { Account, ChannelRequest, ContractError, KeychainStatus, Result } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

export type AccountInput = ChannelRequest<'accounts:add'>;
export type AccountChanges = Omit<ChannelRequest<'accounts:update'>, 'accountId'>;

/** The accounts main knows, which one is active, and whether keys can be kept in the keychain. */
export class Accounts {
  readonly #api: Api;
  list = $state.raw<Account[]>([]);
  activeId = $state<string | null>(null);
  keychain = $state.raw<KeychainStatus | null>(null);
  active = $derived(this.list.find((account) => account.id === this.activeId) ?? this.list[0] ?? null);

  constructor(api: Api) {
    this.#api = api;
  }

  /** Whether the account is the embedded Local service. */
  isLocal(accountId: string): boolean {
    return this.list.find((account) => account.id === accountId)?.isLocal ?? false;
  }

  async load(): Promise<Result<Account | null>> {
    const answer = await this.#api.invoke('accounts:list', {});
    if (!answer.ok) return answer;
    this.list = answer.data.accounts;
    this.activeId = answer.data.activeAccountId;
    this.keychain = answer.data.keychain;
    return { ok: true, data: this.active };
  }

  async add(input: AccountInput): Promise<Result<Account>> {
    const answer = await this.#api.invoke('accounts:add', input);
    if (answer.ok) this.list = [...this.list, answer.data];
    return answer;
  }

  async update(accountId: string, changes: AccountChanges): Promise<Result<Account>> {
    const answer = await this.#api.invoke('accounts:update', { accountId, ...changes });
    if (answer.ok) this.list = this.list.map((account) => (account.id === accountId ? answer.data : account));
    return answer;
  }

  async remove(accountId: string): Promise<Result<unknown>> {
    const answer = await this.#api.invoke('accounts:remove', { accountId });
    if (!answer.ok) return answer;
    this.list = this.list.filter((account) => account.id !== accountId);
    this.activeId = answer.data.activeAccountId;
    return answer;
  }

  test(accountId: string): Promise<Result<{ latencyMs: number; handle: string | null }>> {
    return this.#api.invoke('accounts:test', { accountId });
  }

  async setActive(accountId: string): Promise<ContractError | null> {
    const answer = await this.#api.invoke('accounts:setActive', { accountId });
    if (!answer.ok) return answer.error;
    this.activeId = answer.data.activeAccountId;
    return null;
  }
}
