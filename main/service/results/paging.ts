import { badRequest } from '../http/http-error.ts';

export interface PageWindow {
  limit: number;
  offset: number;
}

/** A whole number written in digits alone, from `min` up to the largest a double holds exactly; null for any other text. */
export function wholeNumber(text: string, min: number): number | null {
  const value = Number(text);
  return /^\d+$/.test(text) && value >= min && Number.isSafeInteger(value) ? value : null;
}

function integerParam(url: URL, name: string, min: number): number | null {
  const text = url.searchParams.get(name);
  if (text === null || text === '') return null;
  const value = wholeNumber(text, min);
  if (value === null) throw badRequest(`${name} must be an integer of at least ${min}, got '${text}'`);
  return value;
}

/**
 * Dune's cap on the values (rows times columns) of one page, unless the request says
 * `ignore_max_datapoints_per_request=true`. Like a limit above the page cap, a page past it is
 * made shorter, and its next offset says where the rest starts.
 */
export const MAX_PAGE_DATAPOINTS = 250_000;

/** Whether a request's boolean option is on: `true` in any case, as the real service reads `allow_partial_results`. */
export function isOn(url: URL, name: string): boolean {
  return url.searchParams.get(name)?.toLowerCase() === 'true';
}

/** The rows a page of `columns` columns holds at most under the datapoint cap, at least one. */
export function datapointRows(url: URL, columns: number): number {
  if (isOn(url, 'ignore_max_datapoints_per_request')) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.floor(MAX_PAGE_DATAPOINTS / Math.max(1, columns)));
}

/** `limit` and `offset` of a result request; a limit above the page cap is lowered, not refused. */
export function pageWindow(url: URL, maxPageRows: number, defaultLimit = maxPageRows): PageWindow {
  const limit = integerParam(url, 'limit', 1) ?? defaultLimit;
  const offset = integerParam(url, 'offset', 0) ?? 0;
  return { limit: Math.min(limit, maxPageRows), offset };
}

/**
 * Where the next page starts, when rows remain: `next_uri` is absolute, on the origin the client
 * used, and keeps every option of the request (filters, columns, sort, parameters, key).
 */
export function nextPage(
  origin: string,
  path: string,
  url: URL,
  window: PageWindow,
  totalRows: number,
): { next_offset: number; next_uri: string } | null {
  const nextOffset = window.offset + window.limit;
  if (nextOffset >= totalRows) return null;
  const next = new URL(path, origin);
  for (const [name, value] of url.searchParams) next.searchParams.append(name, value);
  next.searchParams.set('limit', String(window.limit));
  next.searchParams.set('offset', String(nextOffset));
  return { next_offset: nextOffset, next_uri: next.toString() };
}
