import type { World } from './fuzz-world.ts';
import { mutate, oddly, type Random } from './random.ts';

// Random requests over every endpoint of the service: mostly well formed, so that they reach deep
// into the handlers, with odd values, mutated texts and broken bodies mixed in.

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const OPERATORS = ['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'ilike', 'in', 'is null', 'is not null', 'between', '~'];
const VALUES = [
  "'a'",
  "'name 3'",
  '5',
  '-1.5',
  '1e308',
  '1e999',
  "'2024-01-05'",
  "'2024-01-01 00:00:00 UTC'",
  'true',
  'null',
  "''",
  "'it''s'",
  "'%'",
  '18446744073709551616',
  "'0b9e1cb2-6e0e-4f6c-9a0b-000000000000'",
  '(1, 2)',
  "('a', 'b')",
];
const SQL = [
  'select 1 as one',
  'select * from dune.pia.dataset_fuzz_public limit 5',
  'select * from dune.pia.dataset_fuzz_private',
  'select * from dune.acme.dataset_fuzz_private',
  'select n / 0 as x from dune.alice.dataset_fuzz_public',
  "select cast('x' as int)",
  'select * from range(200000)',
  'select 1::VARIANT as v, 2 as v, 3 as V',
  // bytes made hex text at any depth, under names that need quotes
  `select {'x"y': '\\x01'::BLOB, 'it''s': [NULL::BLOB]} as "s""q", map {'\\xAB'::BLOB: [''::BLOB]} as m, union_value(b := '\\x02'::BLOB) as u, NULL::VARIANT as v, '{}'::JSON as j`,
  'select * from duckdb_settings()',
  'explain analyze select 1',
  // once wrote files, read the host or ended the process (see sandbox-writes.ts for the ones with paths)
  "explain analyze copy (select 'x' as a) to 'written.csv' (format csv, use_tmp_file false)",
  "select * from enable_logging(storage := 'file', storage_path := 'logs')",
  "select name, setting from pg_settings where name like '%directory%'",
  'select * from pragma_database_list',
  "explain analyze select 1 from duckdb_settings() where name = 'temp_directory' and value like '/%'",
  'create table t as select 1',
  'select 1; select 2',
  "select * from read_csv('/etc/passwd')",
  'select {{limit}}',
  // DuneSQL: rewritten, or refused with its position, before DuckDB sees it
  'select 0xabc',
  "select 0xab, '0xcd",
  'select approx_set(1)',
  "select date_format(now(), p) from (select '%Y' as p)",
  "select format_datetime(now(), 'GG')",
  "select uint256 '340282366920938463463374607431768211456'",
  'select varbinary_to_uint256(0x010000000000000000000000000000000000)',
  'explain analyze select sum(distinct x::uint256) filter (where x > 0) over () from range(3) t(x)',
  `select ${'sum('.repeat(3000)}0x01${')'.repeat(3000)}`,
  '',
  'select',
  // Dune's tables: a sample, one Dune has but not offline (a hint), an unknown name, a write
  'select count(*) from ethereum.transactions',
  'select * from ethereum.logs',
  'select * from "ethereum"."transaction"',
  'delete from ethereum.blocks',
];

function filterTerm(random: Random, world: World): string {
  const column = random.chance(0.9) ? random.pick(world.columns) : random.pick(['"n"', 'N', '"a b"', 'nope', '1', '"']);
  const operator = random.pick(OPERATORS);
  if (operator.startsWith('is')) return `${column} ${operator}`;
  if (operator === 'in') return `${column} in (${Array.from({ length: random.int(0, 3) }, () => random.pick(VALUES)).join(', ')})`;
  return `${column} ${operator} ${random.pick(VALUES)}`;
}

function filters(random: Random, world: World, depth = 0): string {
  if (depth > 2 || random.chance(0.5)) return filterTerm(random, world);
  const joined = `${filters(random, world, depth + 1)} ${random.pick(['and', 'or', 'AND', 'Or', 'not', ''])} ${filters(random, world, depth + 1)}`;
  return random.chance(0.3) ? `(${joined})` : joined;
}

function sortBy(random: Random, world: World): string {
  return Array.from(
    { length: random.int(1, 3) },
    () => `${random.pick(world.columns)}${random.pick(['', ' asc', ' desc', ' DESC', ' sideways', ' nulls first'])}`,
  ).join(random.pick([', ', ',', ' ']));
}

function resultQuery(random: Random, world: World): string {
  const params = new URLSearchParams();
  const maybe = (p: number, name: string, value: () => string) => random.chance(p) && params.set(name, oddly(random, value(), 0.15));
  maybe(0.5, 'limit', () => String(random.pick([0, 1, 5, 100, 30_000, 30_001, 1e9, -1])));
  maybe(0.4, 'offset', () => String(random.pick([0, 1, 7, 299, 300, 1e12, -5])));
  maybe(0.5, 'filters', () => filters(random, world));
  maybe(0.3, 'sort_by', () => sortBy(random, world));
  maybe(0.2, 'columns', () => Array.from({ length: random.int(1, 4) }, () => random.pick(world.columns)).join(','));
  maybe(0.15, 'sample_count', () => String(random.pick([1, 10, 300, 100_000, 0, -1])));
  maybe(0.1, 'allow_partial_results', () => random.pick(['true', 'false', 'yes']));
  maybe(0.1, 'ignore_max_datapoints_per_request', () => random.pick(['true', 'false']));
  maybe(0.1, 'params.limit', () => random.pick(['5', '250', 'abc', "5' or '1'='1"]));
  const text = params.toString();
  return text === '' ? '' : `?${random.chance(0.05) ? mutate(random, text) : text}`;
}

function queryBody(random: Random, partial: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const maybe = (name: string, value: () => unknown) => (!partial || random.chance(0.5)) && (body[name] = value());
  maybe('name', () => oddly(random, `fuzz ${random.int(0, 1000)}`));
  maybe('query_sql', () => oddly(random, random.pick(SQL), 0.2));
  if (random.chance(0.5)) body.description = oddly(random, 'about it');
  if (random.chance(0.4)) body.tags = random.pick([[], ['a'], ['a', 'a'], [1], 'tag', [null]]);
  if (random.chance(0.4)) {
    body.parameters = random.pick([
      [{ key: 'limit', type: 'number', value: '5' }],
      [{ key: 'c', type: 'enum', value: 'x', enumOptions: ['x', 'y'] }],
      [{ key: 'd', type: 'datetime', value: 'not a date' }],
      [{ key: '', type: 'text' }],
      [{}],
      'none',
    ]);
  }
  if (random.chance(0.3)) body.is_private = random.pick([true, false, 'yes', null]);
  return body;
}

function jsonBody(random: Random, world: World, kind: string): string | undefined {
  let body: unknown;
  switch (kind) {
    case 'execute':
      body = {
        query_parameters: random.pick([{}, { limit: '5' }, { limit: 'x' }, { limit: ['1', '2'] }, { other: 1 }, [], 'x']),
        performance: random.pick(['medium', 'large', 'huge', undefined]),
      };
      break;
    case 'sql':
      body = { sql: oddly(random, random.pick(SQL), 0.2), ...(random.chance(0.1) ? { query_parameters: { a: 1 } } : {}) };
      break;
    case 'create':
      body = queryBody(random, false);
      break;
    case 'update':
      body = queryBody(random, true);
      break;
    case 'upload':
      body = {
        table_name: oddly(random, `up_${random.int(0, 5)}`),
        data: oddly(random, random.pick(['a,b\n1,2\n', 'x\n', '1st col\n1\n', 'a,a\n1,2\n', '"unterminated\n'])),
        is_private: random.chance(0.3),
        description: 'fuzz',
      };
      break;
    case 'table':
      body = {
        namespace: random.pick(world.handles),
        table_name: oddly(random, `made_${random.int(0, 5)}`),
        schema: random.pick([
          [{ name: 'a', type: 'integer' }],
          [
            { name: 'b', type: 'uint256' },
            { name: 'c', type: 'varchar', nullable: false },
          ],
          [],
          [{ name: '1x', type: 'blob' }],
          [
            { name: 'a', type: 'integer' },
            { name: 'A', type: 'varchar' },
          ],
        ]),
        is_private: random.chance(0.2),
      };
      break;
    default:
      return undefined;
  }
  const text = JSON.stringify(body);
  if (random.chance(0.08)) return mutate(random, text);
  if (random.chance(0.03)) return random.pick(['', 'null', '[]', '{', '{"a":' + '['.repeat(5000), '"text"']);
  return text;
}

interface Endpoint {
  /** Null: any method, on a path that may not exist. */
  method: string | null;
  path: (random: Random, world: World) => string;
  body?: string;
  results?: boolean;
}

const id = (random: Random, known: readonly (string | number)[]) => oddly(random, String(random.pick(known)), 0.15);
const table = (random: Random, world: World) => {
  const t = random.pick(world.tables);
  return `${oddly(random, t.namespace, 0.1)}/${oddly(random, t.table, 0.1)}`;
};

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: (r, w) => `/query/${id(r, w.queryIds)}/execute`, body: 'execute' },
  { method: 'POST', path: () => '/sql/execute', body: 'sql' },
  { method: 'GET', path: (r, w) => `/execution/${id(r, w.executionIds)}/status` },
  { method: 'POST', path: (r, w) => `/execution/${id(r, w.executionIds)}/cancel` },
  { method: 'GET', path: (r, w) => `/execution/${id(r, w.executionIds)}/results${r.pick(['', '/csv'])}`, results: true },
  { method: 'GET', path: (r, w) => `/query/${id(r, w.queryIds)}/results${r.pick(['', '/csv'])}`, results: true },
  { method: 'GET', path: (r) => `/queries?limit=${oddly(r, String(r.int(0, 50)))}&offset=${oddly(r, String(r.int(0, 10)))}` },
  { method: 'GET', path: (r, w) => `/query/${id(r, w.queryIds)}` },
  { method: 'POST', path: () => '/query', body: 'create' },
  { method: 'PATCH', path: (r, w) => `/query/${id(r, w.queryIds)}`, body: 'update' },
  { method: 'POST', path: (r, w) => `/query/${id(r, w.queryIds)}/${r.pick(['archive', 'unarchive', 'private', 'unprivate'])}` },
  { method: 'POST', path: (r) => r.pick(['/table/upload/csv', '/uploads/csv']), body: 'upload' },
  { method: 'POST', path: (r) => r.pick(['/table/create', '/uploads']), body: 'table' },
  { method: 'POST', path: (r, w) => `/${r.pick(['table', 'uploads'])}/${table(r, w)}/insert`, body: 'insert' },
  { method: 'POST', path: (r, w) => `/${r.pick(['table', 'uploads'])}/${table(r, w)}/clear` },
  { method: 'DELETE', path: (r, w) => `/${r.pick(['table', 'uploads'])}/${table(r, w)}` },
  { method: 'GET', path: (r) => `/${r.pick(['tables', 'uploads'])}?limit=${oddly(r, String(r.int(1, 20)))}` },
  { method: null, path: (r) => `/${mutate(r, r.pick(['query/1/results', 'execution/x/status', 'uploads']))}` },
];

