import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, KEYS } from '../accounts-fixture.ts';
import { runSql, withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
});
afterAll(() => h.stop());

type Who = keyof typeof KEYS;
const as = (who: Who, extra: Record<string, string> = {}) => withApiKey(KEYS[who], extra);
const sql = (who: Who, text: string): Promise<Json> => runSql(h, KEYS[who], text);

describe('POST /table/upload/csv', () => {
  it('uploads a CSV as dune.<handle>.dataset_<name>, queryable in SQL with inferred types', async () => {
    const upload = await h.post(
      '/api/v1/table/upload/csv',
      {
        table_name: 'prices',
        description: 'daily prices',
        is_private: false,
        data: 'day,token,price\n2024-01-01,WETH,2300.5\n2024-01-02,"W,BTC",42000\n',
      },
      as('alice'),
    );
    expect(upload).toEqual({ status: 200, body: { success: true, table_name: 'prices', full_name: 'dune.alice.dataset_prices' } });
    expect(await sql('alice', 'select * from dune.alice.dataset_prices order by day')).toEqual([
      { day: '2024-01-01', token: 'WETH', price: 2300.5 },
      { day: '2024-01-02', token: 'W,BTC', price: 42000 },
    ]);
  });

  it('replaces a table of the same name, and a failed upload leaves the old one', async () => {
    const put = (data: string) => h.post('/api/v1/table/upload/csv', { table_name: 'swap', data }, as('alice'));
    const listedColumns = async () =>
      (await h.get('/api/v1/tables', as('alice'))).body.tables
        .find((t: Json) => t.full_name === 'dune.alice.dataset_swap')
        .columns.map((c: Json) => c.name);
    expect((await put('a\n1\n')).status).toBe(200);
    expect(await listedColumns()).toEqual(['a']);
    expect((await put('b\n2\n3\n')).status).toBe(200);
    // the list shows the table as it is now, not the columns it had when it was first listed
    expect(await listedColumns()).toEqual(['b']);
    expect(await sql('alice', 'select * from dune.alice.dataset_swap')).toEqual([{ b: 2 }, { b: 3 }]);
    const refused = await put('1st,ok\nx,y\n');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/column name '1st'/);
    const special = await put('#tag\nx\n');
    expect(special.body.error).toMatch(/column name '#tag'/);
    expect(await sql('alice', 'select * from dune.alice.dataset_swap')).toEqual([{ b: 2 }, { b: 3 }]);
  });

  it('refuses bad names, private uploads below premium, and storage past the plan', async () => {
    const bad = await h.post('/api/v1/table/upload/csv', { table_name: 'Bad-Name', data: 'a\n1\n' }, as('alice'));
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/table_name must start with a lowercase letter/);
    const secret = await h.post('/api/v1/table/upload/csv', { table_name: 's', data: 'a\n1\n', is_private: true }, as('alice'));
    expect(secret).toEqual({ status: 403, body: { error: "private uploads need a premium plan; 'alice' is on the plus plan" } });
    expect((await h.post('/api/v1/table/upload/csv', { table_name: 's', data: 'a\n1\n', is_private: true }, as('acme'))).status).toBe(200);

    const big = `v\n${'x'.repeat(600 * 1024)}\n`;
    expect((await h.post('/api/v1/table/upload/csv', { table_name: 'big1', data: big }, as('bob'))).status).toBe(200);
    const over = await h.post('/api/v1/table/upload/csv', { table_name: 'big2', data: big }, as('bob'));
    expect(over.status).toBe(402);
    expect(over.body.error).toMatch(/free plan \(1 MB\)/);
    // replacing a table counts its new size instead of the old
    expect((await h.post('/api/v1/table/upload/csv', { table_name: 'big1', data: big }, as('bob'))).status).toBe(200);
  });
});

describe('data DuckDB cannot read', () => {
  it('is refused with what was wrong and where, on one line, without the advice DuckDB gives its own users', async () => {
    // a row wider than the header, past the rows DuckDB samples to read the file's dialect
    const data = `a,b\n${Array.from({ length: 30_000 }, (_, i) => `${i},${i}\n`).join('')}1,2,3\n`;
    const refused = await h.post('/api/v1/uploads/csv', { table_name: 'ragged', data }, as('alice'));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^could not read the CSV: /);
    expect(refused.body.error).toMatch(/30002/);
    expect(refused.body.error).toMatch(/1,2,3/);
    expect(refused.body.error).not.toMatch(/\n|Possible|strict_mode|<hidden>|LINE 1/);
  });
});

