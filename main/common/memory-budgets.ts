// The memory each DuckDB and each in-memory cache of the app may hold, in one place, for a desktop
// of a few GB that the app shares with everything else its user runs (docs/architecture.md has
// the table). A DuckDB takes memory up to its limit as it reads and keeps it until it is asked to
// give it back (see the idle give-backs in the service and the cache), so a limit is the most it
// holds, not what it holds at rest; what does not fit goes to disk. Caches count bytes where their
// entries' size varies, and entries where each is small.

const MB = 1024 * 1024;

/** The service's DuckDBs (executions' own limits are per plan, see plan-limits.ts). */
export const SERVICE_DUCKDB_BYTES = {
  /** Accounts, keys, queries and executions (`service.duckdb`). */
  records: 128 * MB,
  /** Reads stored results, and holds the views of their filters and sorts. */
  resultReader: 512 * MB,
  /** Writes a new result: a row group of wide rows on its way to the file. */
  resultWriter: 128 * MB,
  /** Reads uploaded files and writes tables' files. */
  tableFiles: 512 * MB,
  /** Makes the sample of Dune's tables, once, for a few seconds. */
  sampleMaking: 512 * MB,
  /** A context's DuckDB waiting to be taken: it gets its plan's limit then. */
  spareExecution: 64 * MB,
};

/** Memory and spill for the executions of every plan, and what all executions may take together. */
export const EXECUTION_MEMORY_BYTES = {
  free: 256 * MB,
  plus: 512 * MB,
  premium: 768 * MB,
  /** Two premium contexts at once, or three plus, or six free. */
  total: 1536 * MB,
};

/** The service's caches held in memory (JavaScript's, or DuckDB's where said). */
export const SERVICE_CACHES = {
  /** Text of result blocks kept in memory (the rest of the blocks are files). */
  textBlockBytes: 48 * MB,
  /** Memory of dropped text, kept to hold the next blocks' text. */
  spareTextBytes: 16 * MB,
  /** Whole JSON texts of views, pages of which are slices. */
  viewTextBytes: 64 * MB,
  /** Filtered and sorted views, in the result reader's DuckDB: cells (rows times columns), and views. */
  viewCells: 8_000_000,
  views: 64,
  /** Whole results in a sort, each row with its bytes, for new filters under that sort (sort-views.ts): cells, and views. */
  sortViewCells: 10_000_000,
  sortViews: 4,
  /** Results attached to the reader that no one reads: their files' bytes (DuckDB keeps what it read of them), and results. */
  idleAttachedBytes: 64 * MB,
  idleAttached: 16,
  /** Contexts' DuckDBs kept between executions. */
  idleContexts: 8,
  /** Small records: filtered totals, views asked for once, how JSON texts are written, completed executions, tables' columns. */
  rememberedTotals: 256,
  rememberedAsks: 256,
  jsonTextShapes: 256,
  completedExecutions: 1024,
  tableColumns: 4096,
  /** Names of tables' files deleted lately, refused to a list of tables read before. */
  retiredTableFiles: 4096,
  /** Per DuckDB: connections kept idle, and statements kept prepared on each. */
  idleConnections: 8,
  preparedStatements: 64,
  /** Chunks of an execution's result read before those done with are freed (main/service/executions/chunk-memory.ts). */
  readChunkBytes: 4 * MB,
  /** The service thread's V8 young generation (`maxYoungGenerationSizeMb`). */
  youngGenerationMb: 48,
};

/**
 * glibc's malloc arenas of the browser host's process and of the service's alone
 * (`MALLOC_ARENA_MAX`, set by their launcher, build/web-host.ts): otherwise one for each thread that allocates at once (libuv's pool, V8's),
 * each keeping memory freed in it. DuckDB's build for Node has no allocator of its own
 * (`duckdb_extensions()` lists no jemalloc): its blocks come from these arenas too.
 */
export const HOST_MALLOC_ARENAS = 2;

/** The app's result cache (main/core/cache): its DuckDB's limit; its disk budget is a setting. */
export const CACHE_DUCKDB_BYTES = 1024 * MB;

/** Local SQL's DuckDB (main/core/local-sql), open while a statement runs; past it, it spills to disk. */
export const LOCAL_SQL_DUCKDB_BYTES = 1024 * MB;

/** How long nothing may be read before the service and the cache give memory back (see idle give-backs). */
export const IDLE_GIVE_BACK_MILLIS = 30_000;

/**
 * When a thread's V8 heap is shrunk (main/service/thread/shrink-heap.ts): checked every
 * `tickMillis`, once its event loop was busy less than `quietUtilization` of the time for
 * `quietTicks` checks in a row, if the heap grew by `growthBytes` since it was last shrunk.
 */
export const HEAP_SHRINK = { tickMillis: 1_000, quietTicks: 2, quietUtilization: 0.02, growthBytes: 4 * MB };

/** A byte count as DuckDB's `memory_limit` takes it. */
export function duckdbBytes(bytes: number): string {
  return `${Math.floor(bytes)}B`;
}
