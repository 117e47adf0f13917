import { describe, expect, it } from 'vitest';
import { duneTypeOfDuckdb, kindOf, parseType } from '../../../../main/common/dune-types/index.ts';

describe("a DuckDB column type's DuneSQL name", () => {
  it.each([
    // DuneSQL's own types, as DuckDB names them
    ['VARCHAR', 'varchar'],
    ['VARCHAR(3)', 'varchar'],
    ['BLOB', 'varbinary'],
    ['BOOLEAN', 'boolean'],
    ['TINYINT', 'tinyint'],
    ['SMALLINT', 'smallint'],
    ['INTEGER', 'integer'],
    ['BIGINT', 'bigint'],
    ['FLOAT', 'real'],
    ['DOUBLE', 'double'],
    ['DECIMAL(38,18)', 'decimal(38,18)'],
    ['DECIMAL(10,2)', 'decimal(10,2)'],
    ['DATE', 'date'],
    ['JSON', 'json'],
    ['UUID', 'uuid'],
    // DuckDB's integers DuneSQL lacks: the DuneSQL type that holds all of their values
    ['UTINYINT', 'smallint'],
    ['USMALLINT', 'integer'],
    ['UINTEGER', 'bigint'],
    ['UBIGINT', 'decimal(20,0)'],
    ['UHUGEINT', 'uint256'],
    ['HUGEINT', 'int256'],
    ['BIGNUM', 'int256'],
    ['VARINT', 'int256'],
    // timestamps as the service sends them: to the millisecond
    ['TIMESTAMP', 'timestamp(3)'],
    ['TIMESTAMP WITH TIME ZONE', 'timestamp(3) with time zone'],
    ['TIMESTAMPTZ', 'timestamp(3) with time zone'],
    ['TIMESTAMP_S', 'timestamp(3)'],
    ['TIMESTAMP_MS', 'timestamp(3)'],
    ['TIMESTAMP_NS', 'timestamp(3)'],
    ['TIME', 'time(6)'],
    ['TIME WITH TIME ZONE', 'time(6) with time zone'],
    // kept as text or JSON
    ['INTERVAL', 'varchar'],
    ["ENUM('a', 'b''s')", 'varchar'],
    ['BIT', 'varchar'],
    ['VARIANT', 'json'],
    ['UNION("k" INTEGER, "s" VARCHAR)', 'json'],
    ['GEOMETRY', 'varchar'],
    ['constructor', 'varchar'],
  ])('%s is %s', (duckdb, dune) => {
    expect(duneTypeOfDuckdb(duckdb)).toBe(dune);
  });

  it.each([
    ['INTEGER[]', 'array(integer)'],
    ['INTEGER[][]', 'array(array(integer))'],
    ['INTEGER[2]', 'array(integer)'],
    ['BLOB[]', 'array(varbinary)'],
    ['JSON[]', 'array(json)'],
    ['MAP(VARCHAR, UHUGEINT)', 'map(varchar, uint256)'],
    ['MAP(BLOB, TIMESTAMP WITH TIME ZONE[])', 'map(varbinary, array(timestamp(3) with time zone))'],
    ['STRUCT("a" INTEGER, "b" VARCHAR)', 'row(a integer, b varchar)'],
    ['STRUCT("to" BLOB, amount HUGEINT)[]', 'array(row(to varbinary, amount int256))'],
    ['STRUCT("v" VARIANT, "u" UNION("k" INTEGER))', 'row(v json, u json)'],
  ])('nested %s is %s', (duckdb, dune) => {
    expect(duneTypeOfDuckdb(duckdb)).toBe(dune);
  });

  it('quotes struct field names that are no plain name, as DuckDB does, doubling quotes inside', () => {
    expect(duneTypeOfDuckdb('STRUCT("a b" INTEGER, "x""y" STRUCT("z" BLOB)[], "A" UBIGINT)')).toBe(
      'row("a b" integer, "x""y" array(row(z varbinary)), "A" decimal(20,0))',
    );
  });

  it('names every column type with a name the shared parser reads back, as the same kind of value', () => {
    for (const [duckdb, kind] of [
      ['BLOB', 'binary'],
      ['UHUGEINT', 'big-integer'],
      ['BIGNUM', 'big-integer'],
      ['UBIGINT', 'decimal'],
      ['TIMESTAMP_NS', 'timestamp'],
      ['TIME', 'text'],
      ['INTERVAL', 'text'],
      ['VARIANT', 'json'],
      ['STRUCT("a b" BLOB)', 'nested'],
    ]) {
      const dune = parseType(duneTypeOfDuckdb(duckdb!));
      expect(kindOf(dune), duckdb).toBe(kind);
      expect(duneTypeOfDuckdb(dune.source), duckdb).toBe(dune.source);
    }
  });
});
