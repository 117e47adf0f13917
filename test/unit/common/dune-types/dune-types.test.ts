import { describe, expect, it } from 'vitest';
import {
  binaryText,
  floorDecimal,
  kindOf,
  numberCell,
  numberText,
  parseJsonExact,
  parseType,
  readDecimal,
  storageType,
  typeName,
  writeDecimal,
} from '../../../../main/common/dune-types/index.ts';

const UINT256_MAX = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
const INT256_MIN = '-57896044618658097711785492504343953926634992332820282019728792003956564819968';

describe('a type name', () => {
  it.each([
    // DuneSQL's names, as the hosted service sends them
    ['varchar', 'varchar', 'text', 'VARCHAR'],
    ['varbinary', 'varbinary', 'binary', 'BLOB'],
    ['uint256', 'uint256', 'big-integer', 'UHUGEINT'],
    ['int256', 'int256', 'big-integer', 'HUGEINT'],
    ['bigint', 'bigint', 'integer', 'BIGINT'],
    ['real', 'real', 'float', 'DOUBLE'],
    ['decimal(38,18)', 'decimal(38,18)', 'decimal', 'DECIMAL(38,18)'],
    ['decimal(38, 0)', 'decimal(38,0)', 'decimal', 'DECIMAL(38,0)'],
    ['timestamp(3)', 'timestamp(3)', 'timestamp', 'TIMESTAMP'],
    ['timestamp(3) with time zone', 'timestamp(3) with time zone', 'timestamp', 'TIMESTAMP WITH TIME ZONE'],
    ['array(varchar)', 'array(varchar)', 'nested', 'VARCHAR'],
    ['map(varchar, uint256)', 'map(varchar, uint256)', 'nested', 'VARCHAR'],
    ['array(row(a varchar, b uint256))', 'array(row(a varchar, b uint256))', 'nested', 'VARCHAR'],
    ['row(integer, varchar)', 'row(integer, varchar)', 'nested', 'VARCHAR'],
    ['json', 'json', 'json', 'VARCHAR'],
    // DuckDB's names, as the embedded service and older caches have them
    ['BLOB', 'varbinary', 'binary', 'BLOB'],
    ['UHUGEINT', 'uhugeint', 'big-integer', 'UHUGEINT'],
    ['BIGNUM', 'bignum', 'big-integer', 'BIGNUM'],
    ['VARINT', 'bignum', 'big-integer', 'BIGNUM'],
    ['TIMESTAMP WITH TIME ZONE', 'timestamp with time zone', 'timestamp', 'TIMESTAMP WITH TIME ZONE'],
    ['TIMESTAMPTZ', 'timestamp with time zone', 'timestamp', 'TIMESTAMP WITH TIME ZONE'],
    ['TIMESTAMP_NS', 'timestamp(9)', 'timestamp', 'TIMESTAMP_NS'],
    ['TIMESTAMP_MS', 'timestamp(3)', 'timestamp', 'TIMESTAMP'],
    ['DECIMAL(18,3)', 'decimal(18,3)', 'decimal', 'DECIMAL(18,3)'],
    ['STRUCT("a" INTEGER)', 'row(a integer)', 'nested', 'VARCHAR'],
    ['STRUCT("first name" VARCHAR, b INTEGER[])', 'row("first name" varchar, b array(integer))', 'nested', 'VARCHAR'],
    ['INTEGER[]', 'array(integer)', 'nested', 'VARCHAR'],
    ['VARCHAR[3][]', 'array(array(varchar))', 'nested', 'VARCHAR'],
    ['MAP(VARCHAR, INTEGER)', 'map(varchar, integer)', 'nested', 'VARCHAR'],
    ["ENUM('a', 'b''s')", 'enum', 'text', 'VARCHAR'],
    ['double precision', 'double', 'float', 'DOUBLE'],
    ['INTERVAL', 'interval', 'text', 'VARCHAR'],
    ['UUID', 'uuid', 'text', 'UUID'],
  ])('%s reads as %s, a %s kept as %s', (source, name, kind, storage) => {
    const type = parseType(source);
    expect(typeName(type)).toBe(name);
    expect(kindOf(type)).toBe(kind);
    expect(storageType(type)).toBe(storage);
    expect(type.source).toBe(source);
  });

  it('keeps the tree of nested types', () => {
    const type = parseType('array(row(a varchar, b uint256))');
    expect(type.name).toBe('array');
    const row = type.fields[0]!.type;
    expect(row.fields.map((f) => [f.name, f.type.name])).toEqual([
      ['a', 'varchar'],
      ['b', 'uint256'],
    ]);
  });

  it('reads what it cannot parse as unknown, kept as text, never an error', () => {
    for (const source of [
      'constructor',
      'toString',
      'hyperloglog',
      'array(',
      'decimal(a,b)',
      'row(a varchar',
      '',
      'varchar)',
      'tdigest(3)',
    ]) {
      const type = parseType(source);
      expect(kindOf(type), source).toBe('unknown');
      expect(storageType(type)).toBe('VARCHAR');
      expect(typeName(type)).toBe(source);
    }
    // an unknown part of a nested type stays named within it
    expect(typeName(parseType('array(qdigest(3))'))).toBe('array(qdigest(3))');
  });

  it('keeps as text only what no DuckDB type holds exactly', () => {
    expect(storageType(parseType('timestamp(12)'))).toBe('VARCHAR');
    expect(storageType(parseType('timestamp(9)'))).toBe('TIMESTAMP_NS');
    expect(storageType(parseType('decimal(40,0)'))).toBe('BIGNUM');
    expect(storageType(parseType('decimal(40,2)'))).toBe('VARCHAR');
  });
});

