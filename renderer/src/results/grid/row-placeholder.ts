// A row of the grid's infinite model has no data until its block arrives, and the grid draws such
// a row's cells empty (its loading renderer serves other row models): these say what the row is,
// on its way or not loaded, never an empty cell that reads as an empty value.

export const LOADING = 'loading…';
export const NOT_LOADED = 'not loaded';

/** The blocks of rows whose load failed, until they are asked for again. */
export class FailedRows {
  readonly #blocks = new Map<number, number>();

  failed(startRow: number, endRow: number): void {
    this.#blocks.set(startRow, endRow);
  }

  asked(startRow: number): void {
    this.#blocks.delete(startRow);
  }

  clear(): void {
    this.#blocks.clear();
  }

  has(row: number): boolean {
    for (const [start, end] of this.#blocks) if (row >= start && row < end) return true;
    return false;
  }
}

/** What a row without its data says: `row` null is a row the grid has not placed. */
export function placeholderText(failedRows: FailedRows | undefined, row: number | null): string {
  return row !== null && failedRows?.has(row) ? NOT_LOADED : LOADING;
}
