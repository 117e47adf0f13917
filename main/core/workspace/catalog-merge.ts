import type { LocalQuery, QueryDetail } from '../../contract/index.ts';
import type { QueryListItem } from '../service-client/index.ts';

/**
 * The queries list after a refresh: the service's list, in its order, with what only a detail says
 * (private, archived, the SQL) kept from before, the SQL only while the query has not changed since;
 * a query the service no longer lists is dropped unless something typed refers to it (`kept`),
 * then it stays, marked gone.
 */
export function mergeCatalog(previous: LocalQuery[], listed: QueryListItem[], kept: ReadonlySet<number>): LocalQuery[] {
  const before = new Map(previous.map((query) => [query.id, query]));
  const merged: LocalQuery[] = listed.map((item) => {
    const known = before.get(item.id);
    const unchanged = known !== undefined && known.updatedAt === item.updatedAt;
    return {
      ...item,
      isPrivate: known?.isPrivate ?? null,
      isArchived: known?.isArchived ?? null,
      sql: unchanged ? (known.sql ?? null) : null,
      isGone: false,
    };
  });
  const listedIds = new Set(listed.map((item) => item.id));
  for (const query of previous) {
    if (!listedIds.has(query.id) && kept.has(query.id)) merged.push({ ...query, isGone: true });
  }
  return merged;
}

/** The list entry of a query as a detail shows it (after opening, saving, creating or fetching it to search). */
export function withDetail(catalog: LocalQuery[], query: QueryDetail, addIfMissing: boolean): LocalQuery[] {
  const { id, name, description, owner, tags, isPrivate, isArchived, sql } = query;
  const fields = { id, name, description, owner, tags, isPrivate, isArchived, sql, isGone: false };
  const at = catalog.findIndex((entry) => entry.id === id);
  if (at >= 0) return catalog.map((entry, i) => (i === at ? { ...entry, ...fields } : entry));
  return addIfMissing ? [{ ...fields, createdAt: null, updatedAt: null }, ...catalog] : catalog;
}
