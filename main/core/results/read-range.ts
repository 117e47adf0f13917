import { isPartialRefusalText } from '../../common/dune-states.ts';
import { fail, ok, type Result, type ResultPage } from '../../contract/index.ts';
import { noResultText } from '../executions/states.ts';
import { serviceFailure } from '../failures.ts';
import type { ResultMetadata, ResultsPage, ResultView, ServiceClient, ServiceError } from '../service-client/index.ts';
import type { JsonObject } from '../service-client/wire-read.ts';
import { toCell } from './cells.ts';
import { positionOf } from './view.ts';

// Rows [startRow, endRow) of an execution's result, as the grid asks for them. The service may
// lower `limit`; the range is then completed from the pages that follow, so the grid never
// mistakes a short page for the end of the result. A truncated (partial) result is read only
// when the request allows it: the user has to agree to see an incomplete result.

export interface RowRangeRequest {
  executionId: string;
  startRow: number;
  endRow: number;
  allowPartial: boolean;
  view?: ResultView;
}

const PARTIAL_STATE = 'QUERY_STATE_COMPLETED_PARTIAL';
const PARTIAL_MESSAGE =
  'This result is partial: the service cut it short because it was too large, so rows are missing at its end. Read it anyway only if an incomplete result will do.';

export async function readRowRange(client: ServiceClient, range: RowRangeRequest): Promise<Result<ResultPage>> {
  const { executionId, startRow, endRow, allowPartial, view } = range;
  const wanted = endRow - startRow;
  const rows: JsonObject[] = [];
  let metadata: ResultMetadata | null = null;
  let state = '';
  let offset = startRow;
  while (rows.length < wanted) {
    const read = await client.results.page({ executionId, offset, limit: wanted - rows.length, allowPartialResults: allowPartial, view });
    if (!read.ok) return isPartialRefusal(read.error) ? partialFailure(read.error.message) : refusal(read.error);
    const page = read.data;
    // A lenient service may serve it without the flag: the rule is the app's, not only the service's.
    if (page.state === PARTIAL_STATE && !allowPartial) return partialFailure(null);
    if (page.rows === null) return fail('bad_request', noResultMessage(page));
    metadata ??= page.metadata;
    state = page.state;
    rows.push(...page.rows);
    // A next offset that does not move forward would loop forever: treat it as the end.
    if (page.nextOffset === null || page.nextOffset <= offset || page.rows.length === 0) break;
    offset = page.nextOffset;
  }
  const kept = rows.slice(0, wanted);
  const names = metadata?.columnNames ?? Object.keys(kept[0] ?? {});
  const types = metadata?.columnTypes ?? [];
  return ok({
    columns: names.map((name, index) => ({ name, type: types[index] ?? 'unknown' })),
    rows: kept.map((row) => names.map((name) => toCell(row[name]))),
    startRow,
    totalRowCount: metadata?.totalRowCount ?? startRow + kept.length,
    isPartial: state === PARTIAL_STATE,
  });
}

/** A refusal of the view keeps the part and position the service named, as the cache's own refusals do. */
export function refusal(error: ServiceError) {
  const position = error.kind === 'bad_request' ? positionOf(error.message) : undefined;
  return position === undefined ? serviceFailure(error) : fail('bad_request', error.message, position);
}

/** Dune's refusal to send a partial result the request did not allow (PARTIAL_REFUSAL). */
export function isPartialRefusal(error: ServiceError): boolean {
  return error.kind === 'bad_request' && isPartialRefusalText(error.message);
}

export function partialFailure(serviceMessage: string | null) {
  return fail('partial_result', PARTIAL_MESSAGE, serviceMessage === null ? undefined : { serviceMessage });
}

function noResultMessage(page: ResultsPage): string {
  if (page.error !== null) return `The execution has no result: ${page.error.message}`;
  return noResultText('read', page.state);
}
