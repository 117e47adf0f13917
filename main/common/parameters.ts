// `{{name}}` is the service's parameter syntax. The service substitutes it, the editor marks it and
// maps error positions through it, and the parameter form offers the names it finds: one pattern,
// so all of them agree on what a placeholder is. Below it, what a value of each type may be.

/**
 * A `{{name}}` placeholder; group 1 is the name, without the spaces around it. Global, so give
 * `matchAll`/`replace` this one and a stateful user (`exec` in a loop) its own `new RegExp(...)`.
 */
export const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** The names of the SQL's placeholders, each once, in the order they first appear. */
export function placeholderNames(sql: string): string[] {
  return [...new Set(Array.from(sql.matchAll(PLACEHOLDER), (m) => m[1]!))];
}

/** A number parameter's value: digits, maybe a sign, a point and an exponent. */
export const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** `YYYY-MM-DD HH:MM[:SS]`, with a space or a T, as the service and the date-time picker write it. */
export const DATETIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:\d{2})?/;

/**
 * What is wrong with a value for a parameter of this type, in words for beside its field; null
 * when it can be sent. The parameter form checks what is typed by it, and main a parameter set's
 * values before it keeps them.
 */
export function problemOf(field: { type: string }, value: string | string[] | undefined): string | null {
  if (Array.isArray(value)) return value.length === 0 ? 'Choose at least one value.' : null;
  const text = (value ?? '').trim();
  switch (field.type) {
    case 'number':
      return NUMBER.test(text) ? null : text ? `“${text}” is not a number. Enter digits, such as 42 or 0.5.` : 'Enter a number.';
    case 'datetime':
      return DATETIME.test(text) ? null : 'Pick a date and time.';
    case 'enum':
      return text ? null : 'Choose a value.';
    default:
      return textProblem(value ?? '');
  }
}

/**
 * A text value goes into the SQL as it is, most often between quotes (`'{{name}}'`): an empty one
 * is almost always a value forgotten, and a lone `'` ends those quotes early.
 */
function textProblem(text: string): string | null {
  if (text.trim() === '') return 'Enter a value.';
  if (/'/.test(text.replaceAll("''", ''))) return "A ' ends the quotes around the value in the SQL: write it twice ('') to keep it.";
  return null;
}
