import type { ServiceAccount } from './service-process.ts';

// What a fuzz run aims at: contexts of every kind, and tables, queries and finished executions of
// each, made through the API before the random requests start.

export const FUZZ_ACCOUNTS: ServiceAccount[] = [
  { handle: 'fran', type: 'user', plan: 'free', api_keys: ['key-fran'] },
  { handle: 'alice', type: 'user', plan: 'plus', api_keys: ['key-alice'] },
  { handle: 'pia', type: 'user', plan: 'premium', api_keys: ['key-pia'] },
  { handle: 'acme', type: 'team', plan: 'premium', members: ['alice'], api_keys: ['key-acme'] },
];

/** The key of the free plan's user. */
export const FREE_KEY = 'key-fran';

export interface World {
  keys: string[];
  handles: string[];
  queryIds: number[];
  executionIds: string[];
  tables: { namespace: string; table: string }[];
  /** Column names of the results, for filters, sort_by and columns. */
  columns: string[];
}

const CSV = [
  'n,amount,name,day,flag',
  ...Array.from(
    { length: 300 },
    (_, i) => `${i},${(i * 1.25).toFixed(2)},name ${i % 17},2024-01-${String((i % 28) + 1).padStart(2, '0')},${i % 2 === 0}`,
  ),
].join('\n');

const RESULT_SQL = (table: string) =>
  `select n, amount, name, day, flag, uuid() as u, n::DECIMAL(18,4) as d, timestamp '2024-01-01 00:00:00' + to_seconds(n) as ts, ` +
  `[n, n + 1] as list, {'a': n} as s, n::UHUGEINT * 1000000000000000000000 as big, null as nothing from ${table} where n < {{limit}}`;

async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { 'x-dune-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await response.json();
  if (response.status >= 300) throw new Error(`setup: ${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Makes tables, queries and finished executions for every context that may have them. */
export async function buildWorld(baseUrl: string): Promise<World> {
  const world: World = {
    keys: FUZZ_ACCOUNTS.flatMap((a) => a.api_keys),
    handles: FUZZ_ACCOUNTS.map((a) => a.handle),
    queryIds: [],
    executionIds: [],
    tables: [],
    columns: ['n', 'amount', 'name', 'day', 'flag', 'u', 'd', 'ts', 'list', 's', 'big', 'nothing'],
  };
  for (const owner of FUZZ_ACCOUNTS) {
    const key = owner.api_keys[0]!;
    for (const isPrivate of owner.plan === 'premium' ? [false, true] : [false]) {
      const table = `fuzz_${isPrivate ? 'private' : 'public'}`;
      await call(baseUrl, key, 'POST', '/table/upload/csv', { table_name: table, data: CSV, is_private: isPrivate });
      world.tables.push({ namespace: owner.handle, table: `dataset_${table}` });
    }
    if (owner.plan === 'free') continue;
    for (const isPrivate of owner.plan === 'premium' ? [false, true] : [false]) {
      const { query_id: queryId } = await call(baseUrl, key, 'POST', '/query', {
        name: `fuzz ${owner.handle}`,
        query_sql: RESULT_SQL(`dune.${owner.handle}.dataset_fuzz_public`),
        parameters: [{ key: 'limit', type: 'number', value: '200' }],
        is_private: isPrivate,
      });
      world.queryIds.push(queryId);
      const { execution_id: executionId } = await call(baseUrl, key, 'POST', `/query/${queryId}/execute`, {});
      world.executionIds.push(executionId);
      while (!(await call(baseUrl, key, 'GET', `/execution/${executionId}/status`)).is_execution_finished) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
  return world;
}
