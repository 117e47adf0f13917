// A text as a SQL string literal, for the paths and names DuckDB takes only inline (ATTACH, COPY TO,
// read_csv). Its own module so the cache file and its compaction both use it without importing each other.
export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
