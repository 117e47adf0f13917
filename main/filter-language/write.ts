import { quoteIdentifier } from '../common/sql-quote.ts';

// Writing the language, for requests made by code: the app's grid, and main asking the service.

/** `columns` takes names as written, quoted only when they hold a comma or a quote. */
export function columnsParam(names: string[]): string {
  return names.map((name) => (/[,"]/.test(name) || name === '' ? quoteIdentifier(name) : name)).join(',');
}
