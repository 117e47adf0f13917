// Exact arithmetic on a number's text, for values no double holds (uint256 amounts, decimal(38,18)):
// moving the decimal point (a raw token amount scaled by its decimals) and rounding down to a
// whole number (a filter's `amount > 1.5` on an integer column). Never through a double.

export interface DecimalText {
  negative: boolean;
  /** The digits before the point, without leading zeros ('0' for none). */
  whole: string;
  /** The digits after the point, without trailing zeros ('' for none). */
  fraction: string;
}

const NUMBER_TEXT = /^([-+]?)(\d*)(?:\.(\d*))?(?:e([-+]?\d+))?$/i;
// An exponent past this is refused rather than written out digit by digit.
const MAX_EXPONENT = 1000;

/** A number's text (`-12.5`, `1e18`, `.5`, ` +3 `) read exactly, its point moved by `shift` places; null if it is not one. */
export function readDecimal(text: string, shift = 0): DecimalText | null {
  const match = NUMBER_TEXT.exec(text.trim());
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  if (whole === '' && fraction === '') return null;
  const moved = Number(exponent) + shift;
  if (Math.abs(moved) > MAX_EXPONENT) return null;
  const digits = whole + fraction;
  const point = whole.length + moved;
  let before: string;
  let after: string;
  if (point <= 0) [before, after] = ['', '0'.repeat(-point) + digits];
  else if (point >= digits.length) [before, after] = [digits + '0'.repeat(point - digits.length), ''];
  else [before, after] = [digits.slice(0, point), digits.slice(point)];
  before = before.replace(/^0+/, '') || '0';
  after = after.replace(/0+$/, '');
  return { negative: sign === '-' && (before !== '0' || after !== ''), whole: before, fraction: after };
}

/** The text of a read number: `-12.5`, `1000`, `0.000001`. */
export function writeDecimal(value: DecimalText): string {
  return `${value.negative ? '-' : ''}${value.whole}${value.fraction ? `.${value.fraction}` : ''}`;
}

/** The largest whole number not above the value, as text, and whether the value was whole. */
export function floorDecimal(value: DecimalText): { floor: string; whole: boolean } {
  if (value.fraction === '') return { floor: writeDecimal(value), whole: true };
  const floor = value.negative ? `-${BigInt(value.whole) + 1n}` : value.whole;
  return { floor, whole: false };
}

/** -1, 0 or 1 as `a` is below, equal to or above `b`, digit by digit. */
export function compareDecimal(a: DecimalText, b: DecimalText): number {
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  if (a.whole.length !== b.whole.length) return sign * (a.whole.length < b.whole.length ? -1 : 1);
  const width = Math.max(a.fraction.length, b.fraction.length);
  const left = a.whole + a.fraction.padEnd(width, '0');
  const right = b.whole + b.fraction.padEnd(width, '0');
  return left === right ? 0 : sign * (left < right ? -1 : 1);
}

// readDecimal's pattern, for DuckDB's regular expressions (RE2)
const NUMBER_TEXT_SQL = String.raw`^\s*([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?\s*$`;
// lambda parameters, named as no result's column is: DuckDB would take such a column for one
const READ = '__querydesk_read';
const SHIFTED = '__querydesk_shifted';
const PADDED = '__querydesk_padded';
const PARTS = '__querydesk_parts';

/** SQL: `body`, in which `name` stands for `value`, computed once (DuckDB has no LET; a lambda has parameters). */
function bind(value: string, name: string, body: string): string {
  return `list_transform([${value}], lambda ${name}: ${body})[1]`;
}

/**
 * SQL: writeDecimal(readDecimal(text)) of a VARCHAR expression, the number's plain digits (`3.1E-5`
 * as `0.000031`), exactly; NULL where readDecimal reads none, and where the number has more digits
 * after the point than `scale`, if given.
 */
export function plainDecimalSql(text: string, scale?: number): string {
  const read = `regexp_extract(${text}, '${NUMBER_TEXT_SQL}', ['sign', 'whole', 'fraction', 'exponent'])`;
  const exponent = `TRY_CAST(CASE ${READ}.exponent WHEN '' THEN '0' ELSE ${READ}.exponent END AS INTEGER)`;
  const none = `(${READ}.whole = '' AND ${READ}.fraction = '') OR coalesce(abs(${exponent}) > ${MAX_EXPONENT}, true)`;
  const shifted = `{'digits': ${READ}.whole || ${READ}.fraction, 'point': length(${READ}.whole) + ${exponent}}`;
  // the digits with zeros on either side, so that the point falls after the first `at` of them
  const padded = `repeat('0', greatest(0, -${SHIFTED}.point)) || ${SHIFTED}.digits || repeat('0', greatest(0, ${SHIFTED}.point - length(${SHIFTED}.digits)))`;
  const at = `greatest(${SHIFTED}.point, 0)`;
  const parts = `{'before': coalesce(nullif(ltrim(left(${PADDED}, ${at}), '0'), ''), '0'), 'after': rtrim(substr(${PADDED}, ${at} + 1), '0')}`;
  const sign = `CASE WHEN ${READ}.sign = '-' AND (${PARTS}.before <> '0' OR ${PARTS}.after <> '') THEN '-' ELSE '' END`;
  const written = `${sign} || ${PARTS}.before || CASE WHEN ${PARTS}.after = '' THEN '' ELSE '.' || ${PARTS}.after END`;
  const kept = scale === undefined ? written : `CASE WHEN length(${PARTS}.after) <= ${scale} THEN ${written} END`;
  return bind(read, READ, `CASE WHEN ${none} THEN NULL ELSE ${bind(shifted, SHIFTED, bind(padded, PADDED, bind(parts, PARTS, kept)))} END`);
}
