// A block of cells picked as in a spreadsheet: a corner where the selection started (a click) and
// the corner it was stretched to (Shift+click, Shift+arrows), or the whole view (Ctrl/Cmd+A).
// Rows are positions in the grid's current view; columns are the grid's displayed column ids in
// their order when the block was made, so a column moved afterwards does not change what is copied.

export interface CellPoint {
  row: number;
  colId: string;
}

export interface BlockBounds {
  top: number;
  bottom: number;
  colIds: string[];
}

export class CellBlock {
  #anchor: CellPoint | null = null;
  #focus: CellPoint | null = null;
  #columns: string[] = [];

  /** Starts a block of one cell; `columns`: the displayed column ids, in order. */
  start(cell: CellPoint, columns: string[]): void {
    this.#anchor = cell;
    this.#focus = cell;
    this.#columns = columns;
  }

  /** Stretches the block to `cell` from where it started (or starts it there). */
  stretch(cell: CellPoint, columns: string[]): void {
    if (!this.#anchor || !columns.includes(this.#anchor.colId)) return this.start(cell, columns);
    this.#focus = cell;
    this.#columns = columns;
  }

  /** Every row of the view and every displayed column. */
  all(rowCount: number, columns: string[]): void {
    if (rowCount === 0 || columns.length === 0) return this.clear();
    this.#anchor = { row: 0, colId: columns[0]! };
    this.#focus = { row: rowCount - 1, colId: columns.at(-1)! };
    this.#columns = columns;
  }

  clear(): void {
    this.#anchor = null;
    this.#focus = null;
  }

  /** The corner the block was stretched to: where Shift+arrows move from. */
  get focus(): CellPoint | null {
    return this.#focus;
  }

  bounds(): BlockBounds | null {
    if (!this.#anchor || !this.#focus) return null;
    const from = this.#columns.indexOf(this.#anchor.colId);
    const to = this.#columns.indexOf(this.#focus.colId);
    if (from < 0 || to < 0) return null;
    return {
      top: Math.min(this.#anchor.row, this.#focus.row),
      bottom: Math.max(this.#anchor.row, this.#focus.row),
      colIds: this.#columns.slice(Math.min(from, to), Math.max(from, to) + 1),
    };
  }

  /** Whether the block holds more than the one cell it started on: only then is it drawn. */
  get stretched(): boolean {
    const bounds = this.bounds();
    return bounds !== null && (bounds.bottom > bounds.top || bounds.colIds.length > 1);
  }

  contains(row: number | null, colId: string): boolean {
    const bounds = this.bounds();
    return bounds !== null && row !== null && row >= bounds.top && row <= bounds.bottom && bounds.colIds.includes(colId);
  }

  cellCount(): number {
    const bounds = this.bounds();
    return bounds ? (bounds.bottom - bounds.top + 1) * bounds.colIds.length : 0;
  }
}
