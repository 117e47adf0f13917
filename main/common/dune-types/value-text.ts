import { nestedPageColumns } from './page-columns.ts';

// How values of Dune's types read as text: the hosted service sends varbinary as `0x` + hex and
// big integers with every digit (as JSON numbers or strings); DuckDB writes a blob as escaped
// text (`\xDE\xAD` with printable bytes as they are). Both read to one form, never through a double.

const HEX_TEXT = /^0x([0-9a-fA-F]{2})*$/;
const INTEGER_TEXT = /^[-+]?\d+$/;
const DECIMAL_TEXT = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Binary text in Dune's form (`0x` + lower-case hex) from either service's text of it: `0x...`
 * hex in any case, or DuckDB's escaped text of a blob. Null when the text is neither.
 */
export function binaryText(text: string): string | null {
  if (HEX_TEXT.test(text)) return text.toLowerCase();
  let hex = '0x';
  for (let i = 0; i < text.length;) {
    if (text[i] === '\\') {
      const escaped = /^\\x([0-9a-fA-F]{2})/.exec(text.slice(i, i + 4));
      if (!escaped) return null;
      hex += escaped[1]!.toLowerCase();
      i += 4;
      continue;
    }
    const code = text.charCodeAt(i);
    // DuckDB escapes every byte outside printable ASCII
    if (code < 0x20 || code > 0x7e) return null;
    hex += code.toString(16).padStart(2, '0');
    i++;
  }
  return hex;
}

type SourceReviver = (this: unknown, key: string, value: unknown, context: { source?: string }) => unknown;

/** A number kept as the text it was written as (`JSON.rawJSON`): JSON.stringify writes it back as it was. */
export interface RawJsonNumber {
  readonly rawJSON: string;
}

// JSON's source-text API (Node 22, Chromium 114 and later); not yet in TypeScript's library.
const rawJson = JSON as unknown as {
  rawJSON?: (text: string) => RawJsonNumber;
  isRawJSON?: (value: unknown) => value is RawJsonNumber;
};

/** Digits a double holds exactly, whatever they are. */
export const DOUBLE_DIGITS = 15;

/** The digits of a number's text from its first to its last that is not 0, its exponent aside; in one pass, as every fraction on a page comes here. */
function significantDigits(text: string): number {
  let run = 0;
  let significant = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x65 || code === 0x45) break;
    if (code < 0x30 || code > 0x39 || (run === 0 && code === 0x30)) continue;
    run++;
    if (code !== 0x30) significant = run;
  }
  return significant;
}

/** Whether a number's text (digits, a sign, a point, an exponent) says more than a double can hold. */
function beyondDouble(text: string): boolean {
  if (INTEGER_TEXT.test(text)) return !Number.isSafeInteger(Number(text));
  return DECIMAL_TEXT.test(text) && significantDigits(text) > DOUBLE_DIGITS;
}

/**
 * A number's exact text as a cell: a number where a double holds it, else its text as it is.
 * The one rule for every way a number reaches a cell (the service's JSON, the cache).
 */
export function numberCell(text: string): number | string {
  return beyondDouble(text) ? text : Number(text);
}

// A number whose text a double cannot hold digit for digit is kept as that text.
const exactNumbers: SourceReviver = (_key, value, context) => {
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const source = context.source!;
  return beyondDouble(source) ? rawJson.rawJSON!(source) : value;
};

/** Whether a value of a page with these columns is one of its rows: an object with every column. */
function isRow(value: unknown, columns: string[]): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && columns.every((column) => Object.hasOwn(value, column));
}

/**
 * On a page with nested values: a number inside one is kept as the text it was written as wherever
 * JavaScript would write it otherwise (`-0.0`, `98.80`, `1.0E-5`), so that the nested value's cell
 * has every number as the service wrote it, as a CSV page of it does. A row's own cells are read
 * as on any page.
 */
function nestedExactNumbers(columns: string[]): SourceReviver {
  let row: unknown = null;
  return function (this: unknown, key, value, context) {
    if (typeof value !== 'number') return value;
    if (this !== row && isRow(this, columns)) row = this;
    if (this === row) return exactNumbers(key, value, context);
    const source = context.source!;
    return source === String(value) ? value : rawJson.rawJSON!(source);
  };
}

/** A parsed page with its own numbers (counts, metadata: all but its rows) as on any page, whatever their text. */
function outsideRows(value: unknown, columns: string[]): unknown {
  const text = numberText(value);
  if (text !== null) return beyondDouble(text) ? value : Number(text);
  if (typeof value !== 'object' || value === null || isRow(value, columns)) return value;
  // the list of rows
  if (Array.isArray(value) && isRow(value[0], columns)) return value;
  const holder = value as Record<string, unknown>;
  for (const key of Object.keys(holder)) holder[key] = outsideRows(holder[key], columns);
  return value;
}

// Whether this engine hands revivers the source text of values.
const SOURCE_TEXT = (() => {
  let seen = false;
  JSON.parse('1', ((_key: string, value: unknown, context?: { source?: string }) => {
    seen = context?.source === '1';
    return value;
  }) as Parameters<typeof JSON.parse>[1]);
  return seen && typeof rawJson.rawJSON === 'function';
})();

/**
 * JSON.parse that never rounds a value through a double: an integer past 2^53, or a decimal with
 * more digits than a double holds, comes back as a RawJsonNumber of its text as written (see
 * `numberText`); so does a number inside a nested value of a results page where JavaScript would
 * write it otherwise. JSON.stringify writes such numbers back unchanged. Throws on an engine that
 * cannot say how a number was written, rather than round it.
 */
export function parseJsonExact(text: string): unknown {
  if (!SOURCE_TEXT) throw new Error('this JavaScript engine cannot read JSON numbers exactly (it gives revivers no source text)');
  const columns = nestedPageColumns(text);
  if (columns === null) return JSON.parse(text, exactNumbers as Parameters<typeof JSON.parse>[1]);
  return outsideRows(JSON.parse(text, nestedExactNumbers(columns) as Parameters<typeof JSON.parse>[1]), columns);
}

/**
 * SQL: a nested value's JSON text as its cell from a JSON page has it (JSON.stringify of what
 * parseJsonExact read): no whitespace between its parts, every number and string as written. Text
 * that is not JSON is kept as it is.
 */
export function nestedTextSql(text: string): string {
  return String.raw`CASE WHEN json_valid(${text}) THEN regexp_replace(${text}, '("(?:[^"\\]|\\.)*")|\s+', '\1', 'g') ELSE ${text} END`;
}

/** The text of a number parseJsonExact kept as written; null for any other value. */
export function numberText(value: unknown): string | null {
  return rawJson.isRawJSON?.(value) ? value.rawJSON : null;
}
