import type { Account } from '$contract/index.ts';

// A query of an account on the real service also has a page on its website. The link opens in the
// user's browser: in Electron through the window-open guard, which lets only https through.

const REAL_SERVICE_HOST = 'api.dune.com';
const WEBSITE = 'https://dune.com';

/** The query's page on the service's website; null for Local and any other service. */
export function webPageOf(account: Pick<Account, 'isLocal' | 'baseUrl'>, queryId: number): string | null {
  if (account.isLocal) return null;
  let host: string;
  try {
    const url = new URL(account.baseUrl);
    if (url.protocol !== 'https:') return null;
    host = url.hostname;
  } catch {
    return null;
  }
  return host === REAL_SERVICE_HOST ? `${WEBSITE}/queries/${queryId}` : null;
}
