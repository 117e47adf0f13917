import { fail, ok, type Result } from '../../contract/index.ts';
import { createServiceClient, type ServiceConnection, type ServiceError } from '../service-client/index.ts';

// The cheap authenticated call that tells whether a key works, before it is saved and when the
// user tests an account: one page of one query. Its refusals keep the service's own words, except
// where the base URL is the likely mistake.

export interface ConnectionCheck {
  latencyMs: number;
  /** The owner of the first listed query, which is the key's context; null when it has none. */
  handle: string | null;
}

// A person is waiting: one retry, short waits, and a shorter timeout than a page read gets.
const CHECK_RETRY = { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 5_000 };
const CHECK_TIMEOUT_MS = 15_000;

export async function checkConnection(connection: ServiceConnection): Promise<Result<ConnectionCheck>> {
  const client = createServiceClient({ ...connection, retry: CHECK_RETRY, timeoutMs: CHECK_TIMEOUT_MS });
  const startedAt = performance.now();
  const listed = await client.queries.list({ limit: 1 });
  const latencyMs = Math.round(performance.now() - startedAt);
  // A plan that may not list queries still authenticates: the service answers 403 only to a key it
  // knows (a wrong key is 401 first). Such a key can run queries and read results, so it is kept.
  if (!listed.ok && listed.error.kind === 'forbidden') return ok({ latencyMs, handle: null });
  if (!listed.ok)
    return fail(
      listed.error.kind,
      refusal(listed.error, connection.baseUrl),
      listed.error.status === null ? undefined : { status: listed.error.status },
    );
  return ok({ latencyMs, handle: listed.data.queries[0]?.owner || null });
}

// The heading the app shows names the kind (the key refused, the service not reached): the
// message is only why, and the base URL's advice where the address is the likely mistake.
function refusal(error: ServiceError, baseUrl: string): string {
  switch (error.kind) {
    case 'not_found':
      return `The address ${baseUrl} has no query service API at /api/v1 (HTTP 404). Check the base URL.`;
    default:
      return error.status === 200
        ? `The address ${baseUrl} answers, but not as the query service does. Check the base URL.`
        : error.message;
  }
}
