import { binaryTextSql, doubleTextSql, floatWordSql, parseType, realDoubleSql, type DuneType } from '../../common/dune-types/index.ts';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';

// DuckDB's JSON of a value spells some of its parts otherwise than Dune: a BLOB as its escaped text
// (`\xDE\xAD`, printable bytes as they are), where Dune sends `0x` and lower-case hex; a double that
// is no number bare (`NaN`, no JSON at all), where Trino writes the string `"NaN"`; a FLOAT as the
// double of its binary expansion (0.10000000149011612), where Dune sends a `real` as its shortest
// text (0.1). Such parts, alone or at any depth of a list, struct, map or union, are made as Dune
// sends them before the value is written. A type without them is left as it is: the transforms
// below rebuild each nested value they pass through.

const NESTED = new Set(['array', 'map', 'row', 'union']);
const FLOATS = new Set(['real', 'double']);

function spelledOtherwise(type: DuneType): boolean {
  return type.name === 'varbinary' || FLOATS.has(type.name) || (NESTED.has(type.name) && type.fields.some((f) => spelledOtherwise(f.type)));
}

/**
 * A float part as Dune's JSON has it: a number where it is one, else Trino's word as a JSON string;
 * a map's key, which JSON writes as text, as that text (DuckDB's text of a number, as DuckDB's JSON
 * writes any key).
 */
function floatSql(expression: string, type: DuneType, isKey: boolean): string {
  const double = type.name === 'real' ? realDoubleSql(expression) : expression;
  if (isKey) return doubleTextSql(double);
  return `CASE WHEN isfinite(${double}) THEN to_json(${double}) ELSE to_json(${floatWordSql(double)}) END`;
}

function served(expression: string, type: DuneType, depth: number, isKey = false): string {
  if (!spelledOtherwise(type)) return expression;
  if (FLOATS.has(type.name)) return floatSql(expression, type, isKey);
  const x = `x${depth}`;
  switch (type.name) {
    case 'varbinary':
      return binaryTextSql(expression);
    case 'array':
      return `list_transform(${expression}, lambda ${x}: ${served(x, type.fields[0]!.type, depth + 1)})`;
    case 'map': {
      const [key, value] = type.fields.map((f) => f.type) as [DuneType, DuneType];
      const entry = `struct_pack(key := ${served(`${x}.key`, key, depth + 1, true)}, value := ${served(`${x}.value`, value, depth + 1)})`;
      return `map_from_entries(list_transform(map_entries(${expression}), lambda ${x}: ${entry}))`;
    }
    case 'union': {
      // as DuckDB writes a union's JSON, `{"tag": value}`: its members' types differ, their JSON does not
      const members = type.fields.map((f) => {
        const tag = quoteLiteral(f.name!);
        return `WHEN ${tag} THEN json_object(${tag}, ${served(`union_extract(${expression}, ${tag})`, f.type, depth)})`;
      });
      return `CASE union_tag(${expression}) ${members.join(' ')} END`;
    }
    default: {
      // a null struct stays null, where struct_pack would make one of null fields
      const fields = type.fields.map(
        (f) => `${quoteIdentifier(f.name!)} := ${served(`struct_extract(${expression}, ${quoteLiteral(f.name!)})`, f.type, depth)}`,
      );
      return `CASE WHEN ${expression} IS NULL THEN NULL ELSE struct_pack(${fields.join(', ')}) END`;
    }
  }
}

/**
 * A column's expression for DuckDB's JSON (or, for a BLOB, its text) with its parts, at any depth,
 * as Dune sends them: bytes as `0x` hex text (see binaryTextSql), floats inside a nested value as JSON
 * values; the column as it is when its type holds none. `duckdbType`: DuckDB's name of its type.
 * A float column itself is the caller's (see cell-sql.ts), which writes it as a number where it can.
 */
export function servedPartsSql(column: string, duckdbType: string): string {
  return served(column, parseType(duckdbType), 0);
}
