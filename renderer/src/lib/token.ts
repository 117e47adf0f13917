const STORAGE_KEY = 'querydesk.token';

/**
 * The browser host opens the page as `/#token=…`. Keep the token for this tab only (so a reload
 * still connects) and take it out of the address bar, where it would end up in history and
 * screenshots.
 */
export function takeToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(STORAGE_KEY, fromHash);
    history.replaceState(history.state, '', window.location.pathname + window.location.search);
    return fromHash;
  }
  return sessionStorage.getItem(STORAGE_KEY);
}
