import { DuckDBInstance, type DuckDBDataChunk } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVICE_CACHES } from '../../../../main/common/memory-budgets.ts';

const collected = vi.hoisted(() => ({ minor: 0, other: 0 }));
vi.mock('../../../../main/service/thread/v8-collector.ts', () => ({
  collectGarbage: (options: { type: string }) => (options.type === 'minor' ? collected.minor++ : collected.other++),
}));

const { ChunkMemory } = await import('../../../../main/service/executions/chunk-memory.ts');

// 8 BIGINT columns: DuckDB hands them over 2,048 rows a chunk
const COLUMNS = 8;
const ROWS = 200_000;

let instance: DuckDBInstance;
const chunks: DuckDBDataChunk[] = [];

beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const cells = Array.from({ length: COLUMNS }, (_, i) => `range + ${i} AS c${i}`).join(', ');
  const result = await connection.stream(`SELECT ${cells} FROM range(${ROWS})`);
  for await (const chunk of result) chunks.push(chunk);
  connection.closeSync();
});

afterAll(() => instance.closeSync());

describe('the memory of a result’s chunks as they are read', () => {
  it('is freed by a young-generation collection each time a budget’s worth of chunks was read', () => {
    collected.minor = 0;
    const memory = new ChunkMemory();
    const cellBytes = 16;
    let read = 0;
    let expected = 0;
    for (const chunk of chunks) {
      memory.done(chunk);
      read += chunk.rowCount * chunk.columnCount * cellBytes;
      if (read >= SERVICE_CACHES.readChunkBytes) {
        expected++;
        read = 0;
      }
      expect(collected.minor).toBe(expected);
    }
    // the 200,000 rows are about 24 MB by this measure: several collections, none of them major
    expect(expected).toBeGreaterThanOrEqual(4);
    expect(collected.other).toBe(0);
  });

  it('asks nothing of the collector for a result smaller than the budget', () => {
    collected.minor = 0;
    const memory = new ChunkMemory();
    memory.done(chunks[0]!);
    expect(collected.minor).toBe(0);
  });
});
