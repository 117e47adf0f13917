import { fail, ok, type Result, type UploadDone } from '../../contract/index.ts';
import { withAccount } from '../accounts/find-account.ts';
import type { AccountRegistry } from '../accounts/registry.ts';
import { serviceFailure } from '../failures.ts';
import type { Handlers } from '../ipc/dispatcher.ts';
import type { KnownRows } from '../tables/known-rows.ts';
import { queryOwner } from '../tables/table-lookup.ts';
import { splitFullName } from '../tables/table-names.ts';
import { readTableSummaries } from '../tables/table-summaries.ts';
import type { UploadSessions } from '../tables/upload-sessions.ts';
import type { Workspaces } from '../workspace/workspaces.ts';

type TableChannel =
  | 'tables:list'
  | 'tables:delete'
  | 'tables:uploadBegin'
  | 'tables:uploadChunk'
  | 'tables:uploadCommit'
  | 'tables:uploadRetry'
  | 'tables:uploadCancel';

export function tableHandlers(
  accounts: AccountRegistry,
  sessions: UploadSessions,
  knownRows: KnownRows,
  workspaces: Workspaces,
): Pick<Handlers, TableChannel> {
  const noUpload = (uploadId: string) => fail('not_found', `There is no open upload ${JSON.stringify(uploadId)}.`);

  /** The first send and a retry alike: the upload sends what the service does not have yet. */
  async function send(uploadId: string): Promise<Result<UploadDone>> {
    const session = sessions.get(uploadId);
    if (session === null) return noUpload(uploadId);
    if (session.upload.isSending) return fail('bad_request', 'This upload is being sent already.');
    const sent = await session.upload.send();
    if (sent.ok) {
      knownRows.remember(session.accountId, sent.data.fullName, sent.data.rows);
      await sessions.close(uploadId);
    }
    return sent;
  }

  return {
    'tables:list': withAccount(accounts, async (entry, { accountId }) => {
      const listed = await readTableSummaries(entry.client, knownRows, accountId);
      if (!listed.ok) return serviceFailure(listed.error);
      workspaces.recordTables(accountId, listed.data);
      // the sidebar's tables and the editor's completion follow the Tables page at once
      workspaces.changed(accountId);
      const fromTable = listed.data[0] === undefined ? null : (splitFullName(listed.data[0].fullName)?.namespace ?? null);
      const handle = fromTable ?? entry.account.handle ?? (await queryOwner(entry.client));
      return ok({ tables: listed.data, handle });
    }),

    'tables:delete': withAccount(accounts, async (entry, { accountId, fullName }) => {
      const name = splitFullName(fullName);
      if (name === null) return fail('invalid_request', `“${fullName}” is not a table’s full name (namespace.table).`);
      const removed = await entry.client.tables.remove(name.namespace, name.table);
      if (!removed.ok) return serviceFailure(removed.error);
      knownRows.forget(accountId, fullName);
      return ok({});
    }),

    'tables:uploadBegin': withAccount(accounts, async (entry, { accountId, ...request }) => {
      return ok({ uploadId: sessions.begin(entry, request) });
    }),

    'tables:uploadChunk': async ({ uploadId, index, text }) => {
      const session = sessions.get(uploadId);
      if (session === null) return noUpload(uploadId);
      const received = await session.file.append(index, text);
      return typeof received === 'string' ? fail('invalid_request', `The upload’s ${received}.`) : ok({ receivedBytes: received });
    },

    'tables:uploadCommit': ({ uploadId }) => send(uploadId),

    'tables:uploadRetry': ({ uploadId }) => send(uploadId),

    'tables:uploadCancel': async ({ uploadId }) => {
      const session = sessions.get(uploadId);
      if (session === null) return ok({ cancelled: false });
      await session.upload.cancel();
      await sessions.close(uploadId);
      return ok({ cancelled: true });
    },
  };
}
