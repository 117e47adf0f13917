// A service's base URL, as an account holds it and the service client builds its addresses from it.
// One reading for the contract (when an account is saved) and the client (when a request is sent),
// so that a base the contract accepts is one the client can use: in URL's normal form (host in
// lower case, no default port, no trailing slash), which is also the form the client compares
// every address with before the API key is sent to it.

export type BaseUrlReading = { ok: true; url: string } | { ok: false; problem: string };

/**
 * The base in URL's normal form, or why it cannot be one: a sentence about `subject` (the field's
 * name as the reader knows it), without its full stop.
 */
export function readBaseUrl(text: string, subject = 'baseUrl'): BaseUrlReading {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, problem: `${subject} must be an http or https URL, such as https://api.dune.com` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, problem: `${subject} must be an http or https URL, not ${url.protocol}` };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, problem: `${subject} must not hold a user name or password (user:pass@): the API key is what is sent` };
  }
  // each request sets its own query string; one in the base would be dropped or mixed in
  if (url.search !== '') return { ok: false, problem: `${subject} must not hold a query string (${url.search})` };
  if (url.hash !== '') return { ok: false, problem: `${subject} must not hold a fragment (${url.hash})` };
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}
