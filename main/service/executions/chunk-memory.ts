import type { DuckDBDataChunk } from '@duckdb/node-api';
import { SERVICE_CACHES } from '../../common/memory-budgets.ts';
import { collectGarbage } from '../thread/v8-collector.ts';

// A cell's bytes in a chunk's vectors: 16 for text (DuckDB's string reference) and the widest
// numbers, less for the others.
const CELL_BYTES = 16;

/**
 * Frees the chunks of a result as it is read. Each chunk DuckDB hands over holds its column
 * vectors in native memory, freed only once V8 collects its small wrapper; nothing in a loop that
 * reads chunks and passes them on prompts a collection, so hundreds of them were held while a
 * result was stored, beside the sort that made them. Once about `SERVICE_CACHES.readChunkBytes`
 * were read, a collection of the young generation, where the wrappers of chunks done with still
 * are, frees them: a millisecond or so of the thread's time.
 */
export class ChunkMemory {
  #read = 0;

  /** Counts a chunk read and done with. */
  done(chunk: DuckDBDataChunk): void {
    this.#read += chunk.rowCount * chunk.columnCount * CELL_BYTES;
    if (this.#read < SERVICE_CACHES.readChunkBytes) return;
    this.#read = 0;
    collectGarbage({ type: 'minor', execution: 'sync' });
  }
}
