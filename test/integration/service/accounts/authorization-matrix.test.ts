import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withApiKey } from '../run-sql.ts';
import { startHarness, type Harness, type Json } from '../service-harness.ts';

// Every kind of resource, made by every kind of context, read and written by every context. The
// table below is the rule; each cell is tried over HTTP for every owner and reader it applies to.

const ACCOUNTS = {
  accounts: [
    { handle: 'fran', type: 'user', plan: 'free', api_keys: ['key-fran'] },
    { handle: 'alice', type: 'user', plan: 'plus', api_keys: ['key-alice'] },
    { handle: 'pia', type: 'user', plan: 'premium', api_keys: ['key-pia'] },
    { handle: 'acme', type: 'team', plan: 'premium', members: ['mia'], api_keys: ['key-acme'] },
    { handle: 'mia', type: 'user', plan: 'plus', api_keys: ['key-mia'] },
  ],
};
type Who = 'fran' | 'alice' | 'pia' | 'acme' | 'mia';
const EVERYONE: Who[] = ['fran', 'alice', 'pia', 'acme', 'mia'];
const HAS_QUERIES: Who[] = ['alice', 'pia', 'acme', 'mia'];
const PREMIUM: Who[] = ['pia', 'acme'];

/**
 * How the reader stands to the owner. A team member's own key is a context of its own: mia is
 * `other` to acme, and acme to mia, like any two contexts.
 */
type Relation = 'self' | 'other' | 'free';
const relation = (owner: Who, reader: Who): Relation => (owner === reader ? 'self' : reader === 'fran' ? 'free' : 'other');

/** `rows`/`none`: the SQL read the table's rows / found no such table. `-`: not tried. */
type Outcome = number | 'rows' | 'none' | '-';

// prettier-ignore
const MATRIX: Record<string, Record<Relation, Outcome>> = {
  //                                          self    other   free (a free reader has no query endpoints)
  'read public query':                   { self: 200, other: 200, free: 403 },
  'read private query':                  { self: 200, other: 404, free: 403 },
  'edit public query':                   { self: 200, other: 403, free: 403 },
  'edit private query':                  { self: 200, other: 404, free: 403 },
  'unarchive public query':              { self: 200, other: 403, free: 403 },
  'unarchive private query':             { self: 200, other: 404, free: 403 },
  'execute public query':                { self: 200, other: 200, free: 200 },
  'execute private query':               { self: 200, other: 404, free: 404 },
  'status of a public query run':        { self: 200, other: 200, free: 200 },
  'status of a private query run':       { self: 200, other: 404, free: 404 },
  'results of a public query run':       { self: 200, other: 200, free: 200 },
  'results of a private query run':      { self: 200, other: 404, free: 404 },
  'cancel a public query run':           { self: 200, other: 403, free: 403 },
  'cancel a private query run':          { self: 200, other: 404, free: 404 },
  'latest results of a public query':    { self: 200, other: 200, free: 200 },
  'latest results of a private query':   { self: 200, other: 404, free: 404 },
  'results of a SQL text run':           { self: 200, other: 404, free: 404 },
  'SQL reads a public table':            { self: 'rows', other: 'rows', free: 'rows' },
  'SQL reads a private table':           { self: 'rows', other: 'none', free: 'none' },
  'insert into a public table':          { self: 200, other: 403, free: 403 },
  'insert into a private table':         { self: 200, other: 404, free: 404 },
  'clear a public table':                { self: '-', other: 403, free: 403 },
  'delete a private table':              { self: '-', other: 404, free: 404 },
};

interface Made {
  query: Record<'public' | 'private', number>;
  run: Record<'public' | 'private', string>;
  sqlRun: string;
}

let h: Harness;
const made = new Map<Who, Made>();
const as = (who: Who) => withApiKey(`key-${who}`);

