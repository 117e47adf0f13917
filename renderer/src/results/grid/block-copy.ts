import type { CellValue } from '$contract/index.ts';
import { errorLine } from '../../lib/error-words.ts';
import { formatCount } from '../../lib/format.ts';
import { resultIds, type ResultSource } from '../result-source.ts';
import type { ResultView } from '../result-view.svelte.ts';
import type { BlockBounds } from './cell-block.ts';
import { cellFormat, columnKind } from './cell-format.ts';
import { formatBlock, type CellText, type CopyFormat } from './clipboard-text.ts';
import { columnId } from './columns.ts';

// A block's cells are read again from main in the grid's view (filters, sort, columns), a few
// thousand rows at a time: the grid holds only the rows near the screen.

export const MAX_COPY_CELLS = 100_000;
/** The most rows one `results:getRows` call may ask for. */
const CHUNK_ROWS = 10_000;

export type BlockText = { ok: true; text: string; cells: number } | { ok: false; message: string };

export async function blockText(
  source: ResultSource,
  view: ResultView,
  bounds: BlockBounds,
  format: CopyFormat,
  allowPartial: boolean,
): Promise<BlockText> {
  const cells = (bounds.bottom - bounds.top + 1) * bounds.colIds.length;
  if (cells > MAX_COPY_CELLS) {
    return {
      ok: false,
      message: `That is ${formatCount(cells)} cells; up to ${formatCount(MAX_COPY_CELLS)} are copied at once. Export the view instead.`,
    };
  }
  const positions = bounds.colIds.map((colId) => view.visible.findIndex((c) => columnId(c.index) === colId));
  if (positions.some((p) => p < 0)) return { ok: false, message: 'The columns changed since the cells were picked: pick them again.' };
  const columns = positions.map((p) => view.visible[p]!);
  // as shown: bytes as 0x hex, a column scaled by its decimals scaled
  const formats = columns.map((c) => cellFormat(c.type, { grouping: false }, view.decimalsOf(c.name)));
  const values: CellValue[][] = [];
  for (let start = bounds.top; start <= bounds.bottom; start += CHUNK_ROWS) {
    const end = Math.min(bounds.bottom + 1, start + CHUNK_ROWS);
    const answer = await source.api.invoke('results:getRows', {
      ...resultIds(source),
      startRow: start,
      endRow: end,
      allowPartial,
      ...view.request(),
    });
    if (!answer.ok) return { ok: false, message: errorLine(answer.error, 'cellsRead') };
    for (const row of answer.data.rows) values.push(positions.map((p) => row[p] ?? null));
  }
  const texts: CellText[][] = values.map((row) => row.map((value, i) => (value === null ? null : formats[i]!(value))));
  const described = columns.map((c) => ({ name: c.name, kind: columnKind(c.type) }));
  return { ok: true, text: formatBlock(format, described, values, texts), cells };
}
