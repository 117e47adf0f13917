import type { CellValue, Explorers } from '$contract/index.ts';
import type { TypeKind } from '../../../../main/common/dune-types/index.ts';
import { explorerUrl, FIRST_CHAIN, onchainKind, rowChain, type OnchainKind } from '../../../../main/common/explorers/index.ts';

// What a cell's context menu offers beyond copying: its value in a block explorer, and the cell
// viewer for values too long or too deep to read in a cell.

/** The cell the menu is for: its column, its value as received and as shown, and its row's values by visible column. */
export interface CellTarget {
  columnName: string;
  kind: TypeKind;
  value: CellValue;
  /** As the grid shows it: bytes as 0x hex. */
  shown: string;
  rowColumns: readonly string[];
  row: readonly CellValue[];
}

/** Past this many characters a cell is likely cut off: hovering shows all of it, the viewer opens on it. */
export const LONG_TEXT = 24;

export type ExplorerAction = { url: string; label: string } | { label: string; disabled: true; title: string };

const NOUNS: Record<OnchainKind, string> = { address: 'address', transaction: 'transaction', block: 'block' };
/** Kinds whose values may be an address, a hash, an account or a block number. */
const LINKABLE: ReadonlySet<TypeKind> = new Set(['binary', 'text', 'integer', 'big-integer']);

/** The chain a cell's value is on: its row's `blockchain` or `chain` column, else the query's default. */
export function chainOf(target: CellTarget, defaultChain: string | null): string {
  return rowChain(target.rowColumns, target.row) ?? defaultChain ?? FIRST_CHAIN;
}

/** "Open in explorer" for an address, a transaction hash or a block; null when the value is none of them. */
export function explorerAction(explorers: Explorers, target: CellTarget, defaultChain: string | null): ExplorerAction | null {
  if (target.value === null || !LINKABLE.has(target.kind)) return null;
  const chain = chainOf(target, defaultChain);
  const kind = onchainKind(target.shown, chain, target.columnName);
  if (kind === null) return null;
  const label = `Open ${NOUNS[kind]} in explorer (${chain})`;
  const templates = explorers[chain];
  const url = templates ? explorerUrl(templates, kind, target.shown) : null;
  if (url === null)
    return { label, disabled: true, title: `Settings have no ${NOUNS[kind]} link for the chain ${chain}: add one under Block explorers.` };
  return { url, label };
}

/** Whether the cell viewer has more to show than the cell: nested values, JSON, long text. */
export function isViewable(kind: TypeKind, value: CellValue | undefined): boolean {
  if (typeof value !== 'string') return false;
  return kind === 'nested' || kind === 'json' || value.length > LONG_TEXT;
}
