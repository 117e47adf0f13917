import type { CellValue } from '$contract/index.ts';
import {
  binaryText,
  decimalText,
  floatWord,
  isNumeric,
  kindOf,
  parseType,
  readDecimal,
  writeDecimal,
  type TypeKind,
} from '../../../../main/common/dune-types/index.ts';

// Cells as their column's kind says. Numbers are written from their text (a DECIMAL's digits, an
// integer past 2^53 that the service sends as a string, a number's shortest text that reads back
// as it), never through arithmetic that would round them; separators are put between the digits
// of that text. A double that is no number reads as Dune writes it (`NaN`, `-Infinity`), whichever
// spelling a service sent. Bytes read as 0x hex, whichever service sent them (DuckDB's escaped text
// of a blob included).

export interface NumberStyle {
  /** Thousands separators and the decimal sign of the OS's locale; off: digits and a point only. */
  grouping: boolean;
  locale?: string;
}

// a plain number's text: digits and maybe a point (not an exponent, NaN or Infinity)
const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

export type CellFormat = (value: CellValue | undefined) => string;

/** What a column of this type holds, as the shared type system reads the service's name for it. */
export function columnKind(type: string): TypeKind {
  return kindOf(parseType(type));
}

/** Integer columns hold raw token amounts: those may be scaled by a number of decimals. */
export function isScalable(kind: TypeKind): boolean {
  return kind === 'integer' || kind === 'big-integer';
}

/** The scale of a DECIMAL(p, s) type; null for any other type. */
export function decimalScale(type: string): number | null {
  const parsed = parseType(type);
  return kindOf(parsed) === 'decimal' ? (parsed.params[1] ?? 0) : null;
}

/** `decimals`: an integer column's values divided by 10^decimals, exactly (a token amount in whole tokens). */
export function cellFormat(type: string, style: NumberStyle, decimals = 0): CellFormat {
  const kind = columnKind(type);
  const scale = decimalScale(type);
  const shift = isScalable(kind) ? decimals : 0;
  const separators = style.grouping ? localeSeparators(style.locale) : null;
  return (value) => {
    if (value === null) return 'null';
    if (value === undefined) return '';
    if (typeof value === 'boolean') return String(value);
    if (kind === 'binary') return typeof value === 'string' ? (binaryText(value) ?? value) : String(value);
    if (!isNumeric(kind)) return String(value);
    let text = String(value);
    if (scale !== null) text = decimalText(text, scale);
    if (kind === 'float') text = floatWord(text) ?? text;
    if (shift > 0) text = shifted(text, shift);
    return separators ? group(text, separators) : text;
  };
}

function shifted(text: string, decimals: number): string {
  const read = readDecimal(text, -decimals);
  return read ? writeDecimal(read) : text;
}

interface Separators {
  group: string;
  decimal: string;
}

function localeSeparators(locale: string | undefined): Separators {
  const parts = new Intl.NumberFormat(locale).formatToParts(1234567.5);
  return {
    group: parts.find((part) => part.type === 'group')?.value ?? ',',
    decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
  };
}

function group(text: string, separators: Separators): string {
  const match = PLAIN.exec(text);
  if (!match) return text; // an exponent, NaN or Infinity reads as it is
  const [, sign, whole, fraction] = match;
  const grouped = whole!.replace(/\B(?=(\d{3})+$)/g, separators.group);
  return `${sign}${grouped}${fraction === undefined ? '' : `${separators.decimal}${fraction}`}`;
}
