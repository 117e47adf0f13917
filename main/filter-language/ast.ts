// The parsed form of `filters`, `sort_by` and `columns`. Positions are 1-based character offsets
// in the text they came from, so every later error can point at its source.

export interface ColumnRef {
  name: string;
  position: number;
}

export interface Literal {
  kind: 'string' | 'number';
  /** The value's text: a string without its quotes, a number as written. */
  text: string;
  position: number;
}

export const COMPARISONS = ['=', '!=', '<>', '<', '<=', '>', '>='] as const;
export type Comparison = (typeof COMPARISONS)[number];

export type Filter =
  | { kind: 'and' | 'or'; left: Filter; right: Filter }
  | { kind: 'compare'; column: ColumnRef; operator: Comparison; value: Literal }
  | { kind: 'in'; column: ColumnRef; values: Literal[] }
  | { kind: 'like'; column: ColumnRef; pattern: Literal }
  | { kind: 'is-null'; column: ColumnRef; negated: boolean };

export interface SortTerm {
  column: ColumnRef;
  direction: 'asc' | 'desc';
}
