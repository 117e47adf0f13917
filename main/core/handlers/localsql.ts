import { fail, ok } from '../../contract/index.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { noSuchAccount } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { LocalSql } from '../local-sql/local-sql.ts';

type LocalSqlChannels = 'localsql:tables' | 'localsql:run' | 'localsql:attachCsv' | 'localsql:detachCsv' | 'localsql:cancel';

/** SQL over the cache: never a service call, so it answers the same offline. */
export function localsqlHandlers(accounts: AccountRegistry, localSql: LocalSql): Pick<Handlers, LocalSqlChannels> {
  return {
    'localsql:tables': async ({ accountId }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      const attached = localSql.attachments.list(accountId).map(({ name, bytes }) => ({ name, bytes }));
      return ok({ tables: await localSql.tables(accountId), attached });
    },

    'localsql:run': async ({ accountId, sql, replaces, runId }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      const answer = await localSql.run({ accountId, sql, replaces, runId });
      if (answer.ok) return answer;
      const { message, line, column, cancelled } = answer.error;
      if (cancelled) return fail('cancelled', message);
      return line === undefined || column === undefined ? fail('bad_request', message) : fail('bad_request', message, { line, column });
    },

    'localsql:attachCsv': async ({ accountId, name, text, append }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      return ok(localSql.attachments.attach(accountId, name, text, append));
    },

    'localsql:detachCsv': async ({ accountId, name }) => {
      if (accounts.get(accountId) === null) return noSuchAccount(accountId);
      return ok({ removed: localSql.attachments.detach(accountId, name) });
    },

    'localsql:cancel': async ({ accountId, runId }) => ok({ cancelled: localSql.cancel(accountId, runId) }),
  };
}
