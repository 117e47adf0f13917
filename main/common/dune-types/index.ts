// Dune's type system, once for every layer: the service names its columns with it, the cache
// stores by it, the filter language checks values with it, the renderer formats cells with it.
// Pure: no Node, no DOM, no DuckDB (its SQL for a rule, for the layers that have DuckDB apply it, is
// text beside the rule).
export { parseType, typeName, type DuneField, type DuneType } from './type-name.ts';
export { integerRange, isNumeric, isStructured, kindOf, type TypeKind } from './type-kind.ts';
export { duneTypeOfDuckdb } from './from-duckdb.ts';
export { storageType } from './storage-type.ts';
export { binaryText, DOUBLE_DIGITS, nestedTextSql, numberCell, numberText, parseJsonExact, type RawJsonNumber } from './value-text.ts';
export { compareDecimal, floorDecimal, plainDecimalSql, readDecimal, writeDecimal, type DecimalText } from './decimal-text.ts';
export { decimalText, decimalTextSql, floatText, spreadsheetRewrite, spreadsheetTimestamp } from './spreadsheet-text.ts';
export { doubleTextSql, floatWord, floatWordSql, INFINITY, NEGATIVE_INFINITY, NOT_A_NUMBER, realDoubleSql } from './float-values.ts';
export { timestampDigits, timestampTextSql } from './timestamp-text.ts';
export { binaryTextSql, exactIntegerSql } from './json-sql.ts';
