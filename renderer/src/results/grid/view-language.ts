import type { ColDef, FilterModel, SortModelItem } from 'ag-grid-community';
import { isNumeric, type TypeKind } from '../../../../main/common/dune-types/index.ts';
import { quoteLiteral } from '../../../../main/common/sql-quote.ts';
import { columnRef } from '../../../../main/filter-language/index.ts';

// The grid's sort and filter models written in the service's `sort_by` / `filters` / `columns`
// language, so the same request works against the service and the cache.

/** A column of the result, by its position in the result's own column list. */
export interface ViewColumn {
  name: string;
  type: string;
  index: number;
}

export { columnRef, columnsParam } from '../../../../main/filter-language/index.ts';

const TEXT_OPTIONS = { filterOptions: ['contains', 'equals', 'startsWith'], maxNumConditions: 1 };
const SCALAR_OPTIONS = { filterOptions: ['equals', 'lessThan', 'greaterThan', 'inRange'], maxNumConditions: 1 };

/**
 * Filters the language can express for the kind; the grid only collects them, main applies them.
 * Whole numbers take the BigInt filter, whose model keeps the typed digits as text: the number
 * filter reads them into a double, and `> 9007199254740993` became `> 9007199254740992`.
 */
export function filterFor(kind: TypeKind): Pick<ColDef, 'filter' | 'filterParams'> {
  if (kind === 'integer' || kind === 'big-integer') return { filter: 'agBigIntColumnFilter', filterParams: SCALAR_OPTIONS };
  if (isNumeric(kind)) return { filter: 'agNumberColumnFilter', filterParams: SCALAR_OPTIONS };
  if (kind === 'date' || kind === 'timestamp') return { filter: 'agDateColumnFilter', filterParams: SCALAR_OPTIONS };
  return { filter: 'agTextColumnFilter', filterParams: TEXT_OPTIONS };
}

export function sortByParam(model: SortModelItem[], byId: Map<string, ViewColumn>): string {
  return model
    .flatMap((item) => {
      const column = byId.get(item.colId);
      return column && item.sort ? [`${columnRef(column.name)} ${item.sort}`] : [];
    })
    .join(', ');
}

/** LIKE's own wildcards in a typed value match themselves only approximately: the language has no ESCAPE. */
function textCondition(ref: string, type: string | null | undefined, value: string): string | null {
  switch (type) {
    case 'contains':
      return `${ref} LIKE ${quoteLiteral(`%${value}%`)}`;
    case 'startsWith':
      return `${ref} LIKE ${quoteLiteral(`${value}%`)}`;
    case 'equals':
      return `${ref} = ${quoteLiteral(value)}`;
    default:
      return null;
  }
}

const WHOLE_NUMBER = /^-?\d+$/;

/**
 * A number filter's value as the language reads it: a double as JS writes it, or a BigInt
 * filter's digits as they were typed, so the comparison is as exact as the typed filter bar's.
 */
function numberLiteral(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  return typeof value === 'string' && WHOLE_NUMBER.test(value) ? value : null;
}

function numberCondition(ref: string, type: string | null | undefined, from: unknown, to: unknown): string | null {
  const a = numberLiteral(from);
  if (a === null) return null;
  switch (type) {
    case 'equals':
      return `${ref} = ${a}`;
    case 'lessThan':
      return `${ref} < ${a}`;
    case 'greaterThan':
      return `${ref} > ${a}`;
    case 'inRange': {
      const b = numberLiteral(to);
      return b === null ? null : `(${ref} >= ${a} AND ${ref} <= ${b})`;
    }
    default:
      return null;
  }
}

/** The day after a `YYYY-MM-DD…` date, as `YYYY-MM-DD`. */
function nextDay(date: string): string {
  const day = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** Dates are whole days, so they match every timestamp within the day (inRange includes both ends). */
function dateCondition(
  ref: string,
  type: string | null | undefined,
  from: string | null | undefined,
  to: string | null | undefined,
): string | null {
  if (!from) return null;
  const day = from.slice(0, 10);
  switch (type) {
    case 'equals':
      return `(${ref} >= ${quoteLiteral(day)} AND ${ref} < ${quoteLiteral(nextDay(day))})`;
    case 'lessThan':
      return `${ref} < ${quoteLiteral(day)}`;
    case 'greaterThan':
      return `${ref} >= ${quoteLiteral(nextDay(day))}`;
    case 'inRange':
      return to ? `(${ref} >= ${quoteLiteral(day)} AND ${ref} < ${quoteLiteral(nextDay(to))})` : null;
    default:
      return null;
  }
}

interface Condition {
  filterType?: string;
  type?: string | null;
  filter?: unknown;
  filterTo?: unknown;
  dateFrom?: string | null;
  dateTo?: string | null;
}

function condition(ref: string, model: Condition): string | null {
  if (model.filterType === 'text') return typeof model.filter === 'string' ? textCondition(ref, model.type, model.filter) : null;
  if (model.filterType === 'number' || model.filterType === 'bigint') return numberCondition(ref, model.type, model.filter, model.filterTo);
  if (model.filterType === 'date') return dateCondition(ref, model.type, model.dateFrom, model.dateTo);
  return null;
}

function columnFilter(ref: string, model: Condition & { operator?: string; conditions?: Condition[] }): string | null {
  if (!model.conditions) return condition(ref, model);
  const parts = model.conditions.map((c) => condition(ref, c)).filter((c): c is string => c !== null);
  if (parts.length <= 1) return parts[0] ?? null;
  return `(${parts.join(model.operator === 'OR' ? ' OR ' : ' AND ')})`;
}

export function filtersParam(model: FilterModel, byId: Map<string, ViewColumn>): string {
  return Object.entries(model)
    .flatMap(([colId, item]) => {
      const column = byId.get(colId);
      const text = column ? columnFilter(columnRef(column.name), item as Condition) : null;
      return text ? [text] : [];
    })
    .join(' AND ');
}

/** Both sources of filters at once: what the user typed, and the columns' own filters. */
export function combineFilters(...parts: string[]): string {
  const given = parts.map((p) => p.trim()).filter((p) => p !== '');
  return given.length === 1 ? given[0]! : given.map((p) => `(${p})`).join(' AND ');
}
