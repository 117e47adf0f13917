import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { valueErrors } from '../../../../main/core/cache/cached-reads.ts';

// A cached read refuses what the service refuses: a value or an operator a column's type cannot
// take is the request's mistake (bad_request), as the service answers 400; any other error is thrown.

describe('a cached read that DuckDB refuses', () => {
  it('answers bad_request for a value or an operator its column cannot take, and throws anything else', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      for (const sql of ["SELECT 'abc'::INTEGER", 'SELECT [1, 2] > 1']) {
        const read = await valueErrors(async () => {
          await connection.run(sql);
          return { ok: true as const, data: null };
        });
        expect(read, sql).toMatchObject({
          ok: false,
          error: { code: 'bad_request', message: expect.stringMatching(/^filters: (Conversion|Binder) Error: /) },
        });
      }
      await expect(
        valueErrors(() => connection.run('SELECT * FROM r_gone').then(() => ({ ok: true as const, data: null }))),
      ).rejects.toThrow(/Catalog Error/);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
