// Dune's table routes as they are since 2026-03-01 (notes §9.1): the legacy `/table/*` and
// `GET /tables` routes are gone, and `POST /uploads/csv` answers the table name it was sent and
// nothing more (no `full_name`, which the embedded service adds). Dune's body for a route it no
// longer has is not documented: it is given here in Dune's error envelope.

const LEGACY_TABLE_ROUTE = /^\/api\/v1\/(tables|table\/.*)$/;

/** Whether Dune no longer has this route: a legacy table route. */
export function isRemovedTableRoute(path: string): boolean {
  return LEGACY_TABLE_ROUTE.test(path);
}

export const REMOVED_ROUTE_BODY = JSON.stringify({ error: 'Not found' });

export function isUploadCsv(method: string | undefined, path: string): boolean {
  return method === 'POST' && path === '/api/v1/uploads/csv';
}

/** The answer of an upload that succeeded, as Dune writes it: `{"table_name": …}`. */
export function duneUploadCsvAnswer(text: string): string {
  const body = JSON.parse(text) as { table_name?: unknown };
  return JSON.stringify({ table_name: body.table_name });
}
