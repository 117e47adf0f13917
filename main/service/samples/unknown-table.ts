import { missingTable } from '../../common/duckdb-errors.ts';
import { DUNE_ONLY_TABLES, SAMPLE_TABLES } from '../../common/dune-tables/index.ts';

// A dotted name as written at the place DuckDB points to: parts bare or in double quotes.
const PART = String.raw`(?:"(?:[^"]|"")*"|[A-Za-z_][\w$]*)`;
const DOTTED = new RegExp(String.raw`^${PART}(?:\s*\.\s*${PART})*`);

const DUNE_ONLY = new Set(DUNE_ONLY_TABLES.map((name) => name.toLowerCase()));
const OFFLINE = SAMPLE_TABLES.map((t) => `${t.schema}.${t.name}`).join(', ');

/**
 * The hosted service's words for an unknown table (`Table 'ethereum.logs' does not exist`), the
 * name as the SQL wrote it, with a hint when Dune has that table and the embedded service keeps
 * no sample of it; null when `message` is not DuckDB's unknown table or the name is not found.
 */
export function unknownTableMessage(message: string, sql: string, line: number, column: number): string | null {
  const found = missingTable(message);
  if (found === null) return null;
  const missing = found.split('.').at(-1)!;
  const source = sql.split('\n')[line - 1] ?? '';
  const written = DOTTED.exec(source.slice(column - 1))?.[0];
  if (written === undefined) return null;
  const parts = written.split(/\s*\.\s*/).map((part) => (part.startsWith('"') ? part.slice(1, -1).replaceAll('""', '"') : part));
  // DuckDB points at a function reading a table by its name in a string (query_table): its own words stay
  if (parts.at(-1)!.toLowerCase() !== missing.toLowerCase()) return null;
  const name = parts.join('.');
  const text = `Table '${name}' does not exist`;
  if (!DUNE_ONLY.has(name.toLowerCase())) return text;
  return `${text}: it is one of Dune's tables, which the embedded service has no sample of (offline: ${OFFLINE}); run the query on Dune for it`;
}
