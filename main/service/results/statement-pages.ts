import type { DuckDBConnection } from '@duckdb/node-api';
import { valuesOf } from '../../common/statement-values.ts';
import { jsonLineSql } from './json-lines.ts';
import type { PageRows } from './page-rows.ts';
import type { Page, PageEncoding } from './page.ts';
import { rowBytesSql, type ResultColumn } from './row-bytes.ts';

// Pages written by one statement, their text read as a value: no file, no COPY.

/** A short JSON page, its text, size and bytes from one statement. */
export async function oneStatementJson(connection: DuckDBConnection, columns: ResultColumn[], rows: PageRows): Promise<Page> {
  const row = `${jsonLineSql(columns, [])}::VARCHAR`;
  const reader = await connection.runAndReadAll(
    `SELECT string_agg(${row}, ',' ORDER BY ${rows.orderBy}), count(*)::BIGINT, coalesce(sum(${rowBytesSql(columns)}), 0)::BIGINT FROM (${rows.sql})`,
    valuesOf(rows.params),
  );
  const [[text, rowCount, bytes]] = reader.getRows() as [[string | null, bigint, bigint]];
  return { body: [Buffer.from(text ?? '')], rowCount: Number(rowCount), bytes: Number(bytes) };
}

/** A page without columns: as many empty objects, or empty lines, as it has rows. */
export async function columnless(connection: DuckDBConnection, rows: PageRows, format: PageEncoding): Promise<Page> {
  const [[count]] = (await connection.runAndReadAll(`SELECT count(*)::BIGINT FROM (${rows.sql})`, valuesOf(rows.params))).getRows() as [
    [bigint],
  ];
  const rowCount = Number(count);
  const text = format === 'json' ? Array(rowCount).fill('{}').join(',') : '\n'.repeat(rowCount);
  return { body: [Buffer.from(text)], rowCount, bytes: 0 };
}
