import { fail, type Failure } from '../../contract/index.ts';
import { FilterLanguageError, parseColumns, parseFilters, parseSort } from '../../filter-language/index.ts';
import type { ResultView } from '../service-client/index.ts';

// The `filters` / `sort_by` / `columns` of a request, and how a mistake in them is answered: a
// `bad_request` whose details say which part and where, from the shared parser or the service.

const given = (text: string | undefined): string | undefined => (text === undefined || text.trim() === '' ? undefined : text);

export function viewOf(request: { filters?: string; sortBy?: string; columns?: string }): ResultView {
  return { filters: given(request.filters), sortBy: given(request.sortBy), columns: given(request.columns) };
}

export function isEmptyView(view: ResultView): boolean {
  return view.filters === undefined && view.sortBy === undefined && view.columns === undefined;
}

export function languageFailure(error: FilterLanguageError): Failure {
  return fail('bad_request', error.message, { part: error.part, position: error.position });
}

/** Syntax is checked here before anything is sent; whether the columns exist is the answerer's to say. */
export function checkSyntax(view: ResultView): Failure | null {
  try {
    if (view.filters !== undefined) parseFilters(view.filters);
    if (view.sortBy !== undefined) parseSort(view.sortBy);
    if (view.columns !== undefined) parseColumns(view.columns);
    return null;
  } catch (error) {
    if (error instanceof FilterLanguageError) return languageFailure(error);
    throw error;
  }
}

/** The part and position of a refusal the service words like the shared parser does (`filters: … at position 7`). */
export function positionOf(message: string): { part: string; position: number } | undefined {
  const match = /^(filters|sort_by|columns): .* at position (\d+)$/s.exec(message);
  return match ? { part: match[1]!, position: Number(match[2]) } : undefined;
}
