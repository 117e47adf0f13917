// Links into the app: `querydesk://query/<id>?account=<name>` opens that query, in the account
// with that name (Local when none is named). Anything else in the scheme is ignored: a link comes
// from outside (a browser, a chat), so it is read strictly and can only select what it names.

export const DEEP_LINK_SCHEME = 'querydesk';

export interface DeepLink {
  queryId: number;
  /** The account's name as the user sees it; null for Local. */
  accountName: string | null;
}

export function parseDeepLink(text: string): DeepLink | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:` || url.hostname !== 'query' || url.username !== '' || url.password !== '') return null;
  const id = /^\/(\d{1,15})\/?$/.exec(url.pathname)?.[1];
  if (id === undefined || Number(id) <= 0) return null;
  const account = url.searchParams.get('account');
  if (account !== null && (account.trim() === '' || account.length > 100)) return null;
  return { queryId: Number(id), accountName: account?.trim() ?? null };
}

/** On Windows and Linux a link arrives as a command-line argument, at launch or to the running app. */
export function deepLinkIn(argv: readonly string[]): DeepLink | null {
  for (const arg of argv) {
    if (!arg.startsWith(`${DEEP_LINK_SCHEME}:`)) continue;
    const link = parseDeepLink(arg);
    if (link !== null) return link;
  }
  return null;
}

export interface LinkTarget {
  id: string;
  label: string;
  isLocal: boolean;
}

/** The account a link names: by its name, ignoring case; Local when it names none. Null when there is no such account. */
export function accountForLink(link: DeepLink, accounts: readonly LinkTarget[]): LinkTarget | null {
  if (link.accountName === null) return accounts.find((account) => account.isLocal) ?? null;
  const wanted = link.accountName.toLocaleLowerCase();
  return accounts.find((account) => account.label.toLocaleLowerCase() === wanted) ?? null;
}

export interface LinkDestination {
  accounts(): Promise<LinkTarget[]>;
  open(accountId: string, queryId: number): void;
  /** The link names an account this app does not have. */
  noSuchAccount(name: string, queryId: number): void;
}

/** Holds a link that arrives before the window can show it (a launch by link), then routes each. */
export class LinkRouter {
  #pending: DeepLink | null;
  #destination: LinkDestination | null = null;

  constructor(atLaunch: DeepLink | null) {
    this.#pending = atLaunch;
  }

  receive(link: DeepLink | null): void {
    if (link === null) return;
    if (this.#destination === null) this.#pending = link;
    else void this.#route(link, this.#destination);
  }

  /** The window shows the app: links go straight to it from now on. */
  ready(destination: LinkDestination): void {
    this.#destination = destination;
    const pending = this.#pending;
    this.#pending = null;
    if (pending !== null) void this.#route(pending, destination);
  }

  async #route(link: DeepLink, destination: LinkDestination): Promise<void> {
    const account = accountForLink(link, await destination.accounts());
    if (account === null) destination.noSuchAccount(link.accountName ?? 'Local', link.queryId);
    else destination.open(account.id, link.queryId);
  }
}
