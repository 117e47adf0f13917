import { compileFilters, compileSort, selectColumns, type BoundSql } from './compile.ts';
import { parseColumns, parseFilters, parseSort } from './parse.ts';
import type { Column } from './table-column.ts';

/** The three options of a result request as they arrive; empty or absent means "not given". */
export interface ResultRequest {
  filters?: string | null;
  sortBy?: string | null;
  columns?: string | null;
}

export interface CompiledRequest {
  columns: Column[];
  where: BoundSql | null;
  orderBy: string | null;
}

const given = (text: string | null | undefined): text is string => typeof text === 'string' && text.trim() !== '';

/**
 * Parses and compiles a request against a result's columns; throws FilterLanguageError when any
 * part is wrong. With `source`, the sort names the columns as that table's (see compileSort).
 */
export function compileResultRequest(request: ResultRequest, columns: Column[], source?: string): CompiledRequest {
  return {
    columns: given(request.columns) ? selectColumns(parseColumns(request.columns), columns) : columns,
    where: given(request.filters) ? compileFilters(parseFilters(request.filters), columns) : null,
    orderBy: given(request.sortBy) ? compileSort(parseSort(request.sortBy), columns, source) : null,
  };
}