describe('create, insert, list, delete', () => {
  it('creates a typed table, inserts CSV and NDJSON all-or-nothing, lists and deletes it', async () => {
    const created = await h.post(
      '/api/v1/table/create',
      {
        namespace: 'alice',
        table_name: 'events',
        schema: [
          { name: 'at', type: 'timestamp' },
          { name: 'n', type: 'integer', nullable: false },
          { name: 'tag', type: 'varchar' },
        ],
      },
      as('alice'),
    );
    expect(created).toEqual({
      status: 200,
      body: {
        namespace: 'alice',
        table_name: 'events',
        full_name: 'dune.alice.events',
        example_query: 'select * from dune.alice.events limit 10',
        message: 'Table created successfully',
        already_existed: false,
      },
    });
    expect(
      (
        await h.post(
          '/api/v1/table/create',
          { namespace: 'alice', table_name: 'events', schema: [{ name: 'x', type: 'integer' }] },
          as('alice'),
        )
      ).status,
    ).toBe(409);
    expect(
      (await h.post('/api/v1/table/create', { namespace: 'carol', table_name: 'x', schema: [{ name: 'x', type: 'integer' }] }, as('alice')))
        .status,
    ).toBe(403);

    const insert = (body: string, type: string) =>
      h.post('/api/v1/table/alice/events/insert', undefined, { ...as('alice', { 'content-type': type }), body });
    const csv = 'tag,at,n\nfirst,2020-12-01T23:33:00,1\nsecond,2020-12-02T00:00:00,2\n';
    expect(await insert(csv, 'text/csv')).toEqual({
      status: 200,
      body: { rows_written: 2, bytes_written: csv.length, name: 'dune.alice.events' },
    });
    expect((await insert('{"at":"2021-01-01 00:00:00","n":3,"tag":null}\n', 'application/x-ndjson')).body.rows_written).toBe(1);

    const bad = await insert('tag,at,n\nok,2021-01-01T00:00:00,4\nbad,2021-01-01T00:00:00,not-a-number\n', 'text/csv');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^nothing was inserted: /);
    const wrongColumns = await insert('tag,when\nx,y\n', 'text/csv');
    expect(wrongColumns.body.error).toMatch(/unknown \[when\], missing \[at, n\]/);
    expect((await insert('a', 'text/plain')).status).toBe(400);
    expect(await sql('alice', 'select n, tag from dune.alice.events order by n')).toEqual([
      { n: 1, tag: 'first' },
      { n: 2, tag: 'second' },
      { n: 3, tag: null },
    ]);

    const listed: Json = (await h.get('/api/v1/tables', as('alice'))).body;
    const events = listed.tables.find((t: Json) => t.full_name === 'dune.alice.events');
    expect(events).toMatchObject({
      is_private: false,
      purged_at: null,
      owner: { handle: 'alice', type: 'user' },
      columns: [
        { name: 'at', type: 'timestamp', nullable: true, metadata: {} },
        { name: 'n', type: 'integer', nullable: false, metadata: {} },
        { name: 'tag', type: 'varchar', nullable: true, metadata: {} },
      ],
    });
    expect(Number(events.table_size_bytes)).toBeGreaterThan(0);
    const firstOnly: Json = (await h.get('/api/v1/tables?limit=1', as('alice'))).body;
    expect(firstOnly.tables).toHaveLength(1);
    expect(firstOnly.next_offset).toBe(1);

    expect(
      (await h.post('/api/v1/table/alice/events/insert', undefined, { ...as('carol', { 'content-type': 'text/csv' }), body: csv })).status,
    ).toBe(403);
    expect((await h.post('/api/v1/table/alice/events', undefined, { ...as('carol'), method: 'DELETE' })).status).toBe(403);
    expect(await h.post('/api/v1/table/alice/events', undefined, { ...as('alice'), method: 'DELETE' })).toEqual({
      status: 200,
      body: { message: 'Table alice.events successfully deleted' },
    });
    expect((await h.post('/api/v1/table/alice/events', undefined, { ...as('alice'), method: 'DELETE' })).status).toBe(404);
    expect((await sql('alice', 'select * from dune.alice.events')).state).toBe('QUERY_STATE_FAILED');
  });
});

