import { fail, ok, type Result, type ResultSample } from '../../contract/index.ts';
import { noResultText } from '../executions/states.ts';
import type { ServiceClient } from '../service-client/index.ts';
import { toCell } from './cells.ts';
import { isPartialRefusal, partialFailure, refusal } from './read-range.ts';

// A sample from the service (`sample_count`), for results the cache does not hold.

/** The service samples a whole result only: `sample_count` with `filters` is refused there, as here. */
export const WHOLE_RESULT_ONLY = fail(
  'bad_request',
  'Only a whole result can be sampled while it is not in the cache: the service samples no filtered view.',
  { wholeResultOnly: true },
);

export async function readSample(
  client: ServiceClient,
  request: { executionId: string; sampleCount: number; columns?: string; allowPartial: boolean },
): Promise<Result<ResultSample>> {
  const read = await client.results.page({
    executionId: request.executionId,
    offset: 0,
    limit: request.sampleCount,
    sampleCount: request.sampleCount,
    view: { columns: request.columns },
    allowPartialResults: request.allowPartial,
  });
  if (!read.ok) return isPartialRefusal(read.error) ? partialFailure(read.error.message) : refusal(read.error);
  const { rows, metadata, state } = read.data;
  if (state === 'QUERY_STATE_COMPLETED_PARTIAL' && !request.allowPartial) return partialFailure(null);
  if (rows === null) return fail('bad_request', noResultText('sample', state));
  const names = metadata?.columnNames ?? Object.keys(rows[0] ?? {});
  const types = metadata?.columnTypes ?? [];
  return ok({
    columns: names.map((name, index) => ({ name, type: types[index] ?? 'unknown' })),
    rows: rows.map((row) => names.map((name) => toCell(row[name]))),
    totalRowCount: metadata?.totalRowCount ?? rows.length,
  });
}
