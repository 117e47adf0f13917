import type { ColumnRef, Filter, Literal, SortTerm } from './ast.ts';
import { FilterLanguageError, type LanguagePart } from './errors.ts';
import { checkValue } from './value-types.ts';

/** A column of the table a request is answered from, with its DuckDB type name. */
export interface Column {
  name: string;
  type: string;
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

/**
 * A value compared with a column is cast to the column's type, so strings compare with dates and
 * numbers as DuckDB would convert them; timestamps as the results show them (`… UTC`) are read back.
 */
function castValue(column: Column, value: Literal, params: string[]): string {
  checkValue(column, value);
  let text = value.text;
  if (TIMESTAMP.test(column.type)) text = text.replace(/ UTC$/, '');
  params.push(text);
  const type = TEXT_LIKE.test(column.type) ? 'VARCHAR' : column.type;
  return `CAST(? AS ${type})`;
}

function columnSql(column: Column): string {
  // enums and UUIDs compare by their text, like the strings they show as (DuckDB has no order
  // between a UUID and a string, so `<` on one would not bind)
  return /^(ENUM\(|UUID$)/.test(column.type) ? `CAST(${quoteName(column.name)} AS VARCHAR)` : quoteName(column.name);
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
      const operator = filter.operator === '!=' ? '<>' : filter.operator;
      return `${columnSql(column)} ${operator} ${castValue(column, filter.value, params)}`;
    }
    case 'in': {
      const column = resolveColumn(filter.column, columns, 'filters');
      const values = filter.values.map((v) => castValue(column, v, params));
      return `${columnSql(column)} IN (${values.join(', ')})`;
    }
    case 'like': {
      const column = resolveColumn(filter.column, columns, 'filters');
      params.push(filter.pattern.text);
      return `CAST(${quoteName(column.name)} AS VARCHAR) LIKE ?`;
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

/** ORDER BY terms for the sort, every column checked against `columns`. */
export function compileSort(terms: SortTerm[], columns: Column[]): string {
  return terms
    .map((t) => `${quoteName(resolveColumn(t.column, columns, 'sort_by').name)} ${t.direction.toUpperCase()}`)
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