function headers(random: Random, world: World, body: string | undefined, kind: string | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  const key = random.chance(0.92) ? random.pick(world.keys) : random.pick(['', 'nope', 'key-' + 'x'.repeat(300)]);
  result[random.pick(['x-dune-api-key', 'X-DUNE-API-KEY', 'X-Dune-Api-Key'])] = key;
  if (kind === 'insert')
    result['content-type'] = random.pick(['text/csv', 'application/x-ndjson', 'text/plain', 'text/csv; charset=utf-8']);
  else if (body !== undefined && random.chance(0.3))
    result['content-type'] = random.pick(['application/json', 'text/plain', 'multipart/form-data']);
  if (random.chance(0.03)) result.host = random.pick(['%', '[', 'a b', 'x:99999', '127.0.0.1:1:2', 'evil.example', 'localhost']);
  // the CSV endpoints answer Parquet to a client that asks for it
  if (random.chance(0.1))
    result.accept = random.pick([
      'application/vnd.apache.parquet',
      'application/vnd.apache.parquet;q=x, text/csv',
      'application/VND.apache.parquet;q=0.9,*/*',
      ';;,',
      'text/csv;q=1, application/vnd.apache.parquet',
    ]);
  return result;
}

function insertBody(random: Random): string {
  const text = random.pick(['a\n1\n2\n', 'b,c\nx,\n', '{"a": 1}\n{"a": "x"}\n', '', 'a\n' + '9'.repeat(50) + '\n']);
  return random.chance(0.2) ? mutate(random, text) : text;
}

/** One random request; the same for the same world and the same state of `random`. */
export function fuzzRequest(random: Random, world: World): FuzzRequest {
  const endpoint = random.pick(ENDPOINTS);
  const method = endpoint.method ?? random.pick(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
  let path = `/api/v1${endpoint.path(random, world)}`;
  if (endpoint.results) path += resultQuery(random, world);
  const body = endpoint.body === 'insert' ? insertBody(random) : endpoint.body ? jsonBody(random, world, endpoint.body) : undefined;
  return { method, path, headers: headers(random, world, body, endpoint.body), body };
}
