import { isStructured, kindOf } from './type-kind.ts';
import { parseType } from './type-name.ts';

// What a results page's text says of its columns, read before the page is parsed, so that a page
// of flat values is parsed as lean as ever: whether a column may hold nested values (an array, a
// map, a row, JSON, or a type no rule here knows). The service writes the metadata after the rows:
// it is looked for from the end.

// `:` and a JSON list of strings, from where a key ends
const STRING_LIST = /\s*:\s*(\[\s*(?:"(?:[^"\\]|\\.)*"\s*(?:,\s*"(?:[^"\\]|\\.)*"\s*)*)?\])/y;

function listOf(text: string, key: string): string[] | null {
  const at = text.lastIndexOf(`"${key}"`);
  if (at < 0) return null;
  STRING_LIST.lastIndex = at + key.length + 2;
  const match = STRING_LIST.exec(text);
  return match ? (JSON.parse(match[1]!) as string[]) : null;
}

function mayNest(type: string): boolean {
  const kind = kindOf(parseType(type));
  return isStructured(kind) || kind === 'unknown';
}

/** The column names of a results page that has a column which may hold nested values; null for any other text. */
export function nestedPageColumns(text: string): string[] | null {
  const types = listOf(text, 'column_types');
  if (types === null || !types.some(mayNest)) return null;
  const names = listOf(text, 'column_names');
  return names !== null && names.length === types.length ? names : null;
}
