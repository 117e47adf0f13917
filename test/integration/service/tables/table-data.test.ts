import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../../../main/service/storage/open-storage.ts';
import { TableData } from '../../../../main/service/tables/table-data.ts';
import { TableStore } from '../../../../main/service/tables/table-store.ts';

// Table files are attached, detached and attached again by uploads of several contexts at once.
// A file detached on one connection while another scanned the catalog stayed held, and attaching
// it again refused the upload ("Unique file handle conflict"), a few times in a hundred.

const dir = mkdtempSync(join(tmpdir(), 'querydesk-table-data-'));
let storage: Storage;
let data: TableData;
let store: TableStore;

beforeAll(async () => {
  storage = await openStorage(dir);
  store = new TableStore(storage.meta);
  data = new TableData(storage.files, store, storage.tableFiles);
});
afterAll(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One context's uploads, one after another: each a new table, then rows added to it. */
async function uploads(worker: number, count: number): Promise<number[]> {
  const rows: number[] = [];
  for (let i = 0; i < count; i++) {
    const csv = join(dir, `w${worker}_${i}.csv`);
    writeFileSync(csv, `a,b\n${i},x\n`);
    const created = await data.stage(csv, 'csv', false);
    const record = { namespace: `w${worker}`, tableName: `t_${i}`, accountId: worker, description: '', isPrivate: false, sizeBytes: 1 };
    await data.publish({ ...record, file: created.file });
    const table = (await store.get(record.namespace, record.tableName))!;
    const added = await data.stage(csv, 'csv', true);
    await data.insert(table, added.file, 1);
    const columns = await data.columns(table);
    expect(columns.map((c) => `${c.name} ${c.type}`)).toEqual(['a BIGINT', 'b VARCHAR']);
    rows.push(created.rows + added.rows);
  }
  return rows;
}

describe('table files of several contexts at once', () => {
  it('are staged, published, added to and read, each attached again after its detach', async () => {
    const done = await Promise.all([1, 2, 3, 4].map((worker) => uploads(worker, 25)));
    expect(done.flat()).toEqual(Array.from({ length: 100 }, () => 2));
  });
});
