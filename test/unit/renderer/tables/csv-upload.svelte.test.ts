import { describe, expect, it, vi } from 'vitest';
import type { TableSummary } from '../../../../main/contract/index.ts';
import type { Api } from '../../../../renderer/src/lib/bridge.ts';
import { TablesList } from '../../../../renderer/src/tables/tables.svelte.ts';
import { CsvUpload } from '../../../../renderer/src/tables/upload.svelte.ts';

// The upload form across files: the table name follows the file picked unless the user typed one,
// and "Upload another file" starts a new table's form; the SQL name is known before any table is.

// The CSV worker needs a browser: here a file reads as one column and one row.
vi.mock('../../../../renderer/src/tables/parse-file.ts', () => ({
  parseCsvFile: () => ({
    result: Promise.resolve({ header: ['a'], preview: [['1']], rows: 1, types: ['bigint'], ragged: [], raggedCount: 0 }),
    stop: () => {},
  }),
}));

/** main, as far as uploads go: every table sent is listed afterwards under the service's handle. */
function fakeMain(handle: string | null) {
  const tables: TableSummary[] = [];
  const api = {
    invoke: (channel: string, payload: { tableName?: string }) => {
      if (channel === 'tables:list') return Promise.resolve({ ok: true, data: { tables: [...tables], handle } });
      if (channel === 'tables:uploadBegin') {
        const name = payload.tableName!;
        tables.push({
          name,
          fullName: `dune.${handle}.dataset_${name}`,
          isPrivate: false,
          sizeBytes: 1,
          rows: 1,
          columns: [{ name: 'a', type: 'bigint' }],
          createdAt: null,
          updatedAt: null,
        });
        return Promise.resolve({ ok: true, data: { uploadId: 'u1' } });
      }
      if (channel === 'tables:uploadChunk') return Promise.resolve({ ok: true, data: { receivedBytes: 1 } });
      if (channel === 'tables:uploadCommit')
        return Promise.resolve({ ok: true, data: { fullName: `dune.${handle}.dataset_${tables.at(-1)!.name}`, rows: 1, mode: 'single' } });
      return Promise.resolve({ ok: false, error: { code: 'not_found', message: channel } });
    },
    on: () => () => {},
  } as unknown as Api;
  return api;
}

const csv = (name: string) => new File(['a\n1\n'], name, { type: 'text/csv' });

describe('the upload form', () => {
  it('names the table after each new file, until the user types a name', async () => {
    const api = fakeMain('demo');
    const upload = new CsvUpload(api, new TablesList(api));
    await upload.pick(csv('Daily Prices.csv'));
    expect(upload.tableName).toBe('daily_prices');
    await upload.pick(csv('rates.csv'));
    expect(upload.tableName).toBe('rates');
    upload.tableName = 'my_rates';
    await upload.pick(csv('other.csv'));
    expect(upload.tableName).toBe('my_rates');
  });

  it('starts a new table after "Upload another file", not a replacement of the one just sent', async () => {
    const api = fakeMain('demo');
    const tables = new TablesList(api);
    const upload = new CsvUpload(api, tables);
    await upload.pick(csv('prices.csv'));
    upload.tableName = 'e2e_prices';
    upload.description = 'Prices by day';
    await upload.submit('acc');
    expect(upload.phase).toBe('done');
    expect(tables.byUploadName('e2e_prices')).not.toBeNull();

    upload.startOver();
    expect([upload.tableName, upload.description, upload.phase]).toEqual(['', '', 'empty']);
    await upload.pick(csv('volumes.csv'));
    expect(upload.tableName).toBe('volumes');
    expect(upload.existing).toBeNull();
  });

  it("tells main the file's size its warning went by, and says what a failed upload left", async () => {
    const begun: { fileBytes?: number }[] = [];
    const api = {
      invoke: (channel: string, payload: { fileBytes?: number }) => {
        if (channel === 'tables:list') return Promise.resolve({ ok: true, data: { tables: [], handle: 'demo' } });
        if (channel === 'tables:uploadBegin') begun.push(payload);
        if (channel === 'tables:uploadBegin') return Promise.resolve({ ok: true, data: { uploadId: 'u1' } });
        if (channel === 'tables:uploadChunk') return Promise.resolve({ ok: true, data: { receivedBytes: 1 } });
        const error = { code: 'server_error', message: 'no', details: { retryable: true, left: 'deleted' } };
        return Promise.resolve({ ok: false, error });
      },
      on: () => () => {},
    } as unknown as Api;
    const upload = new CsvUpload(api, new TablesList(api));
    await upload.pick(csv('prices.csv'));
    await upload.submit('acc');
    expect(begun).toMatchObject([{ fileBytes: 4 }]);
    expect([upload.phase, upload.left, upload.inParts]).toEqual(['failed', 'deleted', false]);
  });

  it('replaces only the table an upload of that name goes to, not a created table of the bare name', async () => {
    const table = (fullName: string, name: string): TableSummary => ({
      name,
      fullName,
      isPrivate: false,
      sizeBytes: 1,
      rows: null,
      columns: [{ name: 'a', type: 'bigint' }],
      createdAt: null,
      updatedAt: null,
    });
    const listed = [table('dune.demo.foo', 'foo')];
    const api = {
      invoke: () => Promise.resolve({ ok: true, data: { tables: [...listed], handle: 'demo' } }),
      on: () => () => {},
    } as unknown as Api;
    const tables = new TablesList(api);
    await tables.load('acc');
    expect(tables.byUploadName('foo')).toBeNull();
    listed.push(table('dune.demo.dataset_foo', 'foo'));
    await tables.load('acc');
    expect(tables.byUploadName('foo')?.fullName).toBe('dune.demo.dataset_foo');
    expect(tables.byUploadName('oo')).toBeNull();
  });

  it('knows the SQL name of the tables before the account has one, from the handle main answers', async () => {
    const tables = new TablesList(fakeMain('demo'));
    expect(tables.prefix).toBeNull();
    await tables.load('acc');
    expect(tables.items).toEqual([]);
    expect(tables.prefix).toBe('dune.demo');
    const unknown = new TablesList(fakeMain(null));
    await unknown.load('acc');
    expect(unknown.prefix).toBeNull();
  });
});
