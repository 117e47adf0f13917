import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileFilters,
  compileSort,
  FilterLanguageError,
  MAX_FILTER_NESTING,
  parseFilters,
  parseSort,
  type Column,
} from '../../../main/filter-language/index.ts';

// The filter language on the columns a Dune result is kept in (uint256 and int256 as BIGNUM,
// varbinary as BLOB, decimal(p, s) as DECIMAL), run by a real DuckDB: numbers compare as numbers,
// exactly, bytes as bytes.

const BIG = '340282366920938463463374607431768211457'; // 2^128 + 1
const columns: Column[] = [
  { name: 'id', type: 'INTEGER' },
  { name: 'amount', type: 'BIGNUM', duneType: 'uint256' },
  { name: 'delta', type: 'BIGNUM', duneType: 'int256' },
  { name: 'holder', type: 'BLOB', duneType: 'varbinary' },
  { name: 'legs', type: 'VARCHAR', duneType: 'array(varchar)' },
  { name: 'small', type: 'UHUGEINT', duneType: 'uint256' },
  { name: 'fee', type: 'DECIMAL(6,2)', duneType: 'decimal(6,2)' },
];

let connection: DuckDBConnection;
beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(
    `CREATE TABLE t (id INTEGER, amount BIGNUM, delta BIGNUM, holder BLOB, legs VARCHAR, small UHUGEINT, fee DECIMAL(6,2))`,
  );
  await connection.run(`INSERT INTO t VALUES
    (1, '9', '-5', unhex('d8da6bf26964af9d7eed9e03e53415d37aa96045'), '["a"]', 0, 0.12),
    (2, '10', '3', unhex('1f9840a85d5af5bf1d1762f925bdaddc4201f984'), '["b"]', 7, 0.13),
    (3, '${BIG}', '-${BIG}', NULL, NULL, NULL, NULL),
    (4, '1000', '0', unhex('00'), '[]', '340282366920938463463374607431768211455', -0.13)`);
});
afterAll(() => connection.closeSync());

async function ids(filters: string): Promise<number[]> {
  const { sql, params } = compileFilters(parseFilters(filters), columns);
  const statement = await connection.prepare(`SELECT id FROM t WHERE ${sql} ORDER BY id`);
  params.forEach((value, i) => statement.bindVarchar(i + 1, value));
  return (await statement.runAndReadAll()).getRows().map((row) => Number(row[0]));
}

