import { describe, expect, it, vi } from 'vitest';
import type { TableSummary } from '../../../../main/contract/index.ts';
import type { Api } from '../../../../renderer/src/lib/bridge.ts';
import { TablesList } from '../../../../renderer/src/tables/tables.svelte.ts';
import { CsvUpload } from '../../../../renderer/src/tables/upload.svelte.ts';

// A file sent in one request is typed by the service itself: the embedded service types it as the
// form did, but Dune may read a column otherwise. The outcome then names what changed beyond the
// changes the user agreed to, and nothing when the service typed the file as shown.

// The CSV worker needs a browser: here every file reads as one whole-number column.
vi.mock('../../../../renderer/src/tables/parse-file.ts', () => ({
  parseCsvFile: () => ({
    result: Promise.resolve({ header: ['a'], preview: [['1']], rows: 1, types: ['bigint'], ragged: [], raggedCount: 0 }),
    stop: () => {},
  }),
}));

/** main over a service holding the table `rates`, which an upload replaces with a table of `typedAs` columns. */
function fakeMain(typedAs: TableSummary['columns']) {
  const rates = (columns: TableSummary['columns']): TableSummary => ({
    name: 'rates',
    fullName: 'dune.demo.dataset_rates',
    isPrivate: false,
    sizeBytes: 1,
    rows: 1,
    columns,
    createdAt: null,
    updatedAt: null,
  });
  let table = rates([{ name: 'a', type: 'double' }]);
  return {
    invoke: (channel: string) => {
      if (channel === 'tables:list') return Promise.resolve({ ok: true, data: { tables: [table], handle: 'demo' } });
      if (channel === 'tables:uploadBegin') return Promise.resolve({ ok: true, data: { uploadId: 'u1' } });
      if (channel === 'tables:uploadChunk') return Promise.resolve({ ok: true, data: { receivedBytes: 1 } });
      if (channel === 'tables:uploadCommit') {
        table = rates(typedAs);
        return Promise.resolve({ ok: true, data: { fullName: table.fullName, rows: 1, mode: 'single' } });
      }
      return Promise.resolve({ ok: false, error: { code: 'not_found', message: channel } });
    },
    on: () => () => {},
  } as unknown as Api;
}

/** Replaces `rates` with a file previewed as `a bigint`, agreeing to the change shown. */
async function replaceRates(api: Api): Promise<CsvUpload> {
  const tables = new TablesList(api);
  await tables.load('acc');
  const upload = new CsvUpload(api, tables);
  await upload.pick(new File(['a\n1\n'], 'rates.csv', { type: 'text/csv' }));
  expect(upload.changes).toEqual({ added: [], removed: [], retyped: [{ name: 'a', from: 'double', to: 'bigint' }] });
  await upload.submit('acc');
  expect(upload.asking).toBe(true);
  await upload.confirmReplace('acc');
  expect(upload.phase).toBe('done');
  return upload;
}

describe('the column changes the service made', () => {
  it('are those beyond the changes shown before sending', async () => {
    const upload = await replaceRates(
      fakeMain([
        { name: 'a', type: 'varchar' },
        { name: 'note', type: 'varchar' },
      ]),
    );
    expect(upload.surprise).toEqual({
      added: [{ name: 'note', type: 'varchar' }],
      removed: [],
      retyped: [{ name: 'a', from: 'double', to: 'varchar' }],
    });
  });

  it('are none when the service typed the file as the form showed', async () => {
    const upload = await replaceRates(fakeMain([{ name: 'a', type: 'bigint' }]));
    expect(upload.surprise).toBeNull();
  });
});
