/**
 * The results body in parts around the rows, which DuckDB already wrote as JSON and are sent
 * as they are: parsing them only to write them again would cost more than the query.
 */
export function resultsJson(
  envelope: Record<string, unknown>,
  /** The rows' JSON objects, joined by commas, in parts. */
  rows: Buffer[],
  metadata: Record<string, unknown>,
  next: { next_offset: number; next_uri: string } | null,
): (string | Buffer)[] {
  const head = JSON.stringify(envelope).slice(0, -1);
  const tail = next ? `,"next_offset":${next.next_offset},"next_uri":${JSON.stringify(next.next_uri)}` : '';
  return [`${head},"result":{"rows":[`, ...rows, `],"metadata":${JSON.stringify(metadata)}}${tail}}`];
}
