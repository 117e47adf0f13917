import { compileFilters, FilterLanguageError, parseFilters, type Column } from '../../../main/filter-language/index.ts';

export interface FilterProblem {
  message: string;
  /** 1-based character position in the text. */
  position: number;
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
