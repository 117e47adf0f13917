import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { openCacheDb, type CacheDb } from '../../../../main/core/cache/cache-db.ts';
import { cachedPageSql } from '../../../../main/core/cache/cached-reads.ts';
import { compileResultRequest, type Column } from '../../../../main/filter-language/index.ts';
import { expectTwoPassBlocks } from '../../two-pass-pages.ts';

// The cache's DuckDB reads a sorted page of up to a grid's block in two passes (page-reads.ts):
// the cache's own page SQL, in the grid's views, on a table with ties and nulls to sort on.

const ROWS = 20_000;
const COLUMNS: Column[] = [
  { name: 'id', type: 'BIGINT' },
  { name: 'grp', type: 'VARCHAR' },
  { name: 'amount', type: 'DECIMAL(18,6)' },
  { name: 'seen', type: 'TIMESTAMP' },
  // Dune's uint256 past 2^64 and varbinary, as the cache keeps them
  { name: 'fee', type: 'UHUGEINT' },
  { name: 'data', type: 'BLOB' },
];

let dir: string;
let db: CacheDb;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-two-pass-'));
  db = await openCacheDb(dir);
  await db.exclusive((connection) =>
    connection.run(
      `CREATE TABLE blocks AS SELECT range AS id, ['a', 'b', NULL, 'c'][1 + range % 4] AS grp, ` +
        `CASE WHEN range % 11 = 0 THEN NULL ELSE ((hash(range) % 1000000) / 100)::DECIMAL(18,6) END AS amount, ` +
        `TIMESTAMP '2024-01-01' + to_minutes(range % 97) AS seen, ` +
        `(range % 89)::UHUGEINT * 1000000000000000000000 AS fee, unhex(md5((range % 61)::VARCHAR)) AS data FROM range(${ROWS})`,
    ),
  );
});
afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the grid's sorted blocks from the cache", () => {
  it('are read in two passes, with the rows of one pass', async () => {
    for (const view of [
      { sortBy: 'grp desc' },
      { sortBy: 'amount asc, seen desc', filters: "grp <> 'b' and id > 500" },
      { sortBy: 'fee desc, data asc', filters: 'fee > 18446744073709551616' },
    ]) {
      const compiled = compileResultRequest(view, COLUMNS);
      await db.withConnection((connection) =>
        expectTwoPassBlocks(connection, (limit, offset) => cachedPageSql('blocks', compiled, offset, offset + limit), [0, 3_000]),
      );
    }
  });
});
