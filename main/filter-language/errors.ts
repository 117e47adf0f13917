export type LanguagePart = 'filters' | 'sort_by' | 'columns';

/** A refusal of a `filters`, `sort_by` or `columns` text, with the 1-based character position it concerns. */
export class FilterLanguageError extends Error {
  readonly part: LanguagePart;
  readonly position: number;

  constructor(part: LanguagePart, position: number, problem: string) {
    super(`${part}: ${problem} at position ${position}`);
    this.part = part;
    this.position = position;
  }
}
