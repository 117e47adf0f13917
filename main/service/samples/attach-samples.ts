import type { DuckDBConnection } from '@duckdb/node-api';
import { SAMPLE_TABLES } from '../../common/dune-tables/index.ts';
import { quoteIdentifier as q, quoteLiteral } from '../../common/sql-quote.ts';

/** The schemas of Dune's tables that have a sample. */
export const SAMPLE_SCHEMAS = [...new Set(SAMPLE_TABLES.map((t) => t.schema))];

// The name the sample file is attached under: one no handle can take (handles have no spaces).
const SAMPLE_CATALOG = q('dune sample');

/**
 * Attaches the sample file read-only and names each of its tables `<schema>.<table>` in the
 * default catalog (whose schemas exist already), as Dune names them.
 */
export async function attachSamples(connection: DuckDBConnection, file: string): Promise<void> {
  await connection.run(`ATTACH ${quoteLiteral(file)} AS ${SAMPLE_CATALOG} (READ_ONLY)`);
  for (const table of SAMPLE_TABLES) {
    const name = `${q(table.schema)}.${q(table.name)}`;
    await connection.run(`CREATE VIEW ${name} AS SELECT * FROM ${SAMPLE_CATALOG}.${name}`);
  }
}
