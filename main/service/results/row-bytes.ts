import { quoteIdentifier } from '../storage/duckdb.ts';

export interface ResultColumn {
  name: string;
  /** DuckDB's type name, e.g. `BIGINT`, `DECIMAL(18,6)`, `TIMESTAMP WITH TIME ZONE`. */
  type: string;
}

const FIXED_WIDTHS: [RegExp, number][] = [
  [/^(BOOLEAN|TINYINT|UTINYINT)$/, 1],
  [/^(SMALLINT|USMALLINT)$/, 2],
  [/^(INTEGER|UINTEGER|FLOAT|DATE)$/, 4],
  [/^(BIGINT|UBIGINT|DOUBLE|TIME|TIMESTAMP.*|TIME WITH TIME ZONE)$/, 8],
  [/^(HUGEINT|UHUGEINT|UUID|INTERVAL)$/, 16],
];

function widthOf(type: string): number | null {
  const decimal = /^DECIMAL\((\d+),\d+\)$/.exec(type);
  if (decimal) return Number(decimal[1]) > 18 ? 16 : 8;
  for (const [pattern, width] of FIXED_WIDTHS) if (pattern.test(type)) return width;
  return null;
}

/**
 * A SQL expression for the stored size of one row: the type's width for fixed-size values, the
 * text length for the rest, nothing for nulls. Pages and totals use the same measure, so the
 * bytes of all pages add up to the total.
 */
export function rowBytesSql(columns: ResultColumn[]): string {
  if (columns.length === 0) return '0';
  return columns
    .map(({ name, type }) => {
      const column = quoteIdentifier(name);
      const width = widthOf(type);
      if (width !== null) return `(CASE WHEN ${column} IS NULL THEN 0 ELSE ${width} END)`;
      if (type === 'BLOB') return `coalesce(octet_length(${column}), 0)`;
      if (type === 'VARCHAR') return `coalesce(strlen(${column}), 0)`;
      return `coalesce(strlen(CAST(${column} AS VARCHAR)), 0)`;
    })
    .join(' + ');
}
