import { SAMPLE_TABLES } from '../../common/dune-tables/index.ts';

const SCHEMAS = [...new Set(SAMPLE_TABLES.map((t) => t.schema))];
// `<schema>.` of a sample table anywhere in the text, quoted or not: a name in a string or a
// comment counts too, which only makes the sample a little sooner than needed.
const NAMED = new RegExp(`(?<![\\w$])"?(?:${SCHEMAS.join('|')})"?\\s*\\.`, 'i');

/** Whether `sql` may read a sample table, so that the sample has to be there before it runs. */
export function namesSampleTables(sql: string): boolean {
  return NAMED.test(sql);
}

/** `<schema>.<table>` of every sample table, lower case. */
export const SAMPLE_NAMES = new Set(SAMPLE_TABLES.map((t) => `${t.schema}.${t.name}`.toLowerCase()));
