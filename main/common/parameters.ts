// `{{name}}` is the service's parameter syntax. The service substitutes it, the editor marks it and
// maps error positions through it, and the parameter form offers the names it finds: one pattern,
// so all of them agree on what a placeholder is.

/**
 * A `{{name}}` placeholder; group 1 is the name, without the spaces around it. Global, so give
 * `matchAll`/`replace` this one and a stateful user (`exec` in a loop) its own `new RegExp(...)`.
 */
export const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** The names of the SQL's placeholders, each once, in the order they first appear. */
export function placeholderNames(sql: string): string[] {
  return [...new Set(Array.from(sql.matchAll(PLACEHOLDER), (m) => m[1]!))];
}
