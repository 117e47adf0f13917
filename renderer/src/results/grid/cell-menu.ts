import type { Explorers } from '$contract/index.ts';
import { FIRST_CHAIN } from '../../../../main/common/explorers/index.ts';
import type { MenuItem } from '../../ui/menu-item.ts';
import type { ResultView } from '../result-view.svelte.ts';
import { columnKind, isScalable } from './cell-format.ts';
import { explorerAction, isViewable, type CellTarget } from './cell-links.ts';
import { COPY_FORMATS, FORMAT_LABELS, type CopyFormat } from './clipboard-text.ts';
import type { ViewColumn } from './view-language.ts';

// The grid's context menus: a column's (its header) offers its profile and its scale; a cell's
// adds its explorer link, the chain those links are for, the cell viewer, and the copy formats.

export interface MenuActions {
  profile: (column: string) => void;
  askDecimals: (column: string) => void;
  askChain: () => void;
  follow: (url: string) => void;
  openViewer: () => void;
  copy: (format: CopyFormat) => void;
}

export function columnMenu(column: ViewColumn, view: ResultView, act: MenuActions): MenuItem[] {
  const items: MenuItem[] = [{ label: `Profile of ${column.name}`, run: () => act.profile(column.name) }];
  if (!isScalable(columnKind(column.type))) return items;
  items.push({ label: 'Scale by decimals…', run: () => act.askDecimals(column.name) });
  const decimals = view.decimalsOf(column.name);
  if (decimals > 0) items.push({ label: `Show raw values (not ÷1e${decimals})`, run: () => view.scaleColumn(column.name, 0) });
  return items;
}

/** `cell`: the one cell the menu is about, null when it is about a block of them. */
export function cellMenu(
  cell: CellTarget | null,
  column: ViewColumn,
  view: ResultView,
  explorers: Explorers,
  act: MenuActions,
): MenuItem[] {
  const items: MenuItem[] = [];
  if (cell) {
    const link = explorerAction(explorers, cell, view.defaultChain);
    if (link)
      items.push(
        'url' in link
          ? { label: link.label, run: () => act.follow(link.url) }
          : { label: link.label, run: () => {}, disabled: true, title: link.title },
      );
    // only where a value may be an address or a hash is the chain worth choosing
    if (cell.kind === 'binary' || cell.kind === 'text')
      items.push({ label: `Chain for explorer links (${view.defaultChain ?? FIRST_CHAIN})…`, run: act.askChain });
    if (isViewable(cell.kind, cell.value)) items.push({ label: 'Open in cell viewer…', run: act.openViewer });
  }
  const copies = COPY_FORMATS.map((format) => ({ label: FORMAT_LABELS[format], run: () => act.copy(format) }));
  return [...items, ...copies, ...columnMenu(column, view, act)];
}
