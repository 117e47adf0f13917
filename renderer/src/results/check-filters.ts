import type { ContractError } from '$contract/index.ts';
import { compileFilters, FilterLanguageError, parseFilters, type Column } from '../../../main/filter-language/index.ts';

export interface FilterProblem {
  message: string;
  /** 1-based character position in the text; null when the refusal named none. */
  position: number | null;
}

/** The shared parser's verdict on a typed `filters` text, columns checked too; null when it may be sent. */
export function checkFilters(text: string, columns: Column[]): FilterProblem | null {
  if (text.trim() === '') return null;
  try {
    compileFilters(parseFilters(text), columns);
    return null;
  } catch (error) {
    if (error instanceof FilterLanguageError) return { message: error.message, position: error.position };
    throw error;
  }
}

/**
 * The refusal of a request's filters as a problem of the typed text: a position moved back over
 * the parenthesis that joins it to the grid's column filters. Null when the refusal is of another
 * part, or at a position on the column filters' side.
 */
export function refusedFilter(error: ContractError, typed: string, gridFilters: string): FilterProblem | null {
  if (error.code !== 'bad_request' || !error.message.startsWith('filters: ')) return null;
  const given = (error.details as { position?: unknown } | undefined)?.position;
  if (typeof given !== 'number') return { message: error.message, position: null };
  const position = gridFilters.trim() === '' ? given : given - 1;
  return position >= 1 && position <= typed.length ? { message: error.message, position } : null;
}
