import { afterAll, beforeAll, describe, it } from 'vitest';
import type { BoundSql } from '../../../../main/filter-language/index.ts';
import { pageRowsSql } from '../../../../main/service/results/page-sql.ts';
import { expectTwoPassBlocks } from '../../two-pass-pages.ts';
import { storeResult, type StoredResult } from './stored-result.ts';

// The service's reader of stored results reads a sorted page of up to a grid's block in two
// passes (page-reads.ts): the plain path's SQL, on a result with ties and nulls to sort on.

let stored: StoredResult;

beforeAll(async () => {
  stored = await storeResult(20_000, 'taken');
});
afterAll(async () => {
  await stored?.close();
});

describe('sorted pages of a stored result', () => {
  it('are read in two passes up to a block of the grid, with the rows of one pass', async () => {
    const { columns, reader } = stored;
    const reads: [string, BoundSql | null][] = [
      ['"grp" DESC NULLS LAST', null],
      ['"amount" ASC NULLS FIRST, "grp" ASC', { sql: '"taken" > CAST(? AS DOUBLE)', params: ['2'] }],
    ];
    for (const [orderBy, where] of reads) {
      await reader.withTable('big', (connection, table) =>
        expectTwoPassBlocks(
          connection,
          (limit, offset) => {
            const query = { tableColumns: columns, columns, limit, offset, orderBy, where, storedRows: 20_000 };
            const { sql, params } = pageRowsSql(table, query, '"__row_1"')!;
            return { sql, params };
          },
          [0, 3_000],
        ),
      );
    }
  });
});
