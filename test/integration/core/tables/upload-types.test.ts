import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyVault } from '../../../../main/core/secrets/key-vault.ts';
import { CSV_PARSE_OPTIONS } from '../../../../renderer/src/tables/csv-options.ts';
import { CsvSummary } from '../../../../renderer/src/tables/csv-summary.ts';
import { caller, memoryKeychain, startHarness, type Harness } from '../core-harness.ts';
import { sql, upload, type Call } from './tables-harness.ts';

// The types the upload form shows are the table's, sent either way: in one request the service
// types the file itself, in parts the form's types are the schema of the table made for them, and
// every value is then inserted into its column's type or refused. A wide integer once previewed as
// a double failed its insert; an offset timestamp once previewed as text was not one.

const key = 'alice-key-upload-types-01';
let harness: Harness;
const cores: { whole: Call; parts: Call } = { whole: null!, parts: null! };
const accounts = { whole: '', parts: '' };

const ROWS = 60;
const HEADER = 'id,amount,big,seen,price,code';
/** Rows past what one part holds: an integer of 23 digits, one past 2^127, an offset timestamp, a double, text that looks like a number. */
function csv(): string {
  const lines = [HEADER];
  for (let i = 1; i <= ROWS; i += 1) {
    lines.push(
      `${i},${12345678901234567890000n + BigInt(i)},${2n ** 127n + BigInt(i)},2024-01-01T10:${String(i % 60).padStart(2, '0')}:00+02:00,${i}.25,+${i}`,
    );
  }
  return lines.join('\n') + '\n';
}

/** The header and types as the upload form reads them from the file. */
function formColumns(text: string) {
  const summary = new CsvSummary(1);
  for (const row of Papa.parse<string[]>(text, CSV_PARSE_OPTIONS).data) summary.add(row);
  const { header, types, rows } = summary.result();
  return { columns: header.map((name, i) => ({ name, type: types[i]! })), rows };
}

async function listedColumns(call: Call, accountId: string, table: string) {
  const listed = await call('tables:list', { accountId });
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.data.tables.find((t) => t.name === table)?.columns;
}

beforeAll(async () => {
  harness = await startHarness({ accounts: { accounts: [{ handle: 'alice', type: 'user', plan: 'plus', api_keys: [key] }] } });
  cores.whole = caller(await harness.startCore({ keyVault: new KeyVault(memoryKeychain()) }));
  // files count as large from 4 KB, sent in parts of about 1 KB
  const partsCore = await harness.startCore({
    keyVault: new KeyVault(memoryKeychain()),
    dataDir: `${harness.coreDir}-parts`,
    uploadLimits: { singleBytes: 4096, partBytes: 1024 },
  });
  cores.parts = caller(partsCore);
  for (const way of ['whole', 'parts'] as const) {
    const added = await cores[way]('accounts:add', { label: 'alice', baseUrl: harness.baseUrl, apiKey: key });
    if (!added.ok) throw new Error(added.error.message);
    accounts[way] = added.data.id;
  }
});
afterAll(() => harness?.close());

describe('the types the upload form shows', () => {
  const text = csv();
  const { columns, rows } = formColumns(text);

  it('are the service’s for this file', () => {
    expect(columns).toEqual([
      { name: 'id', type: 'bigint' },
      { name: 'amount', type: 'int256' },
      { name: 'big', type: 'uint256' },
      { name: 'seen', type: 'timestamp' },
      { name: 'price', type: 'double' },
      { name: 'code', type: 'varchar' },
    ]);
  });

  for (const way of ['whole', 'parts'] as const) {
    it(`are the table's, every value kept, when the file is sent ${way === 'whole' ? 'in one request' : 'in parts'}`, async () => {
      const table = `typed_${way}`;
      const done = await upload(cores[way], { accountId: accounts[way], tableName: table, csv: text, columns, rows });
      expect(done).toMatchObject({ ok: true, data: { rows: ROWS, mode: way === 'whole' ? 'single' : 'parts' } });
      expect(await listedColumns(cores[way], accounts[way], table)).toEqual(columns);
      const read = await sql(
        harness.baseUrl,
        key,
        `SELECT cast(amount AS varchar) AS amount, cast(big AS varchar) AS big, cast(seen AS varchar) AS seen, price, code
         FROM dune.alice.dataset_${table} WHERE id = 7`,
      );
      expect(read).toEqual([
        { amount: '12345678901234567890007', big: String(2n ** 127n + 7n), seen: '2024-01-01 08:07:00', price: 7.25, code: '+7' },
      ]);
    });
  }
});
