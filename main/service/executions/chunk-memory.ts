import type { DuckDBDataChunk } from '@duckdb/node-api';

// A cell's bytes in a chunk's vectors: 16 for text (DuckDB's string reference) and the widest
// numbers, less for the others.
const CELL_BYTES = 16;

/**
 * Has V8 count the memory of a result's chunk, read and done with. Each chunk DuckDB hands over
 * holds its column vectors in native memory that V8 does not see: its wrapper is small, so the
 * chunks of a long result (hundreds of them, some 100 KB each) waited for a garbage collection
 * that nothing prompted, and the service's memory rose by their sum while the result was stored.
 * A buffer of about the chunk's size, dropped at once, counts as memory outside V8's heap, which
 * V8 collects once enough of it adds up: the chunks read by then go with it.
 */
export function countChunkMemory(chunk: DuckDBDataChunk): void {
  Buffer.allocUnsafeSlow(chunk.rowCount * chunk.columnCount * CELL_BYTES);
}
