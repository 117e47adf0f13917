import type { AccountStore } from '../accounts/account-store.ts';
import type { QueryStore } from '../queries/query-store.ts';
import { DEMO_QUERIES } from './demo-queries.ts';
import { OLD_DEMO_SQL } from './old-demo-sql.ts';
import { DEMO_HANDLE } from './seed-demo.ts';

// The demo account holds a handful of queries; more than this many is read a page at a time.
const PAGE = 100;

/**
 * Gives each of the demo account's queries whose SQL is exactly a text an earlier version seeded
 * (old-demo-sql.ts) the demo query's current text, so that it keeps its answer; a query whose SQL
 * was edited since is left as it is. Run at each start; does nothing once done.
 */
export async function updateDemoSql(accounts: AccountStore, queries: QueryStore): Promise<void> {
  const demo = await accounts.byHandle(DEMO_HANDLE);
  if (!demo) return;
  const current = new Map(DEMO_QUERIES.map((query) => [query.name, query.sql]));
  const replacements = new Map(OLD_DEMO_SQL.map(([name, sql]) => [sql, current.get(name)!]));
  for (let offset = 0; ; offset += PAGE) {
    const { queries: page, total } = await queries.listByOwner(demo.id, PAGE, offset);
    for (const query of page) {
      const sql = replacements.get(query.sql);
      if (sql !== undefined) await queries.update(query.id, { sql });
    }
    if (offset + PAGE >= total) return;
  }
}
