import { CSV_COLUMN_TYPES, type CsvColumnType } from '../common/csv-column-types.ts';

// The service's rules for uploaded tables, without the schema library: the renderer checks a file
// against them before anything is sent, and the contract's schemas use the same values.

/** The single-request upload takes less than this (spec §4.9); larger files go in parts. */
export const SINGLE_UPLOAD_MAX_BYTES = 200 * 1024 * 1024;

/**
 * How a file of this size is sent: in one request, which replaces a table of its name whole, or in
 * parts, into a table created for them (a table of its name is deleted first). The form warns by it
 * and main sends by it, both from the file's size as the form measured it.
 */
export function uploadMode(fileBytes: number, singleMaxBytes: number = SINGLE_UPLOAD_MAX_BYTES): 'single' | 'parts' {
  return fileBytes < singleMaxBytes ? 'single' : 'parts';
}

export const TABLE_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/** The types a table made from parts gets, those the service gives an uploaded file's columns. */
export const TABLE_COLUMN_TYPES = CSV_COLUMN_TYPES;
export type TableColumnTypeName = CsvColumnType;

/** Characters per `tables:uploadChunk`: escaped as JSON it stays under the browser host's 1 MB message. */
export const UPLOAD_CHUNK_MAX_CHARS = 128 * 1024;

/** The prefix the service gives the SQL name of a CSV upload. */
export const DATASET_PREFIX = 'dataset_';

/**
 * The table name in SQL of an upload named `name`, whichever way it is sent: `dataset_<name>`, so a
 * table made under the bare name (by create, elsewhere) is another table.
 */
export function sqlTableName(name: string): string {
  return DATASET_PREFIX + name;
}