async function send(who: Who, method: string, path: string, body?: unknown, contentType?: string): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = { 'x-dune-api-key': `key-${who}` };
  if (contentType) headers['content-type'] = contentType;
  const response = await fetch(`${h.service.baseUrl}/api/v1${path}`, {
    method,
    headers,
    body: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

async function finished(who: Who, executionId: string): Promise<Json> {
  return h.waitUntilFinishedAs(executionId, `key-${who}`);
}

/** The SQL read as `who`: the table's rows, or no such table. */
async function sqlRead(who: Who, table: string): Promise<Outcome> {
  const run = await send(who, 'POST', '/sql/execute', { sql: `select * from ${table}` });
  const status = await finished(who, run.body.execution_id);
  if (status.state === 'QUERY_STATE_COMPLETED') return 'rows';
  expect(status.error.message).toMatch(/does not exist/);
  return 'none';
}

beforeAll(async () => {
  h = await startHarness({ accounts: ACCOUNTS });
  for (const owner of EVERYONE) {
    const upload = (name: string, isPrivate: boolean) =>
      h.post('/api/v1/table/upload/csv', { table_name: name, data: `who\n${owner}\n`, is_private: isPrivate }, as(owner));
    expect((await upload('open', false)).status).toBe(200);
    if (PREMIUM.includes(owner)) expect((await upload('closed', true)).status).toBe(200);
    if (!HAS_QUERIES.includes(owner)) continue;
    const query = { public: 0, private: 0 };
    const run = { public: '', private: '' };
    for (const kind of ['public', 'private'] as const) {
      const created = await send(owner, 'POST', '/query', {
        name: `${kind} of ${owner}`,
        query_sql: `select '${owner}' as owner`,
        is_private: kind === 'private',
      });
      query[kind] = created.body.query_id;
      run[kind] = (await send(owner, 'POST', `/query/${query[kind]}/execute`, {})).body.execution_id;
      await finished(owner, run[kind]);
    }
    const sqlRun = (await send(owner, 'POST', '/sql/execute', { sql: `select '${owner}' as owner` })).body.execution_id;
    await finished(owner, sqlRun);
    made.set(owner, { query, run, sqlRun });
  }
});
afterAll(() => h.stop());

/** Tries one cell: the operation on `owner`'s resource, as `reader`; answers the outcome. */
async function attempt(operation: string, owner: Who, reader: Who): Promise<Outcome> {
  const m = made.get(owner);
  const kind = operation.includes('private') ? 'private' : 'public';
  const table = `${owner}/dataset_${kind === 'private' ? 'closed' : 'open'}`;
  const status = async (answer: Promise<{ status: number }>) => (await answer).status;
  switch (operation.replace(/public |private /, '')) {
    case 'read query':
      return status(send(reader, 'GET', `/query/${m!.query[kind]}`));
    case 'edit query':
      return status(send(reader, 'PATCH', `/query/${m!.query[kind]}`, { description: `edited by ${reader}` }));
    case 'unarchive query':
      return status(send(reader, 'POST', `/query/${m!.query[kind]}/unarchive`));
    case 'execute query': {
      const answer = await send(reader, 'POST', `/query/${m!.query[kind]}/execute`, {});
      if (answer.status === 200) await finished(reader, answer.body.execution_id);
      return answer.status;
    }
    case 'status of a query run':
      return status(send(reader, 'GET', `/execution/${m!.run[kind]}/status`));
    case 'results of a query run':
      return status(send(reader, 'GET', `/execution/${m!.run[kind]}/results`));
    case 'cancel a query run':
      return status(send(reader, 'POST', `/execution/${m!.run[kind]}/cancel`));
    case 'latest results of a query': {
      const answer = await send(reader, 'GET', `/query/${m!.query[kind]}/results`);
      // whoever reads, the rows are the owner's own run's, never another reader's
      if (answer.status === 200) expect(answer.body.result.rows).toEqual([{ owner }]);
      return answer.status;
    }
    case 'results of a SQL text run':
      return status(send(reader, 'GET', `/execution/${m!.sqlRun}/results`));
    case 'SQL reads a table':
      return sqlRead(reader, `dune.${owner}.dataset_${kind === 'private' ? 'closed' : 'open'}`);
    case 'insert into a table':
      return status(send(reader, 'POST', `/table/${table}/insert`, `who\n${reader}\n`, 'text/csv'));
    case 'clear a table':
      return status(send(reader, 'POST', `/table/${table}/clear`));
    case 'delete a table':
      return status(send(reader, 'DELETE', `/table/${table}`));
    default:
      throw new Error(`no such operation: ${operation}`);
  }
}

/** The owners that can have the resource an operation acts on. */
function ownersFor(operation: string): Who[] {
  const onTable = /table/.test(operation) && !/SQL text/.test(operation);
  if (onTable) return operation.includes('private') ? PREMIUM : EVERYONE;
  return HAS_QUERIES;
}

describe('the authorization matrix', () => {
  for (const [operation, expected] of Object.entries(MATRIX)) {
    it(operation, async () => {
      const seen: string[] = [];
      const wanted: string[] = [];
      for (const owner of ownersFor(operation)) {
        for (const reader of EVERYONE) {
          const rule = expected[relation(owner, reader)];
          if (rule === '-') continue;
          wanted.push(`${reader} on ${owner}'s: ${rule}`);
          seen.push(`${reader} on ${owner}'s: ${await attempt(operation, owner, reader)}`);
        }
      }
      expect(seen).toEqual(wanted);
    });
  }

  it('left every private resource as its owner made it', async () => {
    for (const owner of PREMIUM) {
      const rows = await send(owner, 'POST', '/sql/execute', { sql: `select who from dune.${owner}.dataset_closed order by all` });
      await finished(owner, rows.body.execution_id);
      const read = await send(owner, 'GET', `/execution/${rows.body.execution_id}/results`);
      expect(read.body.result.rows).toEqual([{ who: owner }, { who: owner }]);
    }
  });
});
