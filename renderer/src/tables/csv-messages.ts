import type { TableColumnTypeName } from '$contract/table-rules.ts';
import type { RaggedRow } from './validate.ts';

// What the CSV worker and the page say to each other.

export interface ParsedCsv {
  header: string[];
  /** The first rows after the header, as text. */
  preview: string[][];
  rows: number;
  types: TableColumnTypeName[];
  /** The first rows whose number of fields is not the header's. */
  ragged: RaggedRow[];
  raggedCount: number;
}

export interface ParseRequest {
  file: File;
  previewRows: number;
}

export type WorkerMessage = { kind: 'progress'; rows: number } | { kind: 'done'; parsed: ParsedCsv } | { kind: 'error'; message: string };
