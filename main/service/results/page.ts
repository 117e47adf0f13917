// What a page of results is, whichever way it was made: written by PageWriter or cut from kept text blocks.

/**
 * What a page is written as for the client: JSON rows, CSV lines, or (for a client that asks for it
 * instead of CSV, see `parquetColumnSql`) a Parquet file. Not the app's PageFormat (main/core),
 * which is what it asks for.
 */
export type PageEncoding = 'json' | 'csv' | 'parquet';

/**
 * A page as bytes, in parts sent one after another: its rows' JSON objects joined by commas, its
 * CSV lines, each ending in a line break, or a Parquet file.
 */
export interface Page {
  body: Buffer[];
  rowCount: number;
  bytes: number;
  /** For a body in memory that is used again: to be called once it is sent, or never will be. */
  sent?: () => void;
}
