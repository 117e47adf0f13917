import type { CellValue } from '../../../../main/contract/index.ts';

// Cells as their column's type says. Numbers are written from their text (a DECIMAL's digits, an
// integer past 2^53 that the service sends as a string), never through arithmetic that would round
// them; separators are put between the digits of that text.

export interface NumberStyle {
  /** Thousands separators and the decimal sign of the OS's locale; off: digits and a point only. */
  grouping: boolean;
  locale?: string;
}

const DECIMAL = /^(decimal|numeric)\s*\(\s*\d+\s*,\s*(\d+)\s*\)/i;
const INTEGER = /^(u?(tiny|small|big|huge)?int(eger)?\d*|u?int\d+)\b/i;
const FLOAT = /^(double|real|float\d*)\b/i;
// what toFixed and String give a finite number: digits, maybe a point, maybe an exponent
const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

export type CellFormat = (value: CellValue | undefined) => string;

/** The scale of a DECIMAL(p, s) type; null for any other type. */
export function decimalScale(type: string): number | null {
  const match = DECIMAL.exec(type.trim());
  return match ? Number(match[2]) : null;
}

export function cellFormat(type: string, style: NumberStyle): CellFormat {
  const scale = decimalScale(type);
  const numeric = scale !== null || INTEGER.test(type.trim()) || FLOAT.test(type.trim());
  const separators = style.grouping ? localeSeparators(style.locale) : null;
  return (value) => {
    if (value === null) return 'null';
    if (value === undefined) return '';
    if (!numeric || typeof value === 'boolean') return String(value);
    let text = typeof value === 'number' ? (scale !== null && Math.abs(value) < 1e21 ? value.toFixed(scale) : String(value)) : value;
    if (scale !== null) text = padScale(text, scale);
    return separators ? group(text, separators) : text;
  };
}

function padScale(text: string, scale: number): string {
  const match = PLAIN.exec(text);
  if (!match || scale === 0) return text;
  const [, sign, whole, fraction = ''] = match;
  return fraction.length >= scale ? text : `${sign}${whole}.${fraction.padEnd(scale, '0')}`;
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
