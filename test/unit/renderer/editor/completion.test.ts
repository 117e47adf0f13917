import { CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { PostgreSQL, schemaCompletionSource } from '@codemirror/lang-sql';
import { EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import type { TableSummary } from '../../../../main/contract/index.ts';
import { tableSchema } from '../../../../renderer/src/editor/completion.ts';

// The editor's completion of table names and columns, as CodeMirror asks for it at the cursor.

const UPLOAD: TableSummary = {
  name: 'prices',
  fullName: 'dune.demo.dataset_prices',
  isPrivate: false,
  sizeBytes: 10,
  rows: 1,
  columns: [{ name: 'price_usd', type: 'double' }],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};

async function optionsAt(text: string, tables: TableSummary[]): Promise<{ label: string; detail?: string }[]> {
  const source = schemaCompletionSource({ dialect: PostgreSQL, schema: tableSchema(tables) });
  const state = EditorState.create({ doc: text, extensions: [PostgreSQL.language] });
  const result = (await source(new CompletionContext(state, text.length, true))) as CompletionResult | null;
  return (result?.options ?? []).map((o) => ({ label: o.label, detail: o.detail }));
}

describe('completion of tables and columns', () => {
  it("offers Dune's sample tables by schema, then their columns with DuneSQL types", async () => {
    expect((await optionsAt('select * from ethereum.', [])).map((o) => o.label).sort()).toEqual(['blocks', 'transactions']);
    expect((await optionsAt('select * from erc20_ethereum.', [])).map((o) => o.label)).toEqual(['evt_Transfer']);
    const columns = await optionsAt('select ethereum.transactions.', []);
    expect(columns).toContainEqual({ label: 'hash', detail: 'varbinary' });
    expect(columns).toContainEqual({ label: 'value', detail: 'uint256' });
    expect(columns).toContainEqual({ label: 'block_time', detail: 'timestamp(3) with time zone' });
    expect(await optionsAt('select dex.trades.', [])).toContainEqual({ label: 'amount_usd', detail: 'double' });
    const top = (await optionsAt('select * from ', [UPLOAD])).map((o) => o.label);
    for (const schema of ['ethereum', 'erc20_ethereum', 'tokens', 'prices', 'dex', 'labels', 'dune']) expect(top).toContain(schema);
  });

  it("still offers the account's own tables under dune.<namespace>", async () => {
    expect((await optionsAt('select * from dune.demo.', [UPLOAD])).map((o) => o.label)).toEqual(['dataset_prices']);
    expect(await optionsAt('select dune.demo.dataset_prices.', [UPLOAD])).toEqual([{ label: 'price_usd', detail: 'double' }]);
  });
});
