import type { ICellRendererParams } from 'ag-grid-community';
import type { Row } from './columns.ts';

/**
 * What a cell of a row not here yet shows: that it is on its way, or that it could not be read
 * (the grid's own placeholder for that is "ERR"), never an empty cell that reads as an empty value.
 */
export function rowPlaceholder(params: ICellRendererParams<Row>): HTMLElement {
  const cell = document.createElement('span');
  const failed = params.node.failedLoad === true;
  cell.className = failed ? 'qd-row-unavailable' : 'qd-row-loading';
  cell.textContent = failed ? 'not loaded' : 'loading…';
  return cell;
}
