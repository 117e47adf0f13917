import type { DuckDBConnection } from '@duckdb/node-api';
import { BLANK_LINE, LINE } from './source-reads.ts';

// The checks of an NDJSON insert's lines, staged one row each (see ndjsonLinesRead): one JSON
// object a line, each key once, blank lines passed over but counted, so that a refusal names the
// line as an editor numbers it. The keys are read from every line, not guessed from the first.

export const NO_OBJECTS = 'the NDJSON holds no JSON object: it needs one object a line';

/** The keys named by the staged lines of table `lines`, and how many objects they hold; refused at the first line that is not one object. */
export async function checkLines(c: DuckDBConnection, lines: string): Promise<{ columns: string[]; rows: number }> {
  const { rows, bad, keys } = await readLines(c, lines);
  if (bad !== null) throw new Error(await badLine(c, lines, bad));
  if (rows === 0) throw new Error(NO_OBJECTS);
  return { columns: keys, rows };
}

/**
 * In one pass over staged NDJSON lines: how many are not blank, the number of the first that is
 * not one JSON object with each key once (null when every one is), and the keys they name.
 */
async function readLines(c: DuckDBConnection, lines: string): Promise<{ rows: number; bad: number | null; keys: string[] }> {
  // an object's text starts with `{`, its spaces aside; text that is no JSON has no keys
  const object = `keys IS NOT NULL AND CASE WHEN starts_with(${LINE}, '{') THEN true ELSE starts_with(ltrim(${LINE}, E' \\t\\r'), '{') END`;
  const keyed = `SELECT rowid + 1 AS n, ${LINE}, try(json_keys(${LINE})) AS keys FROM ${lines} WHERE NOT ${BLANK_LINE}`;
  const reader = await c.runAndReadAll(
    `SELECT count(*)::INTEGER AS rows, (min(n) FILTER (WHERE NOT object))::BIGINT AS bad, list(DISTINCT keys) FILTER (WHERE object) AS kinds
     FROM (SELECT n, keys, ${object} AS object FROM (${keyed}))`,
  );
  const found = reader.getRowObjectsJS()[0] as { rows: number; bad: bigint | null; kinds: string[][] | null };
  const kinds = found.kinds ?? [];
  let bad = found.bad === null ? null : Number(found.bad);
  // a key named twice is looked for among the few lists of keys the lines have, and only then line by line
  if (kinds.some((keys) => new Set(keys).size < keys.length)) {
    const twice = await c.runAndReadAll(
      `SELECT (min(n))::BIGINT AS n FROM (${keyed}) WHERE CASE WHEN ${object} THEN len(keys) <> len(list_distinct(keys)) ELSE false END`,
    );
    const first = Number(twice.getRowObjectsJS()[0]!.n);
    bad = bad === null ? first : Math.min(bad, first);
  }
  return { rows: found.rows, bad, keys: [...new Set(kinds.flat())] };
}

/** Why NDJSON line `n` is not one JSON object with each key once. */
async function badLine(c: DuckDBConnection, lines: string, n: number): Promise<string> {
  // a CASE for each step, as only a CASE reads a line's JSON no sooner than it is known to be valid
  const reason = `CASE WHEN NOT json_valid(${LINE}) THEN 'is not valid JSON' WHEN json_type(${LINE}) <> 'OBJECT' THEN 'is not a JSON object' END`;
  const reader = await c.runAndReadAll(
    `SELECT ${reason} AS reason, CASE WHEN ${reason} IS NULL THEN json_keys(${LINE}) END AS keys FROM ${lines} WHERE rowid = ?`,
    [n - 1],
  );
  const { reason: said, keys } = reader.getRowObjectsJS()[0] as { reason: string | null; keys: string[] | null };
  if (said !== null) return `line ${n} ${said}`;
  const twice = keys!.find((key, i) => keys!.indexOf(key) !== i);
  return `line ${n} names the key '${twice}' twice`;
}
