import { isUnderRoot, type RequestOptions, type Transport } from './request.ts';

// Where the page after this one is, for the JSON and CSV readers alike. The service's next_uri
// carries every option of the first request and is followed as given when it points into the
// same service; otherwise the next offset is asked for with the first request's options.

export function nextPageRequest(
  transport: Transport,
  first: RequestOptions,
  offset: number,
  page: { nextOffset: number | null; nextUri: string | null },
): { request: RequestOptions; offset: number } | null {
  const uri = page.nextUri === null ? null : parseUrl(page.nextUri);
  const uriOffset = uri === null ? null : Number.parseInt(uri.searchParams.get('offset') ?? '', 10);
  const nextOffset = page.nextOffset ?? (Number.isSafeInteger(uriOffset) ? uriOffset : null);
  // An offset that is unknown or does not move forward could read the same rows forever.
  if (nextOffset === null || nextOffset <= offset) return null;
  if (uri !== null && isUnderRoot(transport.root, uri)) {
    return { request: { method: 'GET', url: uri.href, signal: first.signal, accept: first.accept }, offset: nextOffset };
  }
  return { request: { ...first, query: { ...first.query, offset: nextOffset } }, offset: nextOffset };
}

function parseUrl(uri: string): URL | null {
  try {
    return new URL(uri);
  } catch {
    return null;
  }
}
