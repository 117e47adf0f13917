import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../../common/sql-quote.ts';
import { fail, ok, type CellValue, type Result, type RunComparison } from '../../contract/index.ts';
import type { Column } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import { valueErrors } from '../cache/cached-reads.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { cachedValue, cellExpression, isNumberType, toCacheCell } from '../cache/storage-types.ts';

// Two cached results of one query compared in DuckDB: their sizes and columns, and, given a key
// column both have, which rows only one has and which changed (NULL-safe: IS DISTINCT FROM), with
// the cells that differ. Rows are matched by key only, so the key must name each row once.

/** Differing rows listed, in key order; the counts cover all of them. */
export const LISTED_ROWS = 200;

type Sides = { a: CacheEntry; b: CacheEntry };

function wireType(entry: CacheEntry, column: Column): string {
  return entry.wireTypes[entry.columns.indexOf(column)] ?? column.type;
}

export async function compareCached(db: CacheDb, sides: Sides, key: string | null): Promise<Result<RunComparison>> {
  const { a, b } = sides;
  const inB = new Map(b.columns.map((c) => [c.name, c]));
  const inA = new Set(a.columns.map((c) => c.name));
  const common = a.columns.filter((c) => inB.has(c.name));
  const columns = {
    onlyInA: a.columns.filter((c) => !inB.has(c.name)).map((c) => ({ name: c.name, type: wireType(a, c) })),
    onlyInB: b.columns.filter((c) => !inA.has(c.name)).map((c) => ({ name: c.name, type: wireType(b, c) })),
    retyped: common
      .filter((c) => wireType(a, c).toLowerCase() !== wireType(b, inB.get(c.name)!).toLowerCase())
      .map((c) => ({ name: c.name, a: wireType(a, c), b: wireType(b, inB.get(c.name)!) })),
    common: common.map((c) => c.name),
  };
  const base = { rowCount: { a: a.rowCount, b: b.rowCount }, columns };
  if (key === null) return ok({ ...base, byKey: null });
  const keyColumn = common.find((c) => c.name === key);
  if (!keyColumn)
    return fail(
      'bad_request',
      `The key “${key}” must be a column of both runs; ${columns.common.length === 0 ? 'they share none' : `they share ${columns.common.map((name) => `“${name}”`).join(', ')}`}.`,
    );
  return db.withConnection((connection) =>
    valueErrors(async () => {
      const duplicated = await duplicatedKeys(connection, sides, keyColumn);
      if (duplicated.a + duplicated.b > 0) {
        return fail(
          'bad_request',
          `“${key}” does not name each row once: ${duplicated.a} of its values appear more than once in run A, ${duplicated.b} in run B. Pick a column whose values are unique.`,
          { duplicatedKeys: duplicated },
        );
      }
      return ok({
        ...base,
        byKey: await byKey(
          connection,
          sides,
          keyColumn,
          common.filter((c) => c !== keyColumn),
        ),
      });
    }),
  );
}

async function duplicatedKeys(connection: DuckDBConnection, { a, b }: Sides, key: Column): Promise<{ a: number; b: number }> {
  const count = async (entry: CacheEntry) => {
    const reader = await connection.runAndReadAll(
      `SELECT count(*) FROM (SELECT ${quoteIdentifier(key.name)} FROM ${quoteIdentifier(entry.tableName)} GROUP BY 1 HAVING count(*) > 1)`,
    );
    return Number(reader.getRows()[0]?.[0] ?? 0);
  };
  return { a: await count(a), b: await count(b) };
}

async function byKey(
  connection: DuckDBConnection,
  { a, b }: Sides,
  key: Column,
  others: Column[],
): Promise<NonNullable<RunComparison['byKey']>> {
  const k = quoteIdentifier(key.name);
  const inB = (c: Column) => b.columns.find((other) => other.name === c.name) ?? c;
  // the same type, or two numbers, compare as they are (1 equals 1.0; a real as the double its
  // text names, which an older cache holds as FLOAT); other retyped columns as text
  const differs = (c: Column) => {
    const [left, right] = [cachedValue(c, `a.${quoteIdentifier(c.name)}`), cachedValue(inB(c), `b.${quoteIdentifier(c.name)}`)];
    const direct = c.type === inB(c).type || (isNumberType(c.type) && isNumberType(inB(c).type));
    return direct ? `${left} IS DISTINCT FROM ${right}` : `CAST(${left} AS VARCHAR) IS DISTINCT FROM CAST(${right} AS VARCHAR)`;
  };
  const changed = others.length > 0 ? others.map(differs).join(' OR ') : 'false';
  const joined = `FROM ${quoteIdentifier(a.tableName)} AS a FULL OUTER JOIN ${quoteIdentifier(b.tableName)} AS b ON a.${k} = b.${k}`;
  const kind = `CASE WHEN b.${k} IS NULL THEN 'onlyA' WHEN a.${k} IS NULL THEN 'onlyB' WHEN ${changed} THEN 'changed' ELSE 'same' END`;
  const counts = await connection.runAndReadAll(`SELECT kind, count(*) FROM (SELECT ${kind} AS kind ${joined}) GROUP BY kind`);
  const counted = Object.fromEntries(counts.getRows().map(([name, n]) => [String(name), Number(n)]));

  // the listed rows, each side's cells then shaped as the grid shows them
  const inner = others.flatMap((c, i) => [
    `a.${quoteIdentifier(c.name)} AS a_${i}`,
    `b.${quoteIdentifier(c.name)} AS b_${i}`,
    `${differs(c)} AS d_${i}`,
  ]);
  const shaped = others.flatMap((c, i) => [
    cellExpression({ ...c, name: `a_${i}` }),
    cellExpression({ ...inB(c), name: `b_${i}` }),
    `d_${i}`,
  ]);
  const listed = await connection.runAndReadAll(
    `SELECT kind, ${cellExpression({ ...key, name: 'key_value' })}${shaped.map((e) => `, ${e}`).join('')} FROM (
       SELECT ${kind} AS kind, coalesce(a.${k}, b.${k}) AS key_value${inner.map((e) => `, ${e}`).join('')}
       ${joined}) WHERE kind <> 'same' ORDER BY key_value LIMIT ${LISTED_ROWS}`,
  );
  const rows = listed.getRows().map((row) => {
    const values = row.map((value) => toCacheCell(value));
    const kindOf = String(values[0]) as 'onlyA' | 'onlyB' | 'changed';
    const differences: { column: string; a: CellValue; b: CellValue }[] = [];
    others.forEach((c, i) => {
      if (kindOf === 'changed' && values[2 + i * 3 + 2] === true)
        differences.push({ column: c.name, a: values[2 + i * 3]!, b: values[2 + i * 3 + 1]! });
    });
    return { kind: kindOf, key: values[1] ?? null, differences };
  });
  return {
    key: key.name,
    onlyInA: counted.onlyA ?? 0,
    onlyInB: counted.onlyB ?? 0,
    changed: counted.changed ?? 0,
    same: counted.same ?? 0,
    rows,
  };
}
