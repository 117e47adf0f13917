import type { DuckDBConnection } from '@duckdb/node-api';
import { rewriteDuneSql, type Rewritten } from '../dunesql/rewrite.ts';
import { uniqueColumnNames } from '../results/column-names.ts';
import { columnTypeName } from '../results/column-type-name.ts';
import type { ResultStore } from '../results/result-store.ts';
import type { ResultColumn } from '../results/row-bytes.ts';
import { ChunkMemory } from './chunk-memory.ts';
import { prepareReadOnly } from './statement-check.ts';

// An execution's statement, run in its sandbox and streamed into its result's table.

// How often a running result's size is checked against the cap: every this many chunks of 2,048 rows.
const CAP_CHECK_CHUNKS = 64;

export interface StreamedRun {
  executionId: string;
  /** The DuneSQL as the context sent it. */
  sql: string;
  /** The result's size cap: past it, the rest is not read and the result is stored cut. */
  capBytes: number;
  results: ResultStore;
  hidePaths: (text: string) => string;
  cancelled: () => boolean;
  /** Given the SQL as DuckDB runs it, before it runs, so that an error can be located through it. */
  rewritten: (ran: Rewritten) => void;
}

/** Streams the statement's rows into the result's table; null when cancelled on the way. */
export async function streamResult(connection: DuckDBConnection, run: StreamedRun) {
  // Whatever the statement changes on the way (an EXPLAIN ANALYZE of a write reaches the catalog)
  // is undone: every execution runs in a transaction that is rolled back, so the context's
  // catalog stays as it was built for every execution after it.
  await connection.run('BEGIN TRANSACTION');
  try {
    return await read(connection, run);
  } finally {
    await connection.run('ROLLBACK').catch(() => undefined);
  }
}

async function read(connection: DuckDBConnection, run: StreamedRun) {
  const ran = rewriteDuneSql(run.sql);
  run.rewritten(ran);
  const statement = await prepareReadOnly(connection, ran.sql, run.hidePaths);
  if (run.cancelled()) return null;
  const result = await statement.stream();
  if (run.cancelled()) return null;
  const names = uniqueColumnNames(result.columnNames());
  const types = result.columnTypes();
  const columns: ResultColumn[] = names.map((name, i) => ({ name, type: columnTypeName(types[i]!) }));
  const writer = await run.results.createWriter(run.executionId, columns);
  try {
    let chunks = 0;
    const chunkMemory = new ChunkMemory();
    for await (const chunk of result) {
      if (run.cancelled()) break;
      writer.append(chunk);
      chunkMemory.done(chunk);
      // past the cap, the rest would be cut anyway: stop reading
      if (++chunks % CAP_CHECK_CHUNKS === 0 && (await writer.bytesSoFar()) > run.capBytes) break;
    }
  } catch (error) {
    await writer.abort();
    throw error;
  }
  if (run.cancelled()) {
    await writer.abort();
    return null;
  }
  const { truncated, ...size } = await writer.finish(run.capBytes);
  return { columnNames: names, columnTypes: columns.map((c) => c.type), truncated, ...size };
}
