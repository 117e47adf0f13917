// The renderer's one origin. Kept apart from `electron` so every check on it is plain string work.

export const APP_SCHEME = 'app';
export const APP_HOST = 'querydesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * True when `url` belongs to the app origin. Compares scheme and host rather than
 * `URL.origin`, which WHATWG URL reports as "null" for schemes it does not know.
 */
export function isAppUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && parsed.username === '' && parsed.password === '';
}
