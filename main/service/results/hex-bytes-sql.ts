import { parseType, type DuneType } from '../../common/dune-types/index.ts';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';

// Dune sends bytes (varbinary) as `0x` and lower-case hex, where DuckDB writes a BLOB as its escaped
// text (`\xDE\xAD`, printable bytes as they are): a BLOB, or one inside a list, struct, map or
// union, is made that hex text before it is written.

/** `0x` and the bytes' lower-case hex, of a BLOB expression. */
export function hexSql(expression: string): string {
  return `('0x' || lower(hex(${expression})))`;
}

const NESTED = new Set(['array', 'map', 'row', 'union']);

function holdsBytes(type: DuneType): boolean {
  return type.name === 'varbinary' || (NESTED.has(type.name) && type.fields.some((f) => holdsBytes(f.type)));
}

function withHex(expression: string, type: DuneType, depth: number): string {
  if (!holdsBytes(type)) return expression;
  const x = `x${depth}`;
  switch (type.name) {
    case 'varbinary':
      return hexSql(expression);
    case 'array':
      return `list_transform(${expression}, lambda ${x}: ${withHex(x, type.fields[0]!.type, depth + 1)})`;
    case 'map': {
      const [key, value] = type.fields.map((f) => f.type) as [DuneType, DuneType];
      const entry = `struct_pack(key := ${withHex(`${x}.key`, key, depth + 1)}, value := ${withHex(`${x}.value`, value, depth + 1)})`;
      return `map_from_entries(list_transform(map_entries(${expression}), lambda ${x}: ${entry}))`;
    }
    case 'union': {
      // as DuckDB writes a union's JSON, `{"tag": value}`: its members' types differ, their JSON does not
      const members = type.fields.map((f) => {
        const tag = quoteLiteral(f.name!);
        return `WHEN ${tag} THEN json_object(${tag}, ${withHex(`union_extract(${expression}, ${tag})`, f.type, depth)})`;
      });
      return `CASE union_tag(${expression}) ${members.join(' ')} END`;
    }
    default: {
      // a null struct stays null, where struct_pack would make one of null fields
      const fields = type.fields.map(
        (f) => `${quoteIdentifier(f.name!)} := ${withHex(`struct_extract(${expression}, ${quoteLiteral(f.name!)})`, f.type, depth)}`,
      );
      return `CASE WHEN ${expression} IS NULL THEN NULL ELSE struct_pack(${fields.join(', ')}) END`;
    }
  }
}

/**
 * A column's expression with its bytes, at any depth, as `0x` hex text (see hexSql); the column as
 * it is when its type holds none. `duckdbType`: DuckDB's name of its type.
 */
export function hexBytesSql(column: string, duckdbType: string): string {
  return withHex(column, parseType(duckdbType), 0);
}
