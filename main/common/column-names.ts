// The names an uploaded table's columns may have (notes §9.1): each starts with a letter, and no two
// are the same once case is set aside, as Dune (and DuckDB under the embedded service) compare
// them. The service refuses a table by these rules, and the app checks a file by them before
// anything is sent, so that a replacement never deletes a table for a new one the service refuses.

/** Whether a column may have this name: it must start with a letter, in any script. */
export function startsWithLetter(name: string): boolean {
  return /^\p{L}/u.test(name);
}

/** What two column names are compared by: names that differ only in case name the same column. */
export function columnNameKey(name: string): string {
  return name.toLowerCase();
}

/** The first column name that may not be used. */
export function badColumnName(names: readonly string[]): string | null {
  return names.find((name) => !startsWithLetter(name)) ?? null;
}

/** The first column name given twice, whatever the case of either. */
export function repeatedColumnName(names: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const name of names) {
    const key = columnNameKey(name);
    if (seen.has(key)) return name;
    seen.add(key);
  }
  return null;
}
