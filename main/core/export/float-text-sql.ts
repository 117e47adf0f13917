import { floatWordSql } from '../../common/dune-types/index.ts';

// A float's text as the grid writes it, for the files DuckDB writes from the cache: a CSV export in
// the spreadsheet's text, and a JSON line, whose number then reads as it does in the grid.

// DuckDB's text of a double in scientific form: one digit, maybe more after the point, the exponent
const SCIENTIFIC = String.raw`'^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$'`;

/**
 * floatText of the shared type module in DuckDB's SQL: DuckDB writes the same shortest digits as
 * JavaScript, laid out otherwise (`8e-05` for 0.00008, `2.0` for 2, `1e+20` for 10^20); JavaScript
 * writes a double's digits in full from 10^-6 up to 10^21 and in scientific form outside it.
 */
export function floatTextSql(double: string): string {
  const text = `CAST(${double} AS VARCHAR)`;
  const part = (group: number) => `regexp_extract(${text}, ${SCIENTIFIC}, ${group})`;
  const digits = `(${part(2)} || ${part(3)})`;
  const exponent = `CAST(nullif(${part(4)}, '') AS INTEGER)`;
  const laidOut = `CASE WHEN ${exponent} < 0 THEN '0.' || repeat('0', -${exponent} - 1) || ${digits}
    WHEN length(${digits}) <= ${exponent} + 1 THEN rpad(${digits}, ${exponent} + 1, '0')
    ELSE substr(${digits}, 1, ${exponent} + 1) || '.' || substr(${digits}, ${exponent} + 2) END`;
  return String.raw`CASE WHEN NOT isfinite(${double}) THEN ${floatWordSql(double)}
    WHEN ${double} = 0 THEN '0'
    WHEN NOT regexp_full_match(${text}, ${SCIENTIFIC}) THEN regexp_replace(${text}, '\.0$', '')
    WHEN ${exponent} BETWEEN -6 AND 20 THEN ${part(1)} || ${laidOut}
    ELSE regexp_replace(${text}, 'e([+-])0*(\d)', 'e\1\2') END`;
}
