import { columnKind } from './grid/cell-format.ts';
import { columnRef, type ViewColumn } from './grid/view-language.ts';

// The filter bar's placeholder shows the language on the result's own columns: an example naming
// columns the result does not have would be refused as typed.

/** A condition the column's type accepts, or null for a kind with no short example. */
function conditionOn(column: ViewColumn): { text: string; isText: boolean } | null {
  const ref = columnRef(column.name);
  switch (columnKind(column.type)) {
    case 'text':
      return { text: `${ref} = 'abc'`, isText: true };
    case 'integer':
    case 'big-integer':
    case 'decimal':
    case 'float':
      return { text: `${ref} > 100`, isText: false };
    case 'date':
    case 'timestamp':
      return { text: `${ref} >= '2024-01-31'`, isText: false };
    default:
      return null;
  }
}

/** One text and one other condition when the columns allow it, joined as a person would type them. */
export function filterExample(columns: ViewColumn[]): string | null {
  const conditions = columns.map(conditionOn).filter((c) => c !== null);
  const text = conditions.find((c) => c.isText);
  const other = conditions.find((c) => !c.isText);
  const chosen = [text, other].filter((c) => c !== undefined).map((c) => c.text);
  if (chosen.length > 0) return chosen.join(' AND ');
  return columns[0] === undefined ? null : `${columnRef(columns[0].name)} IS NULL`;
}

export function filterPlaceholder(columns: ViewColumn[]): string {
  const example = filterExample(columns);
  return example === null ? 'Filter rows   (Enter applies)' : `Filter: ${example}   (Enter applies)`;
}
