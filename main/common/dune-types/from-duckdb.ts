import { own } from './kinds.ts';
import { parseType, typeName, type DuneType } from './type-name.ts';

// The DuneSQL name of a column of DuckDB's type: what the embedded service says its columns are,
// so that its results read as the hosted service's do. A type DuneSQL has keeps its meaning; one
// DuneSQL lacks becomes the DuneSQL type that holds every value of it as the service sends it:
// - unsigned integers become the next wider signed type, UBIGINT `decimal(20,0)`;
// - UHUGEINT `uint256`, HUGEINT `int256`; BIGNUM (arbitrary precision, signed) `int256` too, as no
//   DuneSQL type is wider: its values past 256 bits still go out with every digit;
// - every timestamp `timestamp(3)` (or `with time zone`): the service sends milliseconds;
// - TIME `time(6)` (DuckDB keeps microseconds);
// - INTERVAL `varchar` (DuckDB's holds months, days and microseconds at once, which neither of
//   Trino's interval types does), as are ENUM, BIT and any type this module cannot read;
// - VARIANT `json`, each value sent as the JSON of what it holds; UNION `json` too, each value
//   sent as DuckDB writes one, `{"member": value}`;
// - lists, fixed-size arrays, structs and maps `array`, `row` and `map` of their parts' names.

const RENAMED: Record<string, string> = {
  utinyint: 'smallint',
  usmallint: 'integer',
  uinteger: 'bigint',
  uhugeint: 'uint256',
  hugeint: 'int256',
  bignum: 'int256',
  char: 'varchar',
  enum: 'varchar',
  interval: 'varchar',
  union: 'json',
};

// DuckDB's types that the shared parser reads as `unknown`, by their name in lower case.
const UNKNOWN_RENAMED: Record<string, string> = { variant: 'json' };

const MILLISECONDS = 3;
const MICROSECONDS = 6;
// UBIGINT's largest value, 18446744073709551615, has 20 digits
const UBIGINT_DIGITS = 20;

function plain(name: string, params: number[] = [], withTimeZone = false): DuneType {
  return { name, params, fields: [], withTimeZone, source: '' };
}

function fromDuckdbType(type: DuneType): DuneType {
  switch (type.name) {
    case 'array':
    case 'map':
    case 'row':
      return { ...type, fields: type.fields.map((field) => ({ ...field, type: fromDuckdbType(field.type) })) };
    case 'ubigint':
      return plain('decimal', [UBIGINT_DIGITS, 0]);
    case 'timestamp':
      return plain('timestamp', [MILLISECONDS], type.withTimeZone);
    case 'time':
      return plain('time', [MICROSECONDS], type.withTimeZone);
    // DuckDB drops a VARCHAR's length: its text is never cut
    case 'varchar':
      return plain('varchar');
    case 'unknown':
      return plain(own(UNKNOWN_RENAMED, type.source.toLowerCase()) ?? 'varchar');
    default: {
      const renamed = own(RENAMED, type.name);
      return renamed === undefined ? type : plain(renamed);
    }
  }
}

/** The DuneSQL name of a column of a DuckDB type, named as DuckDB names it (`STRUCT("a" BLOB)[]`). */
export function duneTypeOfDuckdb(duckdbName: string): string {
  return typeName(fromDuckdbType(parseType(duckdbName)));
}
