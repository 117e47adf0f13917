// The type of an uploaded CSV's column (notes §9: "Schema is inferred"), from every value of it:
// the narrowest type that holds each value exactly as written, else text. A whole number keeps
// every digit (past bigint in a wider integer); a double is taken only where each value is the
// double it names; `007`, `+5` and ` 5` stay text, as a number would lose how they are written; a
// date or a timestamp must be ISO 8601 as the service reads it. The embedded service applies this
// rule in DuckDB's SQL over the whole file (main/service/tables/csv-types.ts), the upload form in
// TypeScript as it reads the file, and its types become the schema of a table made in parts; so
// both read the patterns, the forms and the choice of type from here, and a test runs both on the
// same columns (test/integration/common/csv-column-types.test.ts).

/** The types an uploaded column may get, as Dune names them: its tables list and its create's schema. */
export const CSV_COLUMN_TYPES = ['varchar', 'bigint', 'int256', 'uint256', 'double', 'boolean', 'date', 'timestamp'] as const;
export type CsvColumnType = (typeof CSV_COLUMN_TYPES)[number];

/** Each value's form, a bit each, OR-ed over the column. */
export const FORM = {
  /** a whole number BIGINT holds */
  BIGINT_WHOLE: 1,
  /** a whole number past BIGINT */
  WIDE_WHOLE: 2,
  FRACTION: 4,
  DATE: 8,
  TIMESTAMP: 16,
  BOOLEAN: 32,
  OTHER: 64,
  /** with a number's form: no double holds it exactly (a whole number past 2^53 is taken for one) */
  NOT_DOUBLE: 128,
} as const;

const DAY = '[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])';
// DuckDB reads an offset only after the seconds, and then with no space before it but before UTC
const OFFSET = '(Z| UTC|[-+]([01][0-9]|2[0-3])(:?[0-5][0-9])?)';

/**
 * The forms of a value's text, each matched against the whole of it, in what JavaScript's RegExp
 * and DuckDB's RE2 read alike. Its digits as JSON writes a number: no `+`, no leading zero. The
 * hour is 00 to 23 and the fraction of a second to the microsecond (zeros past it aside), which a
 * TIMESTAMP holds.
 */
export const VALUE_PATTERNS = {
  whole: '-?(0|[1-9][0-9]*)',
  number: '-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?',
  date: DAY,
  timestamp: `${DAY}[T ]([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,6}0*)?${OFFSET}?)?`,
} as const;

/** A boolean's words, in any case. */
export const BOOLEAN_WORDS = ['true', 'false'] as const;

/** DuckDB's types a CSV column is made with, and the Dune name the service lists each by. */
export const DUNE_NAME_OF = {
  BIGINT: 'bigint',
  HUGEINT: 'int256',
  UHUGEINT: 'uint256',
  // DuckDB's integer of any width: no Dune type is wider than int256
  BIGNUM: 'int256',
  DOUBLE: 'double',
  DATE: 'date',
  TIMESTAMP: 'timestamp',
  BOOLEAN: 'boolean',
  VARCHAR: 'varchar',
} as const satisfies Record<string, CsvColumnType>;
export type CsvDuckdbType = keyof typeof DUNE_NAME_OF;

/** Whether every form in `forms` is one of `allowed`. */
const only = (forms: number, allowed: number) => (forms & ~allowed) === 0;

/**
 * The types a column of these forms may have, narrowest first, the first that holds each of its
 * values to be taken (VARCHAR when none does); none for text.
 */
export function candidates(forms: number): CsvDuckdbType[] {
  const numbers = forms & ~FORM.NOT_DOUBLE;
  if (forms === 0) return [];
  if (only(numbers, FORM.BIGINT_WHOLE)) return ['BIGINT'];
  if (only(numbers, FORM.BIGINT_WHOLE | FORM.WIDE_WHOLE)) return ['HUGEINT', 'UHUGEINT', 'BIGNUM'];
  if (only(forms, FORM.BIGINT_WHOLE | FORM.WIDE_WHOLE | FORM.FRACTION)) return ['DOUBLE'];
  if (only(forms, FORM.DATE)) return ['DATE'];
  if (only(forms, FORM.DATE | FORM.TIMESTAMP)) return ['TIMESTAMP'];
  if (only(forms, FORM.BOOLEAN)) return ['BOOLEAN'];
  return [];
}

// What follows is the rule in TypeScript; its twin in SQL reads each form with DuckDB's own casts.

const whole = new RegExp(`^(?:${VALUE_PATTERNS.whole})$`);
const number = new RegExp(`^(?:${VALUE_PATTERNS.number})$`);
const date = new RegExp(`^(?:${VALUE_PATTERNS.date})$`);
const timestamp = new RegExp(`^(?:${VALUE_PATTERNS.timestamp})$`);

