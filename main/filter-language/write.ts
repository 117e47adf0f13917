import { isNumeric, kindOf, parseType } from '../common/dune-types/index.ts';
import { quoteIdentifier, quoteLiteral } from '../common/sql-quote.ts';

// Writing the language, for requests made by code: the app's grid, a pivot's drill-down, and main
// asking the service.

const BARE_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const KEYWORDS = new Set(['and', 'or', 'not', 'in', 'like', 'is', 'null', 'asc', 'desc']);

/** `columns` takes names as written, quoted only when they hold a comma or a quote. */
export function columnsParam(names: string[]): string {
  return names.map((name) => (/[,"]/.test(name) || name === '' ? quoteIdentifier(name) : name)).join(',');
}

/** A column name for `filters` and `sort_by`: double-quoted unless it is a plain word. */
export function columnRef(name: string): string {
  return BARE_NAME.test(name) && !KEYWORDS.has(name.toLowerCase()) ? name : quoteIdentifier(name);
}

/** A cell as a value of the language: numbers as written, anything else (times, bytes, true) quoted. */
function valueText(type: string, value: string | number | boolean): string {
  return isNumeric(kindOf(parseType(type))) && typeof value !== 'boolean' ? String(value) : quoteLiteral(String(value));
}

/** The condition that keeps the rows whose column holds `value` (a cell as the service gives it). */
export function equalsCondition(name: string, type: string, value: string | number | boolean | null): string {
  return value === null ? `${columnRef(name)} is null` : `${columnRef(name)} = ${valueText(type, value)}`;
}

export type TimeUnit = 'minute' | 'hour' | 'day' | 'week' | 'month';

const TIME_CELL = /^(\d{4,})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?: UTC)?)?$/;

/** The start of the next `unit` after `start` (a date, or a time as the service writes one), written as `start` is. */
function nextStart(start: string, unit: TimeUnit): string | null {
  const parts = TIME_CELL.exec(start);
  if (!parts) return null;
  const [year, month, day, hour = 0, minute = 0, second = 0] = parts
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const at = new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second));
  if (unit === 'month') at.setUTCMonth(at.getUTCMonth() + 1);
  else at.setTime(at.getTime() + { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000 }[unit]);
  const iso = at.toISOString();
  return parts[4] === undefined ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/**
 * The condition that keeps the rows of a time column within the `unit` starting at `start` (a cell
 * of that column cut to the unit); null when `start` is not a time the language can bound.
 */
export function withinCondition(name: string, start: string, unit: TimeUnit): string | null {
  const end = nextStart(start, unit);
  if (end === null) return null;
  const ref = columnRef(name);
  return `${ref} >= ${quoteLiteral(start.replace(/ UTC$/, ''))} and ${ref} < ${quoteLiteral(end)}`;
}
