import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { RESULT_STORAGE_VERSION } from '../../../../main/service/results/result-files.ts';
import { ResultStore } from '../../../../main/service/results/result-store.ts';
import { openResults } from '../../../../main/service/storage/results-file.ts';

const ROWS = 1_000_000;
// the demo's million rows, as wide
const COLUMNS = [
  { name: 'i', type: 'BIGINT' },
  { name: 'label', type: 'VARCHAR' },
  { name: 'at', type: 'TIMESTAMP' },
  { name: 'amount', type: 'DOUBLE' },
  { name: 'fee', type: 'DECIMAL(10,2)' },
  { name: 'even', type: 'BOOLEAN' },
  { name: 'bucket', type: 'BIGINT' },
  { name: 'chain', type: 'VARCHAR' },
];
const SOURCE = `SELECT i, 'row ' || i AS label, TIMESTAMP '2023-01-01' + to_seconds(i) AS at, (hash(i) % 100000) / 100 AS amount,
  (i % 1000 / 10)::DECIMAL(10,2) AS fee, i % 2 = 0 AS even, CASE WHEN i % 13 = 0 THEN NULL ELSE i % 97 END AS bucket,
  ['ethereum', 'base'][1 + i % 2] AS chain FROM range(${ROWS}) t(i)`;
// as the executor asks while it reads a result: every 64 chunks
const ASK_EVERY_CHUNKS = 64;

describe('a new result written as its rows come', () => {
  it('counts the rows as the table takes them, all of them at the end, in a file no larger than the rows written at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'querydesk-result-writer-'));
    const source = await DuckDBInstance.create(':memory:');
    const files = await openResults(dir, '64MB');
    try {
      const connection = await source.connect();
      const writer = await new ResultStore(files, join(dir, 'tmp')).createWriter('e1', COLUMNS);
      const result = await connection.stream(SOURCE);
      const soFar: number[] = [];
      let chunks = 0;
      for await (const chunk of result) {
        writer.append(chunk);
        if (++chunks % ASK_EVERY_CHUNKS === 0) soFar.push(await writer.bytesSoFar());
      }
      // the count grows with what the appender wrote, by the same measure as the totals
      expect(soFar.at(-1)).toBeGreaterThan(0);
      expect(soFar).toEqual([...soFar].sort((a, b) => a - b));
      const [bytes] = (
        await connection.runAndReadAll(
          `SELECT (sum(strlen(label) + strlen(chain)) + count(*) * (8 + 8 + 8 + 8 + 1) + count(bucket) * 8)::BIGINT FROM (${SOURCE})`,
        )
      ).getRows()[0]!;
      const size = await writer.finish(Number.MAX_SAFE_INTEGER);
      expect(size).toEqual({ rowCount: ROWS, bytes: Number(bytes), truncated: false });
      expect(soFar.at(-1)).toBeLessThan(size.bytes);
      // asking never made the appender write its rows before its batch was full: that left parts of
      // row groups for the write-ahead log, and the file grew by half again with what its
      // checkpoint wrote of them
      const reference = join(dir, 'reference.duckdb');
      await connection.run(`ATTACH '${reference}' AS reference (STORAGE_VERSION '${RESULT_STORAGE_VERSION}')`);
      await connection.run(`CREATE TABLE reference.r AS ${SOURCE}`);
      await connection.run('DETACH reference');
      expect(statSync(files.path('e1')).size).toBeLessThan(1.2 * statSync(reference).size);
      connection.closeSync();
    } finally {
      source.closeSync();
      await Promise.all([files.db.close(), files.writer.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
