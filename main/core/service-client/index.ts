import { createExecutionsApi, type ExecutionsApi } from './executions.ts';
import { createQueriesApi, type QueriesApi } from './queries.ts';
import { createTransport, type ServiceConnection } from './request.ts';
import { createResultsApi, type ResultsApi } from './results.ts';
import { createTablesApi, type TablesApi } from './tables.ts';

// A client for one account of the service, one sub-API per resource as the official clients do.

export interface ServiceClient {
  executions: ExecutionsApi;
  results: ResultsApi;
  queries: QueriesApi;
  tables: TablesApi;
}

export function createServiceClient(connection: ServiceConnection): ServiceClient {
  const transport = createTransport(connection);
  return {
    executions: createExecutionsApi(transport),
    results: createResultsApi(transport),
    queries: createQueriesApi(transport),
    tables: createTablesApi(transport),
  };
}

export type { Fetch, FetchedResponse, ServiceConnection } from './request.ts';
export type { ClientResult, ServiceError, ServiceErrorKind } from './errors.ts';
export { isNetworkFailure } from './errors.ts';
export type { ExecutionFailure, ResultMetadata } from './execution-shape.ts';
export type { ExecuteArgs, ExecuteResponse, ExecutionStatus } from './executions.ts';
export type { ResultsPage, ResultsPageArgs } from './results.ts';
export type { ResultView } from './result-view.ts';
export type { CsvPage, CsvPagesArgs, CsvPageStreamArgs, PageFormat, StreamedCsvPage } from './results-csv.ts';
export type { BodyConsumer } from './request.ts';
export type { RetryPolicy } from './retry-policy.ts';
export type {
  NewQueryArgs,
  ParameterDefinitionInput,
  QueryChanges,
  QueryListItem,
  QueryParameterDefinition,
  QueryRecord,
} from './queries.ts';
export type { CreateTableArgs, CsvUploadArgs, TableListItem } from './tables.ts';