const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
// whole numbers of fewer digits are within both BIGINT and 2^53
const SHORT_WHOLE_DIGITS = 15;
const ZERO = 48;
const NINE = 57;
const MINUS = 45;

/** A number's text in one form, so that two texts of the same number are equal: its digits without the zeros at either end, and their power of ten. */
function numberKey(text: string): string {
  const [, sign, int, fraction = '', power = '0'] = /^(-?)([0-9]*)\.?([0-9]*)(?:[eE]([-+]?[0-9]+))?$/.exec(text)!;
  const digits = (int! + fraction).replace(/^0+/, '');
  const core = digits.replace(/0+$/, '');
  if (core === '') return '0';
  return `${sign}${core}e${BigInt(power) - BigInt(fraction.length) + BigInt(digits.length - core.length)}`;
}

/** Whether a number's text names a double exactly: the double's shortest text is the same number. */
function isExactDouble(text: string): boolean {
  const double = Number(text);
  return Number.isFinite(double) && numberKey(String(double)) === numberKey(text);
}

/** Whether YYYY-MM-DD at the start of a text (month and day in range) is a day of the proleptic Gregorian calendar, as DuckDB's. */
function isCalendarDay(text: string): boolean {
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

function wholeForm(text: string): number {
  const digits = text.length - (text.charCodeAt(0) === MINUS ? 1 : 0);
  if (digits <= SHORT_WHOLE_DIGITS) return FORM.BIGINT_WHOLE;
  const value = BigInt(text);
  if (value < BIGINT_MIN || value > BIGINT_MAX) return FORM.WIDE_WHOLE | FORM.NOT_DOUBLE;
  return value >= -MAX_EXACT && value <= MAX_EXACT ? FORM.BIGINT_WHOLE : FORM.BIGINT_WHOLE | FORM.NOT_DOUBLE;
}

/** The form of a value's text, as the bits of FORM (0 for no value). */
export function valueForm(text: string | null): number {
  if (text === null) return 0;
  const first = text.charCodeAt(0);
  if (!((first >= ZERO && first <= NINE) || first === MINUS)) {
    return (BOOLEAN_WORDS as readonly string[]).includes(text.toLowerCase()) ? FORM.BOOLEAN : FORM.OTHER;
  }
  if (whole.test(text)) return wholeForm(text);
  if (number.test(text)) return isExactDouble(text) ? FORM.FRACTION : FORM.FRACTION | FORM.NOT_DOUBLE;
  if (date.test(text)) return isCalendarDay(text) ? FORM.DATE : FORM.OTHER;
  if (timestamp.test(text)) return isCalendarDay(text) ? FORM.TIMESTAMP : FORM.OTHER;
  return FORM.OTHER;
}

// the ranges of DuckDB's wide integers (BIGNUM has none)
const HUGEINT_MIN = -(2n ** 127n);
const HUGEINT_MAX = 2n ** 127n - 1n;
const UHUGEINT_MAX = 2n ** 128n - 1n;

/** A column's type, from its values read one at a time. */
export class ColumnTyping {
  #forms = 0;
  #negative = false;
  // of the whole numbers past BIGINT
  #wideMin: bigint | null = null;
  #wideMax: bigint | null = null;

  /** Takes in a value's text; null for no value. */
  add(text: string | null): void {
    // text already: no later value changes that
    if (this.#forms & FORM.OTHER) return;
    const form = valueForm(text);
    this.#forms |= form;
    if (form & FORM.WIDE_WHOLE) {
      const value = BigInt(text!);
      if (this.#wideMin === null || value < this.#wideMin) this.#wideMin = value;
      if (this.#wideMax === null || value > this.#wideMax) this.#wideMax = value;
    }
    // -0 is 0, which UHUGEINT holds
    if (form & (FORM.BIGINT_WHOLE | FORM.WIDE_WHOLE) && text!.charCodeAt(0) === MINUS && text !== '-0') this.#negative = true;
  }

  /** DuckDB's type the service makes the column with. */
  get duckdbType(): CsvDuckdbType {
    return candidates(this.#forms).find((type) => this.#holds(type)) ?? 'VARCHAR';
  }

  /** The column's type as Dune names it. */
  get type(): CsvColumnType {
    return DUNE_NAME_OF[this.duckdbType];
  }

  /** Whether a wide integer holds every value (any other candidate holds them all by their forms). */
  #holds(type: CsvDuckdbType): boolean {
    const min = this.#wideMin ?? 0n;
    const max = this.#wideMax ?? 0n;
    if (type === 'HUGEINT') return min >= HUGEINT_MIN && max <= HUGEINT_MAX;
    if (type === 'UHUGEINT') return !this.#negative && max <= UHUGEINT_MAX;
    return true;
  }
}
