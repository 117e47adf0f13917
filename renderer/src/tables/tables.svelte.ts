import { sqlTableName, type ContractError, type TableSummary } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';
import type { LoadState } from '../queries/query-details.svelte.ts';

/** The tables of one account, as the service lists them. */
export class TablesList {
  readonly #api: Api;
  items = $state.raw<TableSummary[]>([]);
  state = $state<LoadState>('loading');
  error = $state.raw<ContractError | null>(null);
  #accountId: string | null = null;
  /** The handle the service answered with the list: it names the tables before the first is made. */
  handle = $state<string | null>(null);
  /** `dune.<handle>`, as the service names this account's tables; null until the service tells. */
  prefix = $derived(this.items[0]?.fullName.split('.').slice(0, -1).join('.') ?? (this.handle === null ? null : `dune.${this.handle}`));

  constructor(api: Api) {
    this.#api = api;
  }

  async load(accountId: string): Promise<void> {
    if (this.#accountId !== accountId) {
      this.items = [];
      this.handle = null;
      this.state = 'loading';
    }
    this.#accountId = accountId;
    const answer = await this.#api.invoke('tables:list', { accountId });
    if (this.#accountId !== accountId) return;
    if (answer.ok) {
      this.items = answer.data.tables;
      this.handle = answer.data.handle;
      this.error = null;
      this.state = 'ready';
    } else {
      this.error = answer.error;
      this.state = 'failed';
    }
  }

  /** The table an upload named `name` goes to, `….dataset_<name>`: not one of the bare name, which it leaves alone. */
  byUploadName(name: string): TableSummary | null {
    const suffix = `.${sqlTableName(name)}`;
    return this.items.find((table) => table.fullName.endsWith(suffix)) ?? null;
  }

  async remove(accountId: string, fullName: string): Promise<ContractError | null> {
    const answer = await this.#api.invoke('tables:delete', { accountId, fullName });
    if (!answer.ok) return answer.error;
    await this.load(accountId);
    return null;
  }
}
