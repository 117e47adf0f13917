import type { AccountStore, Plan } from './accounts/account-store.ts';
import type { ExecutionStore } from './executions/execution-store.ts';
import type { Executor } from './executions/executor.ts';
import type { PlanLimits, ServiceBudget } from './executions/plan-limits.ts';
import type { QueryStore } from './queries/query-store.ts';
import type { ResultStore } from './results/result-store.ts';
import type { TableData } from './tables/table-data.ts';
import type { TableStore } from './tables/table-store.ts';

export interface ServiceConfig {
  /** The word in `X-<NAME>-API-KEY` and the other header names. */
  serviceName: string;
  maxPageRows: number;
  executionSlots: number;
  waitingExecutions: number;
  runningExecutions: number;
  /** Whether one more may run for a context that runs nothing while the others hold every slot. */
  newcomerSlot: boolean;
  retentionMillis: number;
  plans: Record<Plan, PlanLimits>;
  /** What the executions of all contexts may take together. */
  total: ServiceBudget;
  rateLimit: boolean;
  /** How long a request body may send nothing, or a trickle, before it is refused (see body-chunks.ts). */
  bodyIdleMillis: number;
  /** Where uploads wait while DuckDB reads them. */
  tempDir: string;
}

/**
 * The stores and the executor every route needs, built once at start. (A "context" in the service
 * is a tenant, see ServiceAccount: this is not one.)
 */
export interface ServiceDeps {
  config: ServiceConfig;
  accounts: AccountStore;
  queries: QueryStore;
  executions: ExecutionStore;
  results: ResultStore;
  executor: Executor;
  tables: TableStore;
  tableData: TableData;
  /** `text` with every host folder shown as `<hidden>`: for errors that quote a file of the service. */
  hidePaths(text: string): string;
}
