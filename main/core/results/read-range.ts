import { fail, ok, type Result, type ResultPage } from '../../contract/index.ts';
import { serviceFailure } from '../failures.ts';
import type { ResultMetadata, ResultsPage, ServiceClient } from '../service-client/index.ts';
import type { JsonObject } from '../service-client/wire-read.ts';
import { toCell } from './cells.ts';

// Rows [startRow, endRow) of an execution's result, as the grid asks for them. The service may
// lower `limit`; the range is then completed from the pages that follow, so the grid never
// mistakes a short page for the end of the result.

export async function readRowRange(
  client: ServiceClient,
  executionId: string,
  startRow: number,
  endRow: number,
): Promise<Result<ResultPage>> {
  const wanted = endRow - startRow;
  const rows: JsonObject[] = [];
  let metadata: ResultMetadata | null = null;
  let offset = startRow;
  while (rows.length < wanted) {
    const read = await client.results.page({ executionId, offset, limit: wanted - rows.length });
    if (!read.ok) return serviceFailure(read.error);
    const page = read.value;
    if (page.rows === null) return fail('bad_request', noResultMessage(page));
    metadata ??= page.metadata;
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
  });
}

function noResultMessage(page: ResultsPage): string {
  if (page.error !== null) return `The execution has no result: ${page.error.message}`;
  return `The execution has no result to read (state ${page.state}).`;
}
