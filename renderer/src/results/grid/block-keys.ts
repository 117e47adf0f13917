// The keys the grid leaves to the block of cells (as in a spreadsheet), and where a move lands.
import type { GridApi } from 'ag-grid-community';
import type { CellBlock, CellPoint } from './cell-block.ts';
import type { Row } from './columns.ts';

const ARROWS: Record<string, [number, number]> = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

type BlockKey = { kind: 'stretch'; by: [number, number] } | { kind: 'all' } | { kind: 'copy' };

/** What a key does to the block: Shift+arrows stretch it, Ctrl/Cmd+A takes every cell, Ctrl/Cmd+C copies it. */
function blockKey(event: KeyboardEvent): BlockKey | null {
  const mod = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (event.shiftKey && !mod && event.key in ARROWS) return { kind: 'stretch', by: ARROWS[event.key]! };
  if (mod && !event.shiftKey && key === 'a') return { kind: 'all' };
  if (mod && !event.shiftKey && !event.altKey && key === 'c') return { kind: 'copy' };
  return null;
}

/** Keys the grid must not handle itself: the block's stretch and select-all. */
export function isBlockKey(event: KeyboardEvent): boolean {
  const kind = blockKey(event)?.kind;
  return kind === 'stretch' || kind === 'all';
}

/** The cell a stretch by `[down, right]` from `from` reaches, kept inside the view's rows and columns. */
function stretchTarget(from: CellPoint, [down, right]: [number, number], columns: string[], rows: number): CellPoint {
  const row = Math.max(0, Math.min(rows - 1, from.row + down));
  const colId = columns[Math.max(0, Math.min(columns.length - 1, columns.indexOf(from.colId) + right))]!;
  return { row, colId };
}

/** The grid's displayed column ids, in order. */
export function displayedColumns(api: GridApi<Row>): string[] {
  return api.getAllDisplayedColumns().map((c) => c.getColId());
}

/** Applies a block key to the grid and the block; answers what is left to the caller: drawing the block again, or copying it. */
export function applyBlockKey(event: KeyboardEvent, api: GridApi<Row>, block: CellBlock, rowCount: number): 'draw' | 'copy' | null {
  const key = blockKey(event);
  if (!key || (key.kind === 'copy' && !block.bounds())) return null;
  event.preventDefault();
  if (key.kind === 'copy') return 'copy';
  if (key.kind === 'all') {
    block.all(rowCount, displayedColumns(api));
    return 'draw';
  }
  const from = block.focus;
  if (!from) return null;
  const { row, colId } = stretchTarget(from, key.by, displayedColumns(api), rowCount);
  api.ensureIndexVisible(row);
  api.ensureColumnVisible(colId);
  api.setFocusedCell(row, colId);
  return null;
}