describe('filters on Dune-typed columns', () => {
  it('compares uint256 and int256 as numbers, not as text (9 before 10)', async () => {
    expect(await ids('amount > 9')).toEqual([2, 3, 4]);
    expect(await ids('amount > 1000')).toEqual([3]);
    expect(await ids(`amount = ${BIG}`)).toEqual([3]);
    expect(await ids('amount >= 1e3')).toEqual([3, 4]);
    expect(await ids(`delta < -${BIG.slice(0, -1)}6`)).toEqual([3]);
    expect(await ids('delta < 0')).toEqual([1, 3]);
  });

  it('compares whole numbers with a fraction exactly, never rounded', async () => {
    expect(await ids('id > 1.5')).toEqual([2, 3, 4]);
    expect(await ids('id >= 1.5')).toEqual([2, 3, 4]);
    expect(await ids('id < 2.5')).toEqual([1, 2]);
    expect(await ids('id <= -0.5')).toEqual([]);
    expect(await ids('delta <= -4.5')).toEqual([1, 3]);
    expect(await ids('id = 2.5')).toEqual([]);
    expect(await ids('id != 2.5')).toEqual([1, 2, 3, 4]);
    expect(await ids('id in (2, 2.5)')).toEqual([2]);
    expect(await ids('id in (2.5)')).toEqual([]);
  });

  it('compares decimals with more digits after the point than the column keeps exactly, never rounded', async () => {
    // DuckDB's cast would make 0.125 into 0.13, and 0.121 into 0.12
    expect(await ids('fee > 0.125')).toEqual([2]);
    expect(await ids('fee >= 0.125')).toEqual([2]);
    expect(await ids('fee < 0.125')).toEqual([1, 4]);
    expect(await ids('fee <= 0.121')).toEqual([1, 4]);
    expect(await ids('fee > -0.125')).toEqual([1, 2]);
    expect(await ids('fee < -0.125')).toEqual([4]);
    expect(await ids('fee = 0.121')).toEqual([]);
    expect(await ids('fee != 0.121')).toEqual([1, 2, 4]);
    expect(await ids('fee in (0.13, 0.121)')).toEqual([2]);
    expect(await ids('fee = 0.130')).toEqual([2]);
    expect(await ids('fee = 13e-2')).toEqual([2]);
  });

  it("compares a number past a decimal column's digits as past every value, never an error", async () => {
    expect(await ids('fee < 10000')).toEqual([1, 2, 4]);
    expect(await ids('fee > 9999.995')).toEqual([]);
    expect(await ids('fee <= 9999.99')).toEqual([1, 2, 4]);
    expect(await ids('fee > -1e6')).toEqual([1, 2, 4]);
    expect(await ids('fee = 1e6')).toEqual([]);
  });

  it("compares a number past a column type's range as past every value, never an error", async () => {
    expect(await ids(`small < ${BIG}`)).toEqual([1, 2, 4]);
    expect(await ids(`small >= ${BIG}`)).toEqual([]);
    expect(await ids(`small = ${BIG}`)).toEqual([]);
    expect(await ids(`small != ${BIG}`)).toEqual([1, 2, 4]);
    expect(await ids('small > -1')).toEqual([1, 2, 4]);
    expect(await ids('small <= -0.5')).toEqual([]);
    expect(await ids(`small in (7, ${BIG}, -3)`)).toEqual([2]);
    expect(await ids('id < 1e12')).toEqual([1, 2, 3, 4]);
    expect(await ids('small > 340282366920938463463374607431768211454.5')).toEqual([4]);
  });

  it('sorts 128-bit values exactly, even those one double cannot tell apart', async () => {
    const order = async (sort: string) => {
      const sql = `SELECT v FROM (VALUES ('1267650600228229401496703205377'::UHUGEINT), ('1267650600228229401496703205376'::UHUGEINT), (NULL), (5::UHUGEINT)) t(v) ORDER BY ${compileSort(parseSort(sort), [{ name: 'v', type: 'UHUGEINT', duneType: 'uint256' }])}`;
      return (await connection.runAndReadAll(sql)).getRows().map((row) => (row[0] === null ? null : String(row[0])));
    };
    expect(await order('v')).toEqual(['5', '1267650600228229401496703205376', '1267650600228229401496703205377', null]);
    expect(await order('v desc')).toEqual(['1267650600228229401496703205377', '1267650600228229401496703205376', '5', null]);
  });

  it('matches bytes by their 0x hex in any case, and by a LIKE on it', async () => {
    expect(await ids('holder = 0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045')).toEqual([1]);
    expect(await ids("holder = '0x00'")).toEqual([4]);
    expect(await ids("holder in ('0x00', 0x1f9840a85d5af5bf1d1762f925bdaddc4201f984)")).toEqual([2, 4]);
    expect(await ids("holder like '0x1F98%'")).toEqual([2]);
    expect(await ids('holder is null')).toEqual([3]);
    // a pattern no hex text holds matches nothing, a NUL at its end included (DuckDB's ILIKE refused it)
    for (const pattern of ['\u0000', '%\u0000', '0x\u0000%', '%\\']) expect(await ids(`holder like '${pattern}'`)).toEqual([]);
  });

  it('runs parentheses as deep as the language reads them', async () => {
    const nested = `${'(id = 1 or '.repeat(MAX_FILTER_NESTING)}id = 4${')'.repeat(MAX_FILTER_NESTING)}`;
    expect(await ids(nested)).toEqual([1, 4]);
  });

  it("refuses a value that is not of the column's type, naming Dune's type", () => {
    const refusal = (filters: string) => {
      try {
        compileFilters(parseFilters(filters), columns);
        return null;
      } catch (error) {
        if (error instanceof FilterLanguageError) return error.message;
        throw error;
      }
    };
    expect(refusal("amount > 'lots'")).toMatch(/amount holds numbers \(uint256\); 'lots' is not a number/);
    expect(refusal("holder = 'vitalik'")).toMatch(/holder holds bytes \(varbinary\); write a value as 0x and hex digits/);
    expect(refusal("holder = '0xabc'")).toMatch(/holder holds bytes/);
    expect(refusal("legs = 'a'")).toMatch(/legs is of type array\(varchar\), which compares with no single value/);
    expect(refusal("legs like '%a%'")).toBeNull();
    expect(refusal('id > 1e5000')).toMatch(/id holds numbers \(integer\); '1e5000' has too many digits to compare exactly/);
    expect(refusal('fee < 1e-5000')).toMatch(/fee holds numbers \(decimal\(6,2\)\); '1e-5000' has too many digits/);
  });
});
