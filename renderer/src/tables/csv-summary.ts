import type { ParsedCsv } from './csv-messages.ts';
import { TypeInference } from './infer-types.ts';
import type { RaggedRow } from './validate.ts';

const KEPT_RAGGED_ROWS = 20;

/** What the page shows of a file, gathered row by row: only the preview rows are kept. */
export class CsvSummary {
  readonly #previewRows: number;
  #header: string[] | null = null;
  #preview: string[][] = [];
  #ragged: RaggedRow[] = [];
  #raggedCount = 0;
  #rows = 0;
  #inference = new TypeInference();

  constructor(previewRows: number) {
    this.#previewRows = previewRows;
  }

  get rows(): number {
    return this.#rows;
  }

  /** The first row is the header; each other one is a row of data, numbered from 1. */
  add(row: string[]): void {
    if (this.#header === null) {
      this.#header = row;
      return;
    }
    this.#rows += 1;
    if (row.length !== this.#header.length) {
      this.#raggedCount += 1;
      if (this.#ragged.length < KEPT_RAGGED_ROWS) this.#ragged.push({ row: this.#rows, fields: row.length });
    }
    if (this.#preview.length < this.#previewRows) this.#preview.push(row);
    this.#inference.observe(row);
  }

  result(): ParsedCsv {
    const header = this.#header ?? [];
    return {
      header,
      preview: this.#preview,
      rows: this.#rows,
      types: this.#inference.types(header.length),
      ragged: this.#ragged,
      raggedCount: this.#raggedCount,
    };
  }
}