describe('value text', () => {
  it('reads either service text of a binary value as Dune writes it', () => {
    expect(binaryText('0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045')).toBe('0xd8da6bf26964af9d7eed9e03e53415d37aa96045');
    // DuckDB's text of a blob: escapes for bytes outside printable ASCII, the rest as they are
    expect(binaryText('\\xDE\\xAD\\xBE\\xEF')).toBe('0xdeadbeef');
    expect(binaryText('AB\\x00')).toBe('0x414200');
    expect(binaryText('\\xZZ')).toBeNull();
  });

  it('parses JSON without rounding a number through a double', () => {
    const text = `{"rows":[{"amount":${UINT256_MAX},"small":42,"neg":${INT256_MIN},"price":1.5,"wide":12345678901234567.123456789,"big":1e+300,"legs":[{"v":${UINT256_MAX}}]}]}`;
    const page = parseJsonExact(text) as { rows: Record<string, unknown>[] };
    const row = page.rows[0]!;
    expect(Object.fromEntries(Object.entries(row).map(([key, value]) => [key, numberText(value) ?? value]))).toMatchObject({
      amount: UINT256_MAX,
      small: 42,
      neg: INT256_MIN,
      price: 1.5,
      wide: '12345678901234567.123456789',
      big: 1e300,
    });
    // a nested value is written back with its numbers as they came
    expect(JSON.stringify(row.legs)).toBe(`[{"v":${UINT256_MAX}}]`);
    expect(JSON.stringify(page)).toBe(text);
  });

  it('reads a number in exponent form exactly: past a double as its text, as a cell', () => {
    const row = parseJsonExact('{"tiny":1.23456789012345678E-1,"small":3.1E-5,"big":1.5e+300}') as Record<string, unknown>;
    expect(numberText(row.tiny)).toBe('1.23456789012345678E-1');
    expect([row.small, row.big]).toEqual([0.000031, 1.5e300]);
    expect(['1.23456789012345678E-1', '3.10000E-5', '-1.234567890123450e2'].map(numberCell)).toEqual([
      '1.23456789012345678E-1',
      0.000031,
      -123.456789012345,
    ]);
  });
});

describe('exact decimal text', () => {
  it('moves the point without a double, as a raw token amount scaled by its decimals', () => {
    const scaled = (text: string, shift: number) => writeDecimal(readDecimal(text, shift)!);
    expect(scaled(UINT256_MAX, -18)).toBe('115792089237316195423570985008687907853269984665640564039457.584007913129639935');
    expect(scaled('1500000', -6)).toBe('1.5');
    expect(scaled('5', -3)).toBe('0.005');
    expect(scaled('-0.0', 0)).toBe('0');
    expect(scaled('1e18', 0)).toBe('1000000000000000000');
    expect(scaled(' +.5e1 ', 0)).toBe('5');
    expect(readDecimal('1e5000')).toBeNull();
    expect(readDecimal('12a')).toBeNull();
    expect(readDecimal('.')).toBeNull();
  });

  it('rounds down to a whole number and says whether it was one', () => {
    expect(floorDecimal(readDecimal('1.5')!)).toEqual({ floor: '1', whole: false });
    expect(floorDecimal(readDecimal('-1.5')!)).toEqual({ floor: '-2', whole: false });
    expect(floorDecimal(readDecimal('-0.5')!)).toEqual({ floor: '-1', whole: false });
    expect(floorDecimal(readDecimal('42.000')!)).toEqual({ floor: '42', whole: true });
    expect(floorDecimal(readDecimal(`-${UINT256_MAX}.1`)!).floor).toBe(`-${BigInt(UINT256_MAX) + 1n}`);
  });
});
