import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnDefinition, storageType } from '../../../../main/core/cache/storage-types.ts';

// 128-bit columns (uint256 and int256 amounts, wide decimals) are kept unpacked in the cache file,
// where a scan reads them about as fast as a 64-bit column; 64-bit and narrower ones stay packed.
// Checked on a real file after a checkpoint, and after the copy a compaction makes of it.

const ROWS = 300_000;
const COLUMNS = [
  { name: 'amount', type: storageType('uint256') },
  { name: 'delta', type: storageType('int256') },
  { name: 'price', type: storageType('decimal(38,18)') },
  { name: 'block', type: storageType('bigint') },
  { name: 'fee', type: storageType('decimal(10,2)') },
];

let dir: string;
let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'querydesk-wide-'));
  instance = await DuckDBInstance.create(join(dir, 'results.duckdb'));
  connection = await instance.connect();
  await connection.run(`CREATE TABLE r (${COLUMNS.map(columnDefinition).join(', ')})`);
  await connection.run(
    `INSERT INTO r SELECT i::HUGEINT * 1000000000000000000, -i::HUGEINT * 1000000000000000000, i / 7, i, i / 100 FROM range(${ROWS}) AS t(i)`,
  );
  await connection.run('CHECKPOINT');
});
afterAll(() => {
  connection?.closeSync();
  instance?.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

async function compression(table: string): Promise<Record<string, string[]>> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, list(DISTINCT compression ORDER BY compression) FROM pragma_storage_info('${table}') WHERE segment_type <> 'VALIDITY' GROUP BY column_name`,
  );
  return Object.fromEntries(reader.getRows().map(([name, kinds]) => [String(name), (kinds as { items: unknown[] }).items.map(String)]));
}

describe('128-bit columns in the cache', () => {
  it('are stored whole, and the narrower ones packed', async () => {
    expect(COLUMNS.map((c) => c.type)).toEqual(['UHUGEINT', 'HUGEINT', 'DECIMAL(38,18)', 'BIGINT', 'DECIMAL(10,2)']);
    const kinds = await compression('r');
    expect(kinds.amount).toEqual(['Uncompressed']);
    expect(kinds.delta).toEqual(['Uncompressed']);
    expect(kinds.price).toEqual(['Uncompressed']);
    expect(kinds.block).not.toContain('Uncompressed');
    expect(kinds.fee).not.toContain('Uncompressed');
  });

  it('stay so in the copy a compaction writes', async () => {
    await connection.run(`ATTACH '${join(dir, 'copy.duckdb')}' AS copy`);
    await connection.run('COPY FROM DATABASE results TO copy');
    await connection.run('CHECKPOINT copy');
    const kinds = await compression('copy.main.r');
    expect(kinds.amount).toEqual(['Uncompressed']);
    expect(kinds.block).not.toContain('Uncompressed');
  });
});
