import { readDecimal, writeDecimal } from './decimal-text.ts';
import { floatWord } from './float-values.ts';
import { kindOf } from './type-kind.ts';
import type { DuneType } from './type-name.ts';
import { binaryText } from './value-text.ts';

// A value's text for a spreadsheet: as the grid shows it (without thousands grouping), in forms
// Excel, LibreOffice and Google Sheets read as what they are. A decimal keeps its scale (98.80,
// not 98.8) and every digit, an integer every digit, a float the grid's text of it (the same
// double, laid out as JavaScript writes it), bytes are `0x` hex, and a timestamp is
// `YYYY-MM-DD HH:MM:SS.mmm` in UTC: ISO 8601's date and time joined by a space and without a zone,
// the one form all three read as a date and time (Excel keeps `…T…Z` as text).

const SERVICE_TIMESTAMP = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(?: UTC|Z|\+00(?::?00)?)?$/;

/** A timestamp as the services write it (`2024-01-01 00:00:00.000 UTC`) without its zone; other text as it is. */
export function spreadsheetTimestamp(text: string): string {
  const match = SERVICE_TIMESTAMP.exec(text);
  return match ? `${match[1]} ${match[2]}` : text;
}

// digits and maybe a point, with no leading zero to drop nor a negative zero
const PLAIN_NUMBER = /^(?!-?0\d)(?!-0(\.0*)?$)-?\d+(\.\d*)?$/;

/** A number's text with `scale` digits after the point, never through a double; other text as it is. */
export function decimalText(text: string, scale: number): string {
  // what services write nearly always: digits and a point, padded as they are
  if (PLAIN_NUMBER.test(text)) {
    const point = text.indexOf('.');
    const digits = point < 0 ? 0 : text.length - point - 1;
    if (scale === 0 && point < 0) return text;
    if (scale > 0 && digits <= scale) return `${text}${point < 0 ? '.' : ''}${'0'.repeat(scale - digits)}`;
  }
  const read = readDecimal(text);
  if (read === null) return text;
  const written = writeDecimal(read);
  if (scale === 0 || read.fraction.length >= scale) return written;
  return `${written}${read.fraction === '' ? '.' : ''}${'0'.repeat(scale - read.fraction.length)}`;
}

/**
 * SQL: decimalText of a DECIMAL expression. DuckDB's text of a DECIMAL has every digit of its
 * scale already, but no `0` before the point of a DECIMAL(p,p) (`.50`, `-.05`).
 */
export function decimalTextSql(decimal: string): string {
  return String.raw`regexp_replace(CAST(${decimal} AS VARCHAR), '^(-?)\.', '\10.')`;
}

// a number as services write a float: DuckDB's `8e-05` and `2.0`, Trino's `8.0E-5`
const FLOAT_TEXT = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A float's text as the grid shows it: the shortest digits that read back as the same double, as
 * JavaScript lays them out (`0.00008`, `2`, `8e-7`, `1e+21`); one that is no number as Dune writes
 * it (`NaN`, `-Infinity`, from `nan` or `-inf` too); other text as it is.
 */
export function floatText(text: string): string {
  return FLOAT_TEXT.test(text) ? String(Number(text)) : (floatWord(text) ?? text);
}

/**
 * The rewrite of one value's text for a column of this type; null for a type whose text stays as
 * the service wrote it (integers already have every digit).
 */
export function spreadsheetRewrite(type: DuneType): ((text: string) => string) | null {
  switch (kindOf(type)) {
    case 'timestamp':
      return spreadsheetTimestamp;
    case 'decimal': {
      const scale = type.params[1] ?? 0;
      return (text) => decimalText(text, scale);
    }
    case 'float':
      return floatText;
    case 'binary':
      return (text) => binaryText(text) ?? text;
    default:
      return null;
  }
}
