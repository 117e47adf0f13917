import type { ContractError, ExecutionListItem } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

const LIMIT = 100;

/** The executions this app started for the active account, newest first, as main remembers them. */
export class RunHistory {
  readonly #api: Api;
  records = $state.raw<ExecutionListItem[]>([]);
  error = $state.raw<ContractError | null>(null);
  #accountId: string | null = null;

  constructor(api: Api) {
    this.#api = api;
  }

  forQuery(queryId: number): ExecutionListItem[] {
    return this.records.filter((record) => record.queryId === queryId);
  }

  async refresh(accountId: string): Promise<void> {
    if (this.#accountId !== accountId) this.records = [];
    this.#accountId = accountId;
    const answer = await this.#api.invoke('executions:list', { accountId, limit: LIMIT });
    if (this.#accountId !== accountId) return;
    if (answer.ok) {
      this.records = answer.data.executions;
      this.error = null;
    } else {
      this.error = answer.error;
    }
  }
}
