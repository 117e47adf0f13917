import { floorDecimal, kindOf, parseType, readDecimal } from '../common/dune-types/index.ts';
import type { ColumnRef, Comparison, Filter, Literal, SortTerm } from './ast.ts';
import { FilterLanguageError, type LanguagePart } from './errors.ts';
import { checkValue } from './value-types.ts';

/** A column of the table a request is answered from, with its DuckDB type name. */
export interface Column {
  name: string;
  type: string;
  /** The type as the service named it (`uint256`, `varbinary`), where it differs from `type`. */
  duneType?: string;
}

/** SQL with `?` placeholders and their values in order; no value of the request is ever in the SQL text. */
export interface BoundSql {
  sql: string;
  params: string[];
}

export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
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
 * back, and bytes from their `0x` hex. Null for a fraction compared with whole numbers, which
 * DuckDB's cast would round (see compareSql).
 */
function castValue(column: Column, value: Literal, params: string[]): string | null {
  checkValue(column, value);
  const kind = storedKind(column);
  let text = value.text;
  if (kind === 'binary') {
    params.push(text.trim().slice(2));
    return 'unhex(?)';
  }
  if (kind === 'integer' || kind === 'big-integer') {
    const { floor, whole } = floorDecimal(readDecimal(text)!);
    if (!whole) return null;
    text = floor;
  }
  if (TIMESTAMP.test(column.type)) text = text.replace(/ UTC$/, '');
  params.push(text);
  const type = TEXT_LIKE.test(column.type) ? 'VARCHAR' : column.type;
  return `CAST(? AS ${type})`;
}

/**
 * A comparison of a whole-number column with a fraction, exactly: `n > 1.5` is `n > 1`, `n <= -1.5`
 * is `n <= -2`, `n = 1.5` holds for no row.
 */
function compareWithFraction(column: Column, operator: Comparison, value: Literal, params: string[]): string {
  const { floor } = floorDecimal(readDecimal(value.text)!);
  const name = columnSql(column);
  if (operator === '=') return 'FALSE';
  if (operator === '!=' || operator === '<>') return `${name} IS NOT NULL`;
  params.push(floor);
  return `${name} ${operator.startsWith('>') ? '>' : '<='} CAST(? AS ${column.type})`;
}

function compareSql(column: Column, operator: Comparison, value: Literal, params: string[]): string {
  const cast = castValue(column, value, params);
  if (cast === null) return compareWithFraction(column, operator, value, params);
  return `${columnSql(column)} ${operator === '!=' ? '<>' : operator} ${cast}`;
}

function columnSql(column: Column): string {
  // enums and UUIDs compare by their text, like the strings they show as (DuckDB has no order
  // between a UUID and a string, so `<` on one would not bind)
  return /^(ENUM\(|UUID$)/.test(column.type) ? `CAST(${quoteName(column.name)} AS VARCHAR)` : quoteName(column.name);
}

/** The column as text for LIKE: bytes as the `0x` hex they show as, matched in any case. */
function likeSql(column: Column): string {
  if (storedKind(column) === 'binary') return `('0x' || lower(hex(${quoteName(column.name)}))) ILIKE ?`;
  return `CAST(${quoteName(column.name)} AS VARCHAR) LIKE ?`;
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
      // a fraction is in no list of whole numbers
      const values = filter.values.map((v) => castValue(column, v, params)).filter((v) => v !== null);
      return values.length === 0 ? 'FALSE' : `${columnSql(column)} IN (${values.join(', ')})`;
    }
    case 'like': {
      const column = resolveColumn(filter.column, columns, 'filters');
      params.push(filter.pattern.text);
      return likeSql(column);
    }
    case 'is-null': {
      const column = resolveColumn(filter.column, columns, 'filters');
      return `${quoteName(column.name)} IS ${filter.negated ? 'NOT ' : ''}NULL`;
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
  const prefix = source === undefined ? '' : `${quoteName(source)}.`;
  return terms
    .map((t) => `${prefix}${quoteName(resolveColumn(t.column, columns, 'sort_by').name)} ${t.direction.toUpperCase()}`)
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
