// The `filters` / `sort_by` / `columns` language of result requests: parsed to an AST with
// positioned errors, then compiled to DuckDB SQL against a known set of columns. Shared by the
// embedded service and the app's result cache, so both answer a request the same way.
export type { ColumnRef, Comparison, Filter, Literal, SortTerm } from './ast.ts';
export { FilterLanguageError, type LanguagePart } from './errors.ts';
export { MAX_FILTER_NESTING, parseColumns, parseFilters, parseSort } from './parse.ts';
export { compileFilters, compileSort, resolveColumn, selectColumns, type BoundSql } from './compile.ts';
export type { Column } from './table-column.ts';
export { columnRef, columnsParam, equalsCondition, withinCondition, type TimeUnit } from './write.ts';
export { compileResultRequest, type ResultRequest, type CompiledRequest } from './result-request.ts';
