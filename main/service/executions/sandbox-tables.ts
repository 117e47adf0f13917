import { link, mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DuckDBInstance } from '@duckdb/node-api';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';
import { createDuneSqlMacros } from '../dunesql/macros.ts';
import { attachSamples, SAMPLE_SCHEMAS } from '../samples/attach-samples.ts';
import { SAMPLE_NAMES } from '../samples/sample-names.ts';
import { DATA } from '../tables/table-files.ts';
import type { TableRecord } from '../tables/table-store.ts';

// Where an execution's connection resolves names first (an in-memory DuckDB's own catalog): Dune's
// tables and `<handle>.<table>` as views, and DuneSQL's macros.
const DEFAULT_CATALOG = 'memory';

/** Where and how a context's DuckDB is given its tables (see `furnish`). */
export interface FurnishPlace {
  /** The catalog name tables are seen under (`dune`). */
  catalog: string;
  /** A folder of its own for the hard links, removed once the tables are attached. */
  links: string;
  /** Where a table's file is. */
  pathOf: (file: string) => string;
  /** An error's text with every host folder hidden. */
  hidePaths: (text: string) => string;
}

/**
 * Attaches the tables under their SQL names, then takes away file access and settings. DuckDB
 * keeps every attached file (and its `.wal` siblings) writable by path when file access goes:
 * each is attached through a hard link in a folder removed right after, so the paths user SQL
 * could write to lead nowhere, and it cannot make the folder again. (The folder it spills into
 * stays writable by path, as DuckDB needs it: there the statement check keeps every write out.)
 * A file that cannot be attached fails only the executions that read its table; false then, so
 * that the next execution tries it again. Each table is also named `<handle>.<table>` in the
 * default catalog, unless that is a sample table's name.
 */
export async function furnish(
  instance: DuckDBInstance,
  tables: TableRecord[],
  samples: string | null,
  place: FurnishPlace,
): Promise<boolean> {
  const connection = await instance.connect();
  let attachedAll = true;
  const { links } = place;
  try {
    const catalog = q(place.catalog);
    await connection.run(`ATTACH ':memory:' AS ${catalog}`);
    await createDuneSqlMacros(instance, DEFAULT_CATALOG);
    for (const namespace of new Set(tables.map((t) => t.namespace))) await connection.run(`CREATE SCHEMA ${catalog}.${q(namespace)}`);
    for (const schema of new Set([...tables.map((t) => t.namespace), ...SAMPLE_SCHEMAS]))
      await connection.run(`CREATE SCHEMA IF NOT EXISTS ${q(schema)}`);
    await mkdir(links, { recursive: true });
    if (samples !== null) await attachSamples(connection, await hardLink(samples, links));
    for (const [i, table] of tables.entries()) {
      const view = `${catalog}.${q(table.namespace)}.${q(table.tableName)}`;
      // a name no handle can take (handles have no spaces), so `<handle>.<table>` stays unambiguous
      const attached = q(`table file ${i}`);
      try {
        await connection.run(`ATTACH ${quoteLiteral(await hardLink(place.pathOf(table.file), links))} AS ${attached} (READ_ONLY)`);
        await connection.run(`CREATE VIEW ${view} AS SELECT * FROM ${attached}.main.${DATA}`);
      } catch (error) {
        attachedAll = false;
        const reason = place.hidePaths((error instanceof Error ? error.message : String(error)).split('\n')[0]!);
        const message = `table ${place.catalog}.${table.namespace}.${table.tableName} cannot be read: its file could not be opened (${reason}); its owner can upload it again`;
        await connection.run(`CREATE VIEW ${view} AS SELECT * FROM range(1) WHERE error(${quoteLiteral(message)})`);
      }
      if (!SAMPLE_NAMES.has(`${table.namespace}.${table.tableName}`.toLowerCase())) {
        await connection.run(`CREATE VIEW ${q(table.namespace)}.${q(table.tableName)} AS SELECT * FROM ${view}`);
      }
    }
    await connection.run(`SET enable_external_access = false; SET lock_configuration = true`);
    return attachedAll;
  } finally {
    connection.closeSync();
    // Where a system keeps an open file's name until it is closed (Windows before POSIX deletes),
    // the links stay until the next start empties the temporary folder: the statement check still
    // keeps every write out, and no execution fails for it.
    await rm(links, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** A hard link to `path` in `links`; the file itself where the file system has no hard links. */
async function hardLink(path: string, links: string): Promise<string> {
  const linked = join(links, basename(path));
  try {
    await link(path, linked);
    return linked;
  } catch {
    // still read-only to user SQL: the statement check lets no write run
    return path;
  }
}

/** What a context's DuckDB was furnished with: while it stays the same, the DuckDB serves the context. */
export function describeTables(tables: TableRecord[], samples: string | null): string {
  return [...tables.map((t) => `${t.namespace}.${t.tableName}=${t.file}`), `samples=${samples}`].join('\n');
}
