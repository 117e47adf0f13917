import { DATASET_PREFIX } from '../../contract/index.ts';

// How the service names uploaded tables in SQL: `<catalog>.<namespace>.<table>`, and a CSV
// upload's table is `dataset_<name>`.

export function splitFullName(fullName: string): { namespace: string; table: string } | null {
  const parts = fullName.split('.');
  if (parts.length < 2) return null;
  return { namespace: parts[parts.length - 2]!, table: parts[parts.length - 1]! };
}

/** The name the user gave: the SQL table name without the prefix of CSV uploads. */
export function userTableName(fullName: string): string {
  const table = splitFullName(fullName)?.table ?? fullName;
  return table.startsWith(DATASET_PREFIX) ? table.slice(DATASET_PREFIX.length) : table;
}
