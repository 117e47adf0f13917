import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { quotedCsvField } from '../../common/csv-text.ts';
import { quoteIdentifier, quoteLiteral } from '../../common/sql-quote.ts';
import { fail, ok, type CellValue, type ExportFormat, type Result } from '../../contract/index.ts';
import type { PivotSettings, PivotTable } from '../../contract/pivot-models.ts';
import type { Column } from '../../filter-language/index.ts';
import type { CacheDb } from '../cache/cache-db.ts';
import type { CacheEntry } from '../cache/manifest.ts';
import { insertPages } from '../cache/page-inserts.ts';
import { columnDefinition, storageType } from '../cache/storage-types.ts';
import { COPY_OPTIONS, copySelectList } from '../export/copy-formats.ts';
import { ExportAborted, type FileSource } from '../export/export-sources.ts';
import { pivotFromCache } from './pivot-table.ts';

// A pivot's table as the window shows it, as a typed file: its shown groups' cells, written as the
// text of a page of the service's CSV, go into a table of the cache's storage types the way a
// downloaded page does (page-inserts.ts), and DuckDB writes the file from there with the exports'
// own select list (copy-formats.ts), so that a sum past 2^53 or a decimal's scale stays exact.

export interface PivotFileRequest {
  settings: PivotSettings;
  filters: string | undefined;
  format: ExportFormat;
  /** The keys of the groups shown, in any order; the file has them in the table's. */
  shown: CellValue[][];
  /** Each bucket's measure headings, as the table reads them. */
  headings: string[];
}

/** Column names made unique as CREATE TABLE needs them: a second "Rows" becomes "Rows (2)". */
function uniqueNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let unique = name;
    for (let n = 2; seen.has(unique); n++) unique = `${name} (${n})`;
    seen.add(unique);
    return unique;
  });
}

/** The file's columns: the group's level (0 for the grand total), one per row column, its rows, then each bucket's measures. */
function fileColumns(table: PivotTable, headings: string[]): Column[] {
  const typed = [
    { name: 'Level', wire: 'integer' },
    ...table.rows.map((row) => ({ name: row.grain ? `${row.name} (${row.grain})` : row.name, wire: row.type })),
    { name: 'Rows', wire: 'bigint' },
    ...headings.map((heading, i) => ({ name: heading, wire: table.measures[i % table.measures.length]!.type })),
  ];
  const names = uniqueNames(typed.map((column) => column.name));
  return typed.map((column, i) => ({ name: names[i]!, type: storageType(column.wire), duneType: column.wire }));
}

const csvCell = (value: CellValue) => (value === null ? '' : quotedCsvField(typeof value === 'string' ? value : JSON.stringify(value)));

export async function pivotFileSource(db: CacheDb, entry: CacheEntry, request: PivotFileRequest): Promise<Result<FileSource>> {
  const computed = await pivotFromCache(db, entry, request.settings, request.filters);
  if (!computed.ok) return computed;
  const table = computed.data;
  const buckets = table.split ? table.split.values.length + 1 + (table.split.other > 0 ? 1 : 0) : 1;
  if (request.headings.length !== buckets * table.measures.length) {
    return fail(
      'bad_request',
      `headings: ${request.headings.length} were given, and the pivot has ${buckets * table.measures.length} measure columns (${buckets} buckets of ${table.measures.length} measures).`,
    );
  }
  const shown = new Set(request.shown.map((key) => JSON.stringify(key)));
  const groups = table.groups.filter((group) => shown.has(JSON.stringify(group.key)));
  const columns = fileColumns(table, request.headings);
  const lines = groups.map((group) =>
    [
      String(group.key.length),
      ...table.rows.map((_, depth) => (depth < group.key.length ? csvCell(group.key[depth]!) : '')),
      String(group.rows),
      ...Array.from({ length: buckets }, (_, b) => table.measures.map((_, m) => csvCell(group.cells[b]?.[m] ?? null))).flat(),
    ].join(','),
  );
  return ok({
    kind: 'file',
    totalRowCount: groups.length,
    fromCache: true,
    copyTo: async (path, signal, onRows) => {
      const page = `${path}.pivot.csv`;
      await writeFile(page, `${columns.map((_, i) => `c${i}`).join(',')}\n${lines.map((line) => `${line}\n`).join('')}`, { mode: 0o600 });
      try {
        await db.withConnection(async (connection) => {
          if (signal.aborted) throw new ExportAborted();
          const tableName = `querydesk_pivot_${randomUUID().replaceAll('-', '')}`;
          await connection.run(`CREATE TEMP TABLE ${quoteIdentifier(tableName)} (${columns.map(columnDefinition).join(', ')})`);
          try {
            await insertPages({ connection, tableName, columns }, 'csv', [{ file: page, offset: 0, end: groups.length }]);
            const select = await copySelectList(connection, request.format, 'spreadsheet', quoteIdentifier(tableName), columns);
            await connection.run(
              `COPY (SELECT ${select} FROM ${quoteIdentifier(tableName)} ORDER BY rowid) TO ${quoteLiteral(path)} (${COPY_OPTIONS[request.format]})`,
            );
          } finally {
            await connection.run(`DROP TABLE IF EXISTS ${quoteIdentifier(tableName)}`);
          }
        });
      } finally {
        await rm(page, { force: true });
      }
      onRows(groups.length);
    },
  });
}
