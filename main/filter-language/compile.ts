import { binaryTextSql, kindOf, parseType } from '../common/dune-types/index.ts';
import { quoteIdentifier } from '../common/sql-quote.ts';
import type { ColumnRef, Comparison, Filter, Literal, SortTerm } from './ast.ts';
import { FilterLanguageError, type LanguagePart } from './errors.ts';
import { compareOutside, placeOf, type Place } from './exact-numbers.ts';
import type { Column } from './table-column.ts';
import { checkValue } from './value-types.ts';

/** SQL with `?` placeholders and their values in order; no value of the request is ever in the SQL text. */
export interface BoundSql {
  sql: string;
  params: string[];
}

/** The column a reference names: exactly, else the one that matches ignoring case, as DuckDB does. */
export function resolveColumn(ref: ColumnRef, columns: Column[], part: LanguagePart): Column {
  const exact = columns.find((c) => c.name === ref.name);
  if (exact) return exact;
  const folded = columns.filter((c) => c.name.toLowerCase() === ref.name.toLowerCase());
  if (folded.length === 1) return folded[0]!;
  const known = columns.map((c) => c.name).join(', ');
  throw new FilterLanguageError(part, ref.position, `unknown column "${ref.name}" (the result's columns are: ${known})`);
}

const TEXT_LIKE = /^(VARCHAR|ENUM\(.*\)|UUID)$/;
const TIMESTAMP = /^TIMESTAMP/;

/** How the stored column is compared: by the kind of its DuckDB type. */
function storedKind(column: Column) {
  return kindOf(parseType(column.type));
}

/**
 * A value compared with a column is cast to the column's type, so strings compare with dates and
 * numbers as DuckDB would convert them; timestamps as the results show them (`… UTC`) are read
 * back, and bytes from their `0x` hex. A number that is no value of a whole-number or decimal
 * column (more digits after the point than it keeps, or past its type's range) is answered without
 * a cast (see exact-numbers.ts).
 */
function castValue(column: Column, value: Literal, params: string[]): string | Exclude<Place, { kind: 'value' }> {
  checkValue(column, value);
  const kind = storedKind(column);
  let text = value.text;
  if (kind === 'binary') {
    params.push(text.trim().slice(2));
    return 'unhex(?)';
  }
  if (kind === 'integer' || kind === 'big-integer' || kind === 'decimal') {
    const place = placeOf(text, column.type);
    if (place.kind !== 'value') return place;
    text = place.text;
  }
  if (TIMESTAMP.test(column.type)) text = text.replace(/ UTC$/, '');
  params.push(text);
  return `CAST(? AS ${TEXT_LIKE.test(column.type) ? 'VARCHAR' : column.type})`;
}

function compareSql(column: Column, operator: Comparison, value: Literal, params: string[]): string {
  const cast = castValue(column, value, params);
  if (typeof cast !== 'string') {
    return compareOutside(columnSql(column), operator, cast, (text) => {
      params.push(text);
      return `CAST(? AS ${column.type})`;
    });
  }
  return `${columnSql(column)} ${operator === '!=' ? '<>' : operator} ${cast}`;
}

function columnSql(column: Column): string {
  // enums and UUIDs compare by their text, like the strings they show as (DuckDB has no order
  // between a UUID and a string, so `<` on one would not bind)
  return /^(ENUM\(|UUID$)/.test(column.type) ? `CAST(${quoteIdentifier(column.name)} AS VARCHAR)` : quoteIdentifier(column.name);
}

/** The column as text for LIKE: bytes as the `0x` hex they show as, matched in any case. */
function likeSql(column: Column): string {
  // LIKE on a lower-case pattern, not ILIKE: DuckDB's ILIKE over this text refused a pattern ending
  // in a NUL character with an error of its own, and hex digits have one case
  if (storedKind(column) === 'binary') return `${binaryTextSql(quoteIdentifier(column.name))} LIKE lower(?)`;
  return `CAST(${quoteIdentifier(column.name)} AS VARCHAR) LIKE ?`;
}

function compileFilter(filter: Filter, columns: Column[], params: string[]): string {
  switch (filter.kind) {
    case 'and':
    case 'or': {
      const left = compileFilter(filter.left, columns, params);
      const right = compileFilter(filter.right, columns, params);
      return `(${left} ${filter.kind.toUpperCase()} ${right})`;
    }
    case 'compare': {
      const column = resolveColumn(filter.column, columns, 'filters');
      return compareSql(column, filter.operator, filter.value, params);
    }
    case 'in': {
      const column = resolveColumn(filter.column, columns, 'filters');
      // a fraction, or a number past the column's type, is in no list of its values
      const values = filter.values.map((v) => castValue(column, v, params)).filter((v) => typeof v === 'string');
      return values.length === 0 ? 'FALSE' : `${columnSql(column)} IN (${values.join(', ')})`;
    }
    case 'like': {
      const column = resolveColumn(filter.column, columns, 'filters');
      params.push(filter.pattern.text);
      return likeSql(column);
    }
    case 'is-null': {
      const column = resolveColumn(filter.column, columns, 'filters');
      return `${quoteIdentifier(column.name)} IS ${filter.negated ? 'NOT ' : ''}NULL`;
    }
  }
}

/** A WHERE condition for the filter, every column checked against `columns`. */
export function compileFilters(filter: Filter, columns: Column[]): BoundSql {
  const params: string[] = [];
  return { sql: compileFilter(filter, columns, params), params };
}

/**
 * ORDER BY terms for the sort, every column checked against `columns`; with `source`, each column
 * named as that table's, where the SELECT list gives a column's name to a value shaped from it.
 */
export function compileSort(terms: SortTerm[], columns: Column[], source?: string): string {
  const prefix = source === undefined ? '' : `${quoteIdentifier(source)}.`;
  return terms
    .map((t) => {
      const column = resolveColumn(t.column, columns, 'sort_by');
      const name = `${prefix}${quoteIdentifier(column.name)}`;
      const direction = t.direction.toUpperCase();
      // DuckDB sorts 128-bit and larger keys far slower than doubles: the double goes first, in the
      // same order, and the exact value breaks its ties
      return storedKind(column) === 'big-integer' ? `CAST(${name} AS DOUBLE) ${direction}, ${name} ${direction}` : `${name} ${direction}`;
    })
    .join(', ');
}

/** The columns a `columns` list selects, in its order, each once. */
export function selectColumns(refs: ColumnRef[], columns: Column[]): Column[] {
  const chosen: Column[] = [];
  for (const ref of refs) {
    const column = resolveColumn(ref, columns, 'columns');
    if (!chosen.includes(column)) chosen.push(column);
  }
  return chosen;
}
