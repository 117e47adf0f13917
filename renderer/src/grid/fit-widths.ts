import type { CellValue } from '../../../main/contract/index.ts';

const CELL_FONT = '12.5px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const HEADER_FONT = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
/** Cell padding plus room for later rows a little wider than the first ones. */
const PADDING_PX = 40;
const MIN_PX = 70;
const MAX_PX = 420;

let context: CanvasRenderingContext2D | null = null;

function measure(text: string, font: string): number {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length * 7.5;
  context.font = font;
  return context.measureText(text).width;
}

/**
 * Column widths fitted to the header and the first rows, measured as text rather than in the
 * DOM: the grid has not drawn those rows yet when they arrive.
 */
export function fitWidths(names: string[], types: string[], rows: CellValue[][]): number[] {
  return names.map((name, index) => {
    let widest = Math.max(measure(name, HEADER_FONT), measure(types[index] ?? '', HEADER_FONT));
    for (const row of rows) {
      const value = row[index];
      widest = Math.max(widest, measure(value === null || value === undefined ? 'null' : String(value), CELL_FONT));
    }
    return Math.round(Math.min(MAX_PX, Math.max(MIN_PX, widest + PADDING_PX)));
  });
}