describe('user SQL', () => {
  it('cannot change tables or settings, nor reach files', async () => {
    for (const text of [
      'drop table dune.alice.dataset_prices',
      'create table dune.alice.x as select 1',
      'set threads = 1',
      'select 1; select 2',
    ]) {
      const status = await sql('alice', text);
      expect(status.state, text).toBe('QUERY_STATE_FAILED');
    }
    const files = await sql('alice', "select * from read_csv('/etc/passwd')");
    expect(files.error.message).toBe('read_csv() is not available: a query reads tables, never files or SQL text, and changes nothing');
    expect(await sql('alice', 'select count(*) as n from dune.alice.dataset_prices')).toEqual([{ n: 2 }]);
  });
});

describe('the /uploads paths that replace /table', () => {
  it('create, insert, list, clear and delete through /uploads', async () => {
    const created = await h.post(
      '/api/v1/uploads',
      {
        namespace: 'carol',
        table_name: 'scores',
        schema: [
          { name: 'who', type: 'varchar' },
          { name: 'score', type: 'double' },
        ],
      },
      as('carol'),
    );
    expect(created.body.full_name).toBe('dune.carol.scores');
    const inserted = await h.post('/api/v1/uploads/carol/scores/insert', undefined, {
      ...as('carol', { 'content-type': 'application/x-ndjson' }),
      body: '{"who":"x","score":1.5}\n{"who":"y","score":2}\n',
    });
    expect(inserted.body.rows_written).toBe(2);
    const listed: Json = (await h.get('/api/v1/uploads', as('carol'))).body;
    expect(listed.tables.map((t: Json) => t.full_name)).toEqual(['dune.carol.scores']);
    expect(await h.post('/api/v1/uploads/carol/scores/clear', undefined, as('carol'))).toEqual({
      status: 200,
      body: { message: 'Table dune.carol.scores successfully cleared' },
    });
    expect(await sql('carol', 'select count(*) as n from dune.carol.scores')).toEqual([{ n: 0 }]);
    expect((await h.post('/api/v1/uploads/csv', { table_name: 'tiny', data: 'a\n1\n' }, as('carol'))).body.full_name).toBe(
      'dune.carol.dataset_tiny',
    );
    expect((await h.post('/api/v1/uploads/carol/scores', undefined, { ...as('carol'), method: 'DELETE' })).status).toBe(200);
  });
});

describe('GET /uploads and /tables', () => {
  it('read a negative offset as 0, as the real service does, and refuse an offset that is no integer', async () => {
    for (const name of ['page_one', 'page_two']) {
      expect((await h.post('/api/v1/uploads/csv', { table_name: name, data: 'a\n1\n' }, as('acme'))).status).toBe(200);
    }
    for (const path of ['/api/v1/uploads', '/api/v1/tables']) {
      const first: Json = await h.get(`${path}?limit=1`, as('acme'));
      expect(first.body.next_offset).toBe(1);
      expect(await h.get(`${path}?offset=-5&limit=1`, as('acme'))).toEqual(first);
      for (const offset of ['x', '1.5', '-1.5', '--1']) {
        const refused = await h.get(`${path}?offset=${offset}`, as('acme'));
        expect(refused, offset).toEqual({ status: 400, body: { error: `offset must be an integer of at least 0, got '${offset}'` } });
      }
    }
  });
});

describe('restart', () => {
  it('keeps uploaded tables, their data and their records', async () => {
    const before: Json = (await h.get('/api/v1/tables', as('alice'))).body;
    await h.restart();
    expect((await h.get('/api/v1/tables', as('alice'))).body).toEqual(before);
    expect(await sql('alice', 'select count(*) as n from dune.alice.dataset_prices')).toEqual([{ n: 2 }]);
  });
});
