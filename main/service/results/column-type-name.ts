import type { DuckDBType } from '@duckdb/node-api';
import { quoteIdentifier as quoted } from '../../common/sql-quote.ts';
import { duckdb } from '../storage/duckdb-module.ts';

// DuckDB's name of a result column's type, which the result's stored table is made of. The client
// library names a JSON column, or a list of them, as VARCHAR (JSON is VARCHAR with an alias): the
// stored column would then hold the values as text, sent as strings rather than the JSON they are.

export function columnTypeName(type: DuckDBType): string {
  if (type.alias === 'JSON') return 'JSON';
  switch (type.typeId) {
    case duckdb.DuckDBTypeId.LIST:
      return `${columnTypeName(type.valueType)}[]`;
    case duckdb.DuckDBTypeId.ARRAY:
      return `${columnTypeName(type.valueType)}[${type.length}]`;
    case duckdb.DuckDBTypeId.MAP:
      return `MAP(${columnTypeName(type.keyType)}, ${columnTypeName(type.valueType)})`;
    case duckdb.DuckDBTypeId.STRUCT:
      return `STRUCT(${type.entryNames.map((name, i) => `${quoted(name)} ${columnTypeName(type.entryTypes[i]!)}`).join(', ')})`;
    case duckdb.DuckDBTypeId.UNION:
      return `UNION(${type.memberTags.map((tag, i) => `${quoted(tag)} ${columnTypeName(type.memberTypes[i]!)}`).join(', ')})`;
    default:
      return type.toString();
  }
}
